// The sandbox clock: every time the sandbox reasons about (task progress, enrichment delays,
// timestamps) comes from here. `real` follows the wall clock plus an offset that advance() grows;
// `manual` starts at a fixed instant and moves only when advance() is called.

export type ClockMode = 'real' | 'manual';

/** Where a manual clock starts (and returns to on reset). */
export const MANUAL_CLOCK_START = Date.parse('2025-06-02T09:00:00.000Z');

export class SandboxClock {
  private offsetMs = 0;

  constructor(readonly mode: ClockMode) {}

  now(): number {
    return (this.mode === 'manual' ? MANUAL_CLOCK_START : Date.now()) + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
