// Cancel and resume of the document's bulk enrichment job, from the panel: what was written stays. A cancel while an
// execution holds the job leaves a stop mark that the execution honours at its next save (the panel shows the job
// cancelled at once); a paused job (token, sheet or column fixed) goes on when resumed.
import type { EnrichProgress } from '../contract';
import type { EnrichDeps } from '../ports';
import { cancelled, loadJob, requestStop, saveJob } from './job-state';
import { progressOf } from './progress';
import { LIMITS } from './limits';

/** How long a cancel waits for the job's lock before it leaves a stop mark instead. */
const CANCEL_LOCK_MS = 200;

/** Stops the job; everything written so far stays. */
export function cancelEnrichment(
  deps: Pick<EnrichDeps, 'store' | 'clock' | 'continuation' | 'lock'>,
): EnrichProgress | null {
  const job = loadJob(deps.store);
  if (!job) return null;
  if (job.status !== 'running' && job.status !== 'paused') return progressOf(job, deps.clock.now());
  const now = deps.clock.now();
  if (!deps.lock.tryLock(CANCEL_LOCK_MS)) {
    // An execution works on the job: it stops at its next save.
    requestStop(deps.store, job, now);
    return progressOf(cancelled(job, now), now);
  }
  try {
    const ended = cancelled(job, now);
    if (ended.timerArmed) deps.continuation.cancel();
    saveJob(deps.store, { ...ended, timerArmed: false, wake: null });
    return progressOf(ended, now);
  } finally {
    deps.lock.release();
  }
}

/** Continues a paused job (after the user fixed the token, the sheet or a column). */
export function resumeEnrichment(deps: Pick<EnrichDeps, 'store' | 'clock' | 'continuation'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  if (!job) return null;
  if (job.status === 'paused') {
    const now = deps.clock.now();
    job.status = 'running';
    job.message = null;
    job.updatedAt = now;
    if (!job.timerArmed) {
      const { timer, problem } = deps.continuation.arm();
      job.timerArmed = true;
      job.wake = { timer, at: now + LIMITS.triggerBackstopMs };
      if (problem) job.message = `${problem} Until then the job runs only while this panel is open.`;
    } else job.wake = { timer: job.wake?.timer ?? null, at: now + LIMITS.triggerBackstopMs };
    saveJob(deps.store, job);
  }
  return progressOf(job, deps.clock.now());
}
