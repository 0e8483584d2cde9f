// Clocks for the Apps Script emulator: the real wall clock, and a manual clock that tests move by hand.
// Every time-dependent behaviour of the emulator (cache TTLs, trigger schedules, execution time limits,
// quota windows, `Date` inside the bundle, `Utilities.sleep`) reads the runtime's clock.

/** Time source of one runtime. `manual` clocks only move when told to (or when the bundle sleeps). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Blocks (real clock) or advances time (manual clock) by `ms`. */
  sleep(ms: number): void;
  /** True when time stands still unless advanced explicitly. */
  readonly manual: boolean;
}

/** A clock that tests control: `advance(ms)`, `set(ms)`. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(epochMs: number): void;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the current thread for `ms` without burning CPU. */
export function blockingSleep(ms: number): void {
  if (ms > 0) Atomics.wait(sleepCell, 0, 0, ms);
}

export function createRealClock(): Clock {
  return { now: () => Date.now(), sleep: blockingSleep, manual: false };
}

/** A clock frozen at `startMs` (default 2025-01-06T09:00:00Z, a Monday) until advanced. */
export function createManualClock(startMs = Date.UTC(2025, 0, 6, 9, 0, 0)): ManualClock {
  let current = startMs;
  return {
    manual: true,
    now: () => current,
    sleep(ms: number) {
      if (ms > 0) current += ms;
    },
    advance(ms: number) {
      if (ms < 0) throw new RangeError('A manual clock only moves forward');
      current += ms;
    },
    set(epochMs: number) {
      current = epochMs;
    },
  };
}
