// The shared timer's research slice (src/scheduler runs it): polling on the document's one time-driven trigger.
import { researchContext, researchTick, withLock } from './context';

/**
 * The shared timer's research slice: one tick under the document lock within `budgetMs`. A tick that finds the lock
 * held does nothing and reports work pending (the holder is working on it). Tasks this user's account may not read
 * (another organization's) and creates another account launched are left to their payers' timers (`leftToOthers`).
 * The timer's own bookkeeping after the slice (research's mark, the timer kept or removed, its registry entry) is the
 * scheduler's, once for every slice (scheduler/timer-run.ts).
 */
export function researchTimerSlice(budgetMs: number): { pending: boolean; leftToOthers: boolean } {
  const r = researchContext(budgetMs);
  return withLock(
    r,
    1000,
    () => ({ pending: true, leftToOthers: false }),
    () => {
      const tick = researchTick(r);
      return { pending: tick.pending > 0, leftToOthers: tick.leftToOthers };
    },
  );
}
