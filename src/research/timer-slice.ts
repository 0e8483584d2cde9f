// The shared timer's research slice (src/scheduler runs it): polling on the document's one time-driven trigger.
import { researchContext, tickOnce, withLock } from './context';

/**
 * The shared timer's research slice: one tick under the document lock within `budgetMs`. A tick that finds the lock
 * held does nothing and reports work pending (the holder is working on it).
 */
export function researchTimerSlice(budgetMs: number): { pending: boolean } {
  const r = researchContext(budgetMs);
  return withLock(
    r,
    1000,
    () => ({ pending: true }),
    () => ({ pending: tickOnce(r).pending > 0 }),
  );
}
