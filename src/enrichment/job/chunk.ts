// One chunk of a bulk enrichment job: lookups under a time budget (cached first in the last plan, retries of domains
// the service is still enriching or refused, batches of the client's adaptive size), then one read and one batched
// write per block of field columns into the rows that hold the domains now, the domains' enrichment dates, the next
// plan, and the continuation. The job record is saved after the write, so a crash loses no written result.
import { userMessage } from '../../api/errors';
import { profileFieldByKey, type ProfileField } from '../../companies/profile-fields';
import { readCachedLookups } from '../../companies/profile-cache';
import { locateColumns, normalizeHeader } from '../sheet/layout';
import {
  addInvalidUpdates,
  addOutcomeUpdates,
  buildBlockWrites,
  dropFormulaCells,
  outcomeCells,
  readRows,
  updatedSpan,
  type CellUpdates,
} from '../sheet/rows';
import type { EnrichProgress } from '../contract';
import { jobGeneration, loadJob, nextPlan, recordFilledColumns, saveJob, type EnrichJob } from './job-state';
import { settleBatch, type BatchItem, type ChunkWork } from './settle';
import { openLookupCache, resolveDomains, storeLookups } from './lookups';
import { writtenFingerprint } from '../sheet/refresh-changes';
import type { EnrichSheet } from '../ports';
import { LIMITS } from './limits';
import type { EnrichDeps } from '../ports';
import { progressOf } from './progress';
import { freshReads } from '../../shared/fresh-reads';

export type ChunkMode = 'sidebar' | 'trigger';

/** How often a chunk's rounds look for a cancel or another execution's change of the job (a property read). */
const GENERATION_CHECK_MS = 3_000;

/** Takes the plan's cached lookups as outcomes at once (one cache read), leaving the rest of the plan to look up. */
function takeCachedFromPlan(deps: EnrichDeps, job: EnrichJob, work: ChunkWork): void {
  if (job.plan.length === 0) return;
  const cached = readCachedLookups(
    deps.cache,
    job.plan.map((entry) => entry.d),
    deps.clock.now(),
  );
  if (cached.size === 0) return;
  for (const entry of job.plan) {
    const hit = cached.get(entry.d);
    if (hit)
      work.outcomes.set(entry.d, {
        outcome: hit.state === 'found' ? { kind: 'profile', values: hit.values } : { kind: 'not_found' },
        planned: entry.r,
      });
  }
  job.cacheHits += cached.size;
  // Taken out of order, so the cursor (what a plan made once this one is used up starts after) moves past them.
  for (const domain of cached.keys()) if (domain > job.cursor) job.cursor = domain;
  job.plan = job.plan.filter((entry) => !cached.has(entry.d));
}

/**
 * Whether another execution stopped or replaced the job (a cancel from another panel): at most every
 * GENERATION_CHECK_MS it reads the job's head fresh (one property read), and the whole job only when the head changed.
 */
function watchForStop(deps: EnrichDeps, job: EnrichJob): () => boolean {
  let knownGeneration = jobGeneration(deps.store);
  let checkedAt = deps.clock.now();
  return () => {
    const now = deps.clock.now();
    if (now - checkedAt < GENERATION_CHECK_MS) return false;
    checkedAt = now;
    const generation = jobGeneration(freshReads(deps.store));
    if (generation === knownGeneration) return false;
    const stored = loadJob(freshReads(deps.store));
    if (!stored || stored.id !== job.id || stored.status !== 'running') return true;
    knownGeneration = generation;
    return false;
  };
}

/**
 * Looks up the plan (and due retries) batch by batch until done, cancelled, or out of time. In the last plan (no
 * later plan is read from the cursor, so taking entries out of order is safe) cached lookups come first, and for the
 * sidebar a chunk that found some ends there (written and shown at once). A sidebar chunk sleeps only for retries due
 * within LIMITS.sidebarMaxWaitMs (less than another execution would cost); for later ones the panel shows the waiting
 * domains and calls again when they are due.
 */
function lookUp(deps: EnrichDeps, job: EnrichJob, budgetMs: number, started: number, mode: ChunkMode): ChunkWork {
  const work: ChunkWork = { outcomes: new Map(), fatal: null, budgetUntil: null };
  if (job.waitUntil && deps.clock.now() < job.waitUntil) return work;
  job.waitUntil = null;
  if (job.mainDone) {
    takeCachedFromPlan(deps, job, work);
    if (mode === 'sidebar' && work.outcomes.size > 0) return work;
  }
  const client = deps.client();
  // The last plan's cached lookups were just taken; an earlier plan's are read here, once for all its rounds.
  const session = openLookupCache(deps.cache, job.mainDone ? [] : job.plan.map((entry) => entry.d), deps.clock.now());
  let planIndex = 0;
  const stoppedElsewhere = watchForStop(deps, job);
  // The rounds' requests counted in the budget at once (what is not sent is given back below).
  deps.requestsAhead.reserve(job.plan.length + job.retries.length);
  for (;;) {
    let now = deps.clock.now();
    if (now - started >= budgetMs) break;
    const room = Math.max(0, LIMITS.maxWaitingDomains - job.retries.length);
    const planWaits = planIndex < job.plan.length && room === 0;
    const maxWait = mode === 'sidebar' ? LIMITS.sidebarMaxWaitMs : LIMITS.maxWaitMs;
    if (planIndex >= job.plan.length || planWaits) {
      if (mode === 'sidebar' && job.retries.every((entry) => entry.at > now + maxWait)) break;
      // The plan is used up: stop to read the sheet for the next one, or (last plan, or a plan waiting for room
      // among the retries) wait for the retries that fall due soon, together, so they go out in one full fetchAll
      // rather than one by one.
      if ((!job.mainDone && !planWaits) || job.retries.length === 0) break;
      const next = Math.min(...job.retries.map((entry) => entry.at));
      const horizon = Math.min(next + LIMITS.retryGroupMs, now + maxWait);
      const until = Math.max(next, ...job.retries.map((entry) => entry.at).filter((at) => at <= horizon));
      if (until - started < budgetMs && until - now <= maxWait && until > now) {
        deps.clock.sleep(until - now);
        now = deps.clock.now();
      }
    }
    const batchSize = client.batchSize();
    const due = job.retries.filter((entry) => entry.at <= now).slice(0, batchSize);
    // Each domain of the batch leaves at most one retry: the waiting list stays within maxWaitingDomains.
    const fromPlan = job.plan.slice(planIndex, planIndex + Math.min(batchSize - due.length, room));
    if (due.length === 0 && fromPlan.length === 0) break;
    // The tail of a plan that is not the last goes out with the next plan, in a full batch.
    if (!job.mainDone && due.length + fromPlan.length < batchSize && planIndex + fromPlan.length >= job.plan.length)
      break;
    if (stoppedElsewhere()) break;
    const batch: BatchItem[] = [
      ...due.map((entry) => ({ d: entry.d, r: entry.r, retry: entry })),
      ...fromPlan.map((entry) => ({ d: entry.d, r: entry.r, retry: undefined })),
    ];
    const resolved = resolveDomains(
      batch.map((item) => item.d),
      { session, client, deadline: started + budgetMs, now: () => deps.clock.now() },
    );
    job.cacheHits += resolved.cacheHits;
    job.lookups += batch.length - resolved.cacheHits;
    job.requests += resolved.requests;
    now = deps.clock.now();
    const dueSet = new Set(due.map((entry) => entry.d));
    job.retries = job.retries.filter((entry) => !dueSet.has(entry.d));
    settleBatch(job, work, batch, resolved.results, now);
    planIndex += fromPlan.length;
    if (fromPlan.length > 0) job.cursor = fromPlan[fromPlan.length - 1].d;
    if (work.fatal) break;
    if (work.budgetUntil) {
      job.waitUntil = work.budgetUntil;
      break;
    }
  }
  job.plan = job.plan.slice(planIndex);
  storeLookups(session, deps.clock.now(), true);
  deps.requestsAhead.release();
  return work;
}

function pause(job: EnrichJob, message: string): void {
  job.status = 'paused';
  job.message = message;
}

/**
 * Writes this chunk's outcomes into the rows that hold their domains now, and plans the next chunk. Returns the
 * domains whose profile (or "Not found") was written, with the fingerprints of their values by field, to date them
 * (a later refresh then knows a value the user typed over them).
 */
function writeAndPlan(sheet: EnrichSheet, job: EnrichJob, work: ChunkWork): Map<string, Record<string, string>> {
  const settledDomains = new Map<string, Record<string, string>>();
  const values = sheet.readValues();
  const located = locateColumns(values[0] ?? [], job.domainColumn, job.domainHeader, job.headers);
  if (!located.ok) {
    pause(job, located.message);
    return settledDomains;
  }
  job.domainColumn = located.domainColumn;
  const fields = job.fields
    .map((key) => profileFieldByKey(key))
    .filter((field): field is ProfileField => field !== undefined);
  const settled = job.headers.map((header) => job.settled?.includes(normalizeHeader(header)) === true);
  const snapshot = readRows(values, 1, located.domainColumn, located.targets, job.overwrite, settled);
  const updates: CellUpdates = new Map();
  for (const [domain, { outcome, planned }] of work.outcomes) {
    const rows = snapshot.rowsByDomain.get(domain) ?? [];
    const needing = snapshot.pendingRows.get(domain) ?? 0;
    const cells = outcomeCells(outcome, fields);
    const written = addOutcomeUpdates(updates, values, rows, located.targets, cells, job.overwrite);
    if (written > 0 && (outcome.kind === 'profile' || outcome.kind === 'not_found'))
      settledDomains.set(
        domain,
        Object.fromEntries(fields.map((field, i) => [field.key, writtenFingerprint(cells[i])])),
      );
    if (outcome.kind === 'profile') job.counts.written += written;
    else if (outcome.kind === 'not_found') job.counts.notFound += written;
    else if (outcome.kind === 'enriching') job.counts.gaveUp += written;
    else job.counts.errors += written;
    job.counts.deleted += Math.max(0, planned - needing);
    job.resolvedDomains++;
  }
  addInvalidUpdates(updates, values, snapshot.invalidRows, located.targets[0], job.overwrite);
  const span = updatedSpan(updates);
  if (span) {
    const first = Math.min(...located.targets);
    const last = Math.max(...located.targets);
    const formulas = sheet.readFormulas({
      row: span.first + 1,
      column: first,
      numRows: span.last - span.first + 1,
      numColumns: last - first + 1,
    });
    const formulaAt = (index: number, column: number) => formulas[index - span.first]?.[column - first] || undefined;
    if (!job.overwrite) dropFormulaCells(updates, formulaAt);
    for (const write of buildBlockWrites(updates, values, located.targets, formulaAt))
      sheet.writeValues(write.row, write.column, write.values);
  }
  // The next plan (the last one: once it is looked up only retries remain, and this chunk's execution can wait for
  // them); when the last is used up, domains the user added since, past the cursor, make one more.
  if (!job.mainDone || job.plan.length === 0) {
    const retrying = new Set(job.retries.map((entry) => entry.d));
    const after = snapshot.pending.filter((domain) => domain > job.cursor && !retrying.has(domain));
    if (!job.mainDone || after.length > 0) Object.assign(job, nextPlan(after, snapshot.pendingRows, LIMITS));
  }
  return settledDomains;
}

function isFinished(job: EnrichJob): boolean {
  return job.mainDone && job.plan.length === 0 && job.retries.length === 0;
}

/** One chunk on a loaded running job: lookups, then the write and the next plan; updates `job` in place. */
function chunkOnce(deps: EnrichDeps, job: EnrichJob, started: number, budgetMs: number, mode: ChunkMode): void {
  const before = JSON.parse(JSON.stringify(job)) as EnrichJob;
  const work = lookUp(deps, job, budgetMs, started, mode);
  const needSheet = work.outcomes.size > 0 || job.chunks === 0 || !job.mainDone;
  if (needSheet) {
    const sheet = deps.sheets.byId(job.sheetId);
    if (!sheet) pause(job, `The sheet "${job.sheetName}" was deleted: start a new enrichment.`);
    else {
      deps.dates.prepare();
      const settled = writeAndPlan(sheet, job, work);
      if (job.status !== 'paused') deps.dates.record(sheet.id, settled, deps.clock.now());
    }
    if (job.status === 'paused') {
      // Nothing of this chunk was written: look its domains up again (from the cache) once resumed.
      Object.assign(job, {
        ...before,
        status: job.status,
        message: job.message,
        lookups: job.lookups,
        requests: job.requests,
        cacheHits: job.cacheHits,
      });
    }
  }
  if (work.fatal && job.status === 'running') pause(job, userMessage(work.fatal));
  job.chunks++;
  job.updatedAt = deps.clock.now();
  if (job.status === 'running' && isFinished(job)) {
    job.status = 'done';
    job.finishedAt = job.updatedAt;
    recordFilledColumns(deps.store, job.sheetId, normalizeHeader(job.domainHeader), job.headers.map(normalizeHeader));
  }
}

/**
 * Runs the document's job for one execution and returns its progress: one chunk for the sidebar (which calls again),
 * chunks until the time budget (`budgetMs`, else the mode's) is spent for the trigger (which re-arms itself). Holds the document lock so the
 * sidebar and the trigger never work on the job at the same time; a caller that finds it held gets `busy`.
 */
export function runChunk(deps: EnrichDeps, mode: ChunkMode, budgetMs?: number): EnrichProgress | null {
  if (!deps.lock.tryLock(500)) {
    const job = loadJob(deps.store);
    return job ? progressOf(job, deps.clock.now(), true) : null;
  }
  try {
    const started = deps.clock.now();
    const budget = budgetMs ?? (mode === 'trigger' ? LIMITS.triggerBudgetMs : LIMITS.sidebarBudgetMs);
    let job = loadJob(deps.store);
    if (!job || job.status !== 'running') {
      deps.continuation.cancel();
      return job ? progressOf(job, started) : null;
    }
    for (;;) {
      chunkOnce(deps, job, started, budget, mode);
      const stored = loadJob(freshReads(deps.store));
      if (stored && (stored.id !== job.id || stored.status === 'cancelled')) {
        job = stored;
        break;
      }
      saveJob(deps.store, job);
      const more = job.status === 'running' && progressOf(job, deps.clock.now()).nextStepInMs === 0;
      if (mode === 'sidebar' || !more || deps.clock.now() - started >= budget) break;
    }
    const now = deps.clock.now();
    const progress = progressOf(job, now);
    if (job.status === 'running') {
      const delay =
        mode === 'trigger'
          ? Math.max(LIMITS.triggerMinDelayMs, progress.nextStepInMs)
          : Math.max(LIMITS.triggerBackstopMs, progress.nextStepInMs);
      deps.continuation.wakeAfter(delay);
    } else {
      // Done, cancelled, or paused until the user acts (Resume re-arms the trigger).
      deps.continuation.cancel();
    }
    return progress;
  } finally {
    deps.lock.release();
  }
}
