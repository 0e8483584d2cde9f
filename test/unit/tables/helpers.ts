// Draft builders for the Tables unit tests.
import { defaultDraft, type ColumnDraft } from '../../../src/tables/model';
import { slugify } from '../../../src/tables/keys';

export function draft(header: string, overrides: Partial<ColumnDraft> = {}): ColumnDraft {
  return { ...defaultDraft(header, 1, slugify(header), true), ...overrides };
}

export function agent(header: string, prompt: string, overrides: Partial<ColumnDraft> = {}): ColumnDraft {
  const base = draft(header, overrides);
  return { ...base, kind: 'agent', agent: { ...base.agent, prompt, ...(overrides.agent ?? {}) } };
}

/** An in-memory KeyValueStore that enforces Apps Script's 9 KB per value and counts writes. */
export class MemoryStore {
  readonly values = new Map<string, string>();
  writes = 0;
  get(key: string): string | null {
    return this.values.has(key) ? this.values.get(key)! : null;
  }
  set(key: string, value: string): void {
    if (Buffer.byteLength(value, 'utf8') > 9 * 1024) throw new Error(`Argument too large: value of ${key}`);
    this.writes++;
    this.values.set(key, value);
  }
  remove(key: string): void {
    this.values.delete(key);
  }
}

export function manualClock(start = Date.UTC(2026, 10, 21, 12, 0)): {
  now(): number;
  sleep(ms: number): void;
  time: number;
} {
  const clock = { time: start, now: () => clock.time, sleep: (ms: number) => void (clock.time += ms) };
  return clock;
}
