// The shared timer's enrichment slice (src/scheduler runs it): continues the job within `budgetMs` once its wake time
// has come (each execution that ends with work left moves that time on, so the timer waits while a panel drives the
// job). Pending while the job holds a continuation; a job another user started runs on their token, so their own
// timer continues it.
import { enrichmentContext } from './context';
import { runChunk } from './job/run';
import { loadJob } from './job/job-state';
import { legacyWake, wakeIsMine } from './job/trigger-adapter';

export function enrichmentTimerSlice(budgetMs: number): { pending: boolean } {
  const deps = enrichmentContext();
  const job = loadJob(deps.store);
  if (!job?.timerArmed) return { pending: false };
  const wake = job.wake ?? legacyWake(deps.store);
  if (job.status === 'running' && wake && (deps.clock.now() < wake.at || !wakeIsMine(wake, deps.timer)))
    return { pending: true };
  runChunk(deps, 'trigger', budgetMs);
  return { pending: loadJob(deps.store)?.timerArmed === true };
}
