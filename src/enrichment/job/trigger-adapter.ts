// The enrichment job's continuation over the document's shared timer (src/scheduler): "run after N ms" is a wake
// record in the document (who asked, and when the next chunk is due) plus the timer marked pending for enrichment;
// the timer's enrichment slice runs a chunk once the wake time has come. Cancelling drops the record and lets the
// timer go when no other feature needs it.
import type { KeyValueStore } from '../../ports';
import { myTimers, removeTimerIfIdle, reserveTimer, type TimerDeps } from '../../scheduler/timer';
import type { ContinuationPort } from '../ports';

const WAKE_KEY = 'sheetscout.enrichment.wake';

export interface Wake {
  /**
   * The timer of the user whose job this is (the job runs on their token, so only their timer continues it); null in
   * a record of an earlier version, which any timer continues.
   */
  timer: string | null;
  at: number;
}

export function readWake(store: KeyValueStore): Wake | null {
  const text = store.get(WAKE_KEY);
  if (!text) return null;
  try {
    const wake = JSON.parse(text) as Partial<Wake>;
    return typeof wake.at === 'number'
      ? { timer: typeof wake.timer === 'string' ? wake.timer : null, at: wake.at }
      : null;
  } catch {
    return null;
  }
}

export function timerContinuation(timer: TimerDeps): ContinuationPort {
  return {
    wakeAfter: (afterMs: number) => {
      const problem = reserveTimer(timer, 'enrichment', { ownTimer: true })?.message ?? null;
      const wake: Wake = { timer: myTimers(timer)[0] ?? null, at: timer.clock.now() + Math.max(0, afterMs) };
      timer.document.set(WAKE_KEY, JSON.stringify(wake));
      return problem;
    },
    cancel: () => {
      timer.document.remove(WAKE_KEY);
      removeTimerIfIdle(timer, 'enrichment');
    },
  };
}

/** Whether the current user's timer continues the job of this wake (another user's job runs on their timer). */
export function wakeIsMine(wake: Wake, timer: TimerDeps): boolean {
  return wake.timer === null || myTimers(timer).includes(wake.timer);
}
