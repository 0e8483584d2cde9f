// The shared timer's enrichment slice (src/scheduler runs it): continues the job within `budgetMs` once its wake time
// has come (the sidebar pushes that time back while it drives the job). Pending while a continuation is scheduled; a
// job another user started runs on their token, so their own timer continues it.
import { enrichmentContext } from './context';
import { runChunk } from './job/chunk';
import { readWake, wakeIsMine } from './job/trigger-adapter';

export function enrichmentTimerSlice(budgetMs: number): { pending: boolean } {
  const deps = enrichmentContext();
  const wake = readWake(deps.store);
  if (!wake) return { pending: false };
  if (deps.clock.now() < wake.at || !wakeIsMine(wake, deps.timer)) return { pending: true };
  runChunk(deps, 'trigger', budgetMs);
  return { pending: readWake(deps.store) !== null };
}
