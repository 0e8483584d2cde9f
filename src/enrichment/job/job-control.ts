// Cancel and resume of the document's bulk enrichment job, from the panel: what was written stays, and a paused job
// (token, sheet or column fixed) continues on its continuation.
import type { EnrichProgress } from '../contract';
import { loadJob, saveJob } from './job-state';
import { progressOf } from './progress';
import { LIMITS } from './limits';
import type { EnrichDeps } from '../ports';

/** Stops the job; everything written so far stays. A chunk running meanwhile stops at its next batch. */
export function cancelEnrichment(deps: Pick<EnrichDeps, 'store' | 'clock' | 'continuation'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  if (!job) return null;
  if (job.status === 'running' || job.status === 'paused') {
    job.status = 'cancelled';
    job.message = 'Cancelled: values written so far are kept.';
    job.updatedAt = deps.clock.now();
    job.finishedAt = job.updatedAt;
    saveJob(deps.store, job);
  }
  deps.continuation.cancel();
  return progressOf(job, deps.clock.now());
}

/** Continues a paused job (after the user fixed the token, the sheet or a column). */
export function resumeEnrichment(deps: Pick<EnrichDeps, 'store' | 'clock' | 'continuation'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  if (!job) return null;
  if (job.status === 'paused') {
    job.status = 'running';
    job.message = null;
    job.updatedAt = deps.clock.now();
    saveJob(deps.store, job);
    deps.continuation.wakeAfter(LIMITS.triggerBackstopMs);
  }
  return progressOf(job, deps.clock.now());
}
