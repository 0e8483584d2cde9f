// Runs the document's job for one execution: the panel's start (which goes straight on with the job, so the start
// costs no execution of its own), the panel's next call, or the shared timer. It holds the document lock (the panel
// and the timer never work on the job at once; a caller that finds it held is told the job is busy), reads the sheet
// once (job-sheet.ts: from the job's cursor, or from the top with the enrichment dates when rows moved), works and
// saves (execution.ts, save.ts), and before its last save asks the shared timer to continue the job: the first time
// an execution ends with work left (one listing of the triggers per job), else by moving the wake time in the record.
import type { EnrichOptions, EnrichProgress, StartResult } from '../contract';
import type { EnrichDeps } from '../ports';
import { userMessage } from '../../api/errors';
import { normalizeHeader } from '../sheet/layout';
import { prefixFingerprint } from '../sheet/job-view';
import { loadJob, saveJob, type EnrichJob } from './job-state';
import { filledColumnsValue } from './sheet-choices';
import { LIMITS } from './limits';
import { progressOf } from './progress';
import { JobExecution, type ChunkMode } from './execution';
import { finishedDomains, saveExecution } from './save';
import { readJobSheet, type SheetState } from './job-sheet';
import { startLocked } from './service';
import { BUSY_MESSAGE } from '../../shared/busy';

export type { ChunkMode };

function pause(job: EnrichJob, message: string): void {
  job.status = 'paused';
  job.message = message;
}

/** Opens the execution on the job's sheet; null when the job paused (sheet or column gone). */
function open(deps: EnrichDeps, job: EnrichJob, started: number): JobExecution | null {
  const sheet = deps.sheets.byId(job.sheetId);
  if (!sheet) {
    pause(job, `The sheet "${job.sheetName}" was deleted: start a new enrichment.`);
    return null;
  }
  const state = readJobSheet(sheet, job, false);
  if ('message' in state) {
    pause(job, state.message);
    return null;
  }
  const ex = new JobExecution(deps, job, state, started);
  const trusted = !job.moved && prefixFingerprint(state.keys, job.cursor) === job.prefix;
  job.moved = !trusted;
  ex.view(trusted, trusted ? new Set() : finishedDomains(ex));
  // Rows that needed a value at the last save and are gone now were deleted before their result was written.
  job.counts.deleted += Math.max(0, job.remaining - ex.remaining());
  return ex;
}

/** When the next call should come: the earliest retry group, the request budget's refill, or now. */
function delayOf(job: EnrichJob, now: number): number {
  return Math.max(0, progressOf(job, now).nextStepInMs);
}

/** Arms (once per job) or moves the continuation, or drops it when the job no longer runs. */
function continueLater(deps: EnrichDeps, job: EnrichJob, mode: ChunkMode): void {
  const now = deps.clock.now();
  if (job.status !== 'running') {
    if (job.timerArmed) deps.continuation.cancel();
    job.timerArmed = false;
    job.wake = null;
    return;
  }
  const delay = delayOf(job, now);
  const after = Math.max(mode === 'trigger' ? LIMITS.triggerMinDelayMs : LIMITS.triggerBackstopMs, delay);
  if (!job.timerArmed) {
    const { timer, problem } = deps.continuation.arm();
    job.timerArmed = true;
    job.wake = { timer, at: now + after };
    // Without a timer the job still runs, while a panel is open: nothing of it is paid for.
    if (problem) job.message = `${problem} Until then the job runs only while this panel is open.`;
    return;
  }
  job.wake = { timer: job.wake?.timer ?? null, at: now + after };
}

/** One execution's work on a loaded running job (the lock held); returns the job as it ends. */
function runLoaded(
  deps: EnrichDeps,
  job: EnrichJob,
  mode: ChunkMode,
  started: number,
  budgetMs: number,
  opened?: JobExecution,
): EnrichJob {
  const ex = opened ?? open(deps, job, started);
  if (!ex) {
    continueLater(deps, job, mode);
    saveJob(deps.store, job);
    return job;
  }
  deps.cacheWrites.hold();
  deps.requestsAhead.reserve(ex.lookupsAhead());
  try {
    ex.openCache();
    ex.work(budgetMs, mode, () => saveExecution(ex));
  } finally {
    deps.requestsAhead.release();
  }
  if (!ex.stopped) {
    if (ex.fatal && ex.job.status === 'running') pause(ex.job, userMessage(ex.fatal));
    saveExecution(ex, false);
  }
  const ended = ex.job;
  let filled: Record<string, string> = {};
  if (ended.status === 'running' && ex.finished() && ex.toWrite.length === 0) {
    ended.status = 'done';
    ended.finishedAt = ended.updatedAt;
    filled = filledColumnsValue(
      deps.store,
      ended.sheetId,
      normalizeHeader(ended.domainHeader),
      ended.headers.map(normalizeHeader),
    );
  }
  continueLater(deps, ended, mode);
  saveJob(deps.store, ended, filled);
  return ended;
}

/**
 * Runs the document's job for one execution and returns its progress: until its time budget (`budgetMs`, else the
 * mode's) is spent, the job waits or ends.
 */
export function runChunk(deps: EnrichDeps, mode: ChunkMode, budgetMs?: number): EnrichProgress | null {
  if (!deps.lock.tryLock(500)) {
    const job = loadJob(deps.store);
    return job ? progressOf(job, deps.clock.now(), true) : null;
  }
  try {
    const started = deps.clock.now();
    const job = loadJob(deps.store);
    if (!job || job.status !== 'running') {
      if (job?.timerArmed) {
        continueLater(deps, job, mode);
        saveJob(deps.store, job);
      }
      return job ? progressOf(job, started) : null;
    }
    const budget = budgetMs ?? (mode === 'trigger' ? LIMITS.triggerBudgetMs : LIMITS.sidebarBudgetMs);
    return progressOf(runLoaded(deps, job, mode, started, budget), deps.clock.now());
  } finally {
    deps.lock.release();
  }
}

/** The panel's start: starts the job on the active sheet and goes on with it in the same execution. */
export function startAndRun(deps: EnrichDeps, options: EnrichOptions): StartResult {
  if (!deps.lock.tryLock(10_000)) return { ok: false, message: BUSY_MESSAGE };
  try {
    const started = deps.clock.now();
    const start = startLocked(deps, options);
    if ('message' in start) return { ok: false, message: start.message };
    const ex = new JobExecution(deps, start.job, start.state as SheetState, started);
    ex.view(true);
    const job = runLoaded(deps, start.job, 'sidebar', started, LIMITS.sidebarBudgetMs, ex);
    return { ok: true, progress: progressOf(job, deps.clock.now()) };
  } finally {
    deps.lock.release();
  }
}
