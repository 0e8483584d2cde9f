// ClockPort for Apps Script: wall-clock time from Date.now and blocking waits through
// Utilities.sleep (there is no setTimeout in Apps Script).

import type { ClockPort } from '../ports';

/** Utilities.sleep accepts at most 300,000 ms (5 minutes). */
const MAX_SLEEP_MS = 300_000;

/** Wraps the given `Utilities` service (the global, or a fake in tests). */
export function createAppsScriptClock(utilities: Pick<GoogleAppsScript.Utilities.Utilities, 'sleep'>): ClockPort {
  return {
    now: () => Date.now(),
    sleep: (ms) => {
      const wholeMs = Math.min(MAX_SLEEP_MS, Math.ceil(ms));
      if (wholeMs > 0) utilities.sleep(wholeMs);
    },
  };
}
