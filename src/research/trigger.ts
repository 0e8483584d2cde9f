// The polling trigger: one time-driven trigger per document, created idempotently when work is pending and removed
// when nothing is. Apps Script triggers belong to the user who made them, so the document keeps a record of whose
// trigger polls it; another user's launch only adds a trigger when that record's polls have gone stale. Every minute
// for a script bound to the spreadsheet, hourly for a published add-on (the platform's limit). Port-based.
import type { ClockPort, KeyValueStore } from '../ports';

export const TICK_HANDLER = 'researchTick';
export const TRIGGER_RECORD_KEY = 'sheetscout.research.trigger';
/** A record whose owner has not polled for this long is considered gone. */
export const STALE_AFTER_MS = 3 * 60 * 60 * 1000;

export type TriggerCadence = 'minute' | 'hourly';

export interface TriggerPort {
  /** The current user's triggers of this document that run `handler`: their ids. */
  list(handler: string): string[];
  create(handler: string, cadence: TriggerCadence): string;
  remove(id: string): void;
}

interface TriggerRecord {
  owner: string;
  id: string;
  lastTick: number;
}

function readRecord(store: KeyValueStore): TriggerRecord | null {
  const text = store.get(TRIGGER_RECORD_KEY);
  if (!text) return null;
  try {
    const record = JSON.parse(text) as TriggerRecord;
    return typeof record.owner === 'string' && typeof record.lastTick === 'number' ? record : null;
  } catch {
    return null;
  }
}

export interface TriggerDeps {
  triggers: TriggerPort;
  document: KeyValueStore;
  clock: ClockPort;
  /** The current user (email), the owner of triggers this execution creates. */
  user: string;
  cadence: TriggerCadence;
}

/** Makes sure exactly one poll trigger serves this document (caller holds the document lock). */
export function ensurePollTrigger(deps: TriggerDeps): 'exists' | 'created' | 'other_user' {
  const mine = deps.triggers.list(TICK_HANDLER);
  for (const extra of mine.slice(1)) deps.triggers.remove(extra);
  const now = deps.clock.now();
  if (mine.length > 0) {
    const record = readRecord(deps.document);
    if (!record || record.owner !== deps.user || record.id !== mine[0]) {
      deps.document.set(TRIGGER_RECORD_KEY, JSON.stringify({ owner: deps.user, id: mine[0], lastTick: now }));
    }
    return 'exists';
  }
  const record = readRecord(deps.document);
  if (record && record.owner !== deps.user && now - record.lastTick < STALE_AFTER_MS) return 'other_user';
  const id = deps.triggers.create(TICK_HANDLER, deps.cadence);
  deps.document.set(TRIGGER_RECORD_KEY, JSON.stringify({ owner: deps.user, id, lastTick: now }));
  return 'created';
}

/** Notes a poll by the current user (so other users do not add a second trigger). */
export function recordTick(deps: TriggerDeps): void {
  const record = readRecord(deps.document);
  if (record && record.owner === deps.user) {
    deps.document.set(TRIGGER_RECORD_KEY, JSON.stringify({ ...record, lastTick: deps.clock.now() }));
  }
}

/** Removes the current user's poll triggers and the document's record of them (nothing is pending). */
export function removePollTrigger(deps: TriggerDeps): number {
  const mine = deps.triggers.list(TICK_HANDLER);
  for (const id of mine) deps.triggers.remove(id);
  const record = readRecord(deps.document);
  if (record && record.owner === deps.user) deps.document.remove(TRIGGER_RECORD_KEY);
  return mine.length;
}
