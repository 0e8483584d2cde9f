// The enrichment job's continuation over the document's shared timer (src/scheduler): "run after N ms" is a wake
// record in the document (who asked, and when the next chunk is due) plus the timer marked pending for enrichment;
// the timer's enrichment slice runs a chunk once the wake time has come. Cancelling drops the record and lets the
// timer go when no other feature needs it.
import type { KeyValueStore } from '../ports';
import { ensureTimer, removeTimerIfIdle, type TimerDeps } from '../scheduler/timer';
import type { ContinuationPort } from './ports';

const WAKE_KEY = 'sheetscout.enrichment.wake';

export interface Wake {
  /** The user whose chunk this is (the job runs on their token, so only their timer continues it). */
  user: string;
  at: number;
}

export function readWake(store: KeyValueStore): Wake | null {
  const text = store.get(WAKE_KEY);
  if (!text) return null;
  try {
    const wake = JSON.parse(text) as Wake;
    return typeof wake.user === 'string' && typeof wake.at === 'number' ? wake : null;
  } catch {
    return null;
  }
}

export function timerContinuation(timer: TimerDeps): ContinuationPort {
  return {
    wakeAfter: (afterMs: number) => {
      timer.document.set(WAKE_KEY, JSON.stringify({ user: timer.user, at: timer.clock.now() + Math.max(0, afterMs) }));
      ensureTimer(timer, 'enrichment', { ownTimer: true });
    },
    cancel: () => {
      timer.document.remove(WAKE_KEY);
      removeTimerIfIdle(timer, 'enrichment');
    },
  };
}
