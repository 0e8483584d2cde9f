// The enrichment job's continuation over the document's shared timer (src/scheduler): arming it marks the timer pending
// for enrichment (creating the timer when the user has none for this document) and says whose timer it is; the wake
// time itself lives in the job's record (job-state.ts), which the timer's enrichment slice reads. Cancelling drops the
// mark and lets the timer go when no other feature needs it.
import type { KeyValueStore } from '../../ports';
import { myTimers, recordedTimer, removeTimerIfIdle, reserveTimer, type TimerDeps } from '../../scheduler/timer';
import type { ContinuationPort } from '../ports';
import type { JobWake } from './job-state';

/** Where an earlier version kept the wake (a job it left running is continued from it). */
const LEGACY_WAKE_KEY = 'sheetscout.enrichment.wake';

/** The wake an earlier version wrote, or null. */
export function legacyWake(store: KeyValueStore): JobWake | null {
  const text = store.get(LEGACY_WAKE_KEY);
  if (!text) return null;
  try {
    const wake = JSON.parse(text) as Partial<JobWake>;
    return typeof wake.at === 'number'
      ? { timer: typeof wake.timer === 'string' ? wake.timer : null, at: wake.at }
      : null;
  } catch {
    return null;
  }
}

export function timerContinuation(timer: TimerDeps): ContinuationPort {
  return {
    arm: () => {
      const problem = reserveTimer(timer, 'enrichment', { ownTimer: true })?.message ?? null;
      return { timer: recordedTimer(timer), problem };
    },
    cancel: () => {
      if (timer.document.get(LEGACY_WAKE_KEY) !== null) timer.document.remove(LEGACY_WAKE_KEY);
      removeTimerIfIdle(timer, 'enrichment');
    },
  };
}

/** Whether the current user's timer continues the job of this wake (another user's job runs on their timer). */
export function wakeIsMine(wake: JobWake, timer: TimerDeps): boolean {
  return wake.timer === null || myTimers(timer).includes(wake.timer);
}
