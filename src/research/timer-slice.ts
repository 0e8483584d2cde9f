// The shared timer's research slice (src/scheduler runs it): polling on the document's one time-driven trigger.
import { researchContext, tickOnce, withLock } from './context';

/**
 * The shared timer's research slice: one tick under the document lock within `budgetMs`. A tick that finds the lock
 * held does nothing and reports work pending (the holder is working on it). Tasks this user's account may not read
 * (another organization's) and creates another account launched are left to their payers' timers (`leftToOthers`).
 */
export function researchTimerSlice(budgetMs: number): { pending: boolean; leftToOthers: boolean } {
  const r = researchContext(budgetMs);
  return withLock(
    r,
    1000,
    () => ({ pending: true, leftToOthers: false }),
    () => {
      const tick = tickOnce(r);
      return { pending: tick.pending > 0, leftToOthers: tick.leftToOthers };
    },
  );
}
