// The bulk enrichment job: preview of a selection, start (header row and field columns, first plan), one chunk of
// work (lookups under a time budget, then one read and one batched write per column block, then the next plan), cancel,
// resume and progress. Every step runs in its own execution (the sidebar's next call or the continuation trigger);
// the durable job record (job-state.ts) is saved after the chunk's write, and lookups are cached as they arrive, so a
// crash at any point loses no finished result and the next chunk resumes from the record. Rows a job finished are
// skipped by later runs (rows.ts), so re-running a finished job sends no request at any size.
import type { CachePort, ClockPort, KeyValueStore, LockPort } from '../ports';
import { userMessage, type ApiError } from '../api/errors';
import { parseFieldList, PROFILE_FIELDS, profileFieldByKey, type ProfileField } from '../companies/profile-fields';
import { readCachedLookups } from '../companies/profile-cache';
import {
  columnOptions,
  DEFAULT_DOMAIN_HEADER,
  detectDomainColumn,
  locateColumns,
  normalizeHeader,
  planTargetColumns,
  type ColumnOption,
} from './layout';
import {
  addInvalidUpdates,
  addOutcomeUpdates,
  buildBlockWrites,
  columnRuns,
  dropFormulaCells,
  outcomeCells,
  readRows,
  updatedSpan,
  type CellUpdates,
  type RowOutcome,
} from './rows';
import type { EnrichOptions, EnrichPreview, EnrichProgress, FieldChoice, StartResult } from './contract';
import {
  chosenFields,
  emptyCounts,
  filledColumns,
  loadJob,
  recordFilledColumns,
  rememberChosenFields,
  saveJob,
  type EnrichJob,
  type RetryEntry,
} from './job-state';
import { resolveDomains, type LookupClient } from './lookups';
import type { EnrichmentDates, EnrichSheet, SheetAccess, TriggerPort } from './ports';
import { TIMER_HANDLER } from '../scheduler/timer';
import { columnLetter } from '../shared/a1';
import { BUSY_MESSAGE } from '../shared/busy';

/** Global run by the continuation trigger: the document's shared timer (src/scheduler). */
export const TRIGGER_HANDLER = TIMER_HANDLER;

export const LIMITS = {
  /** Domains planned per chunk (bounds what a crash can cost and the job record's size). */
  planSize: 750,
  /** Time after which a chunk starts no new batch: short for the sidebar (live progress), long for the trigger. */
  sidebarBudgetMs: 25_000,
  triggerBudgetMs: 240_000,
  /** Delays before the lookups that follow a 202 (enrichment started), then the row is marked. */
  enrichingDelaysMs: [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000, 120_000],
  /** Retries falling due within this window of the first one are sent together (fewer, fuller fetchAll calls). */
  retryGroupMs: 1_500,
  /** Delays before the lookups that follow a failed lookup (after the client's own retries). */
  errorDelaysMs: [5_000, 30_000, 120_000],
  /** The trigger fires this long after the last chunk if the sidebar stops driving the job. */
  triggerBackstopMs: 120_000,
  /** Longest sleep inside an execution for a retry that is due soon (longer waits end the execution). */
  maxWaitMs: 20_000,
  /** Shortest delay of a trigger that continues the job. */
  triggerMinDelayMs: 60_000,
};

/** Per-domain errors no later retry fixes: the row is marked at once. */
const PERMANENT_ERRORS: ReadonlySet<ApiError['kind']> = new Set(['invalid_input', 'validation', 'rejected']);

export interface EnrichDeps {
  store: KeyValueStore;
  sheets: SheetAccess;
  /** When each domain was last enriched (read by "Refresh data older than N days"). */
  dates: EnrichmentDates;
  cache: CachePort;
  clock: ClockPort;
  lock: LockPort;
  triggers: TriggerPort;
  client: () => LookupClient;
  newId: () => string;
}

// --- Progress ------------------------------------------------------------------------------------------------------

export function progressOf(job: EnrichJob, now: number, busy = false): EnrichProgress {
  const enriching = job.retries.filter((entry) => entry.why === 'enriching').length;
  const blocked = job.retries.filter((entry) => entry.why === 'paused').length;
  const percent =
    job.status === 'done'
      ? 100
      : job.totalDomains === 0
        ? 0
        : Math.min(99, Math.floor((job.resolvedDomains / job.totalDomains) * 100));
  const end = job.finishedAt ?? job.updatedAt;
  const seconds = Math.max(0.001, (end - job.startedAt) / 1000);
  const rate = job.resolvedDomains / seconds;
  const waiting = job.retries.filter((entry) => entry.why !== 'paused');
  const nextTry = waiting.length > 0 ? Math.min(...waiting.map((entry) => entry.at)) : null;
  let nextStepInMs = -1;
  if (job.status === 'running') {
    if (busy) nextStepInMs = 3000;
    else if (job.plan.length > 0 || !job.mainDone) nextStepInMs = 0;
    else if (job.retries.length > 0) {
      nextStepInMs = Math.max(0, retryGroupEnd(job.retries, Math.min(...job.retries.map((entry) => entry.at))) - now);
    } else nextStepInMs = 0;
  }
  return {
    jobId: job.id,
    status: job.status,
    message: job.message,
    sheetName: job.sheetName,
    domainColumnLabel: job.domainHeader
      ? `${columnLetter(job.domainColumn)}: ${job.domainHeader}`
      : columnLetter(job.domainColumn),
    headers: job.headers,
    overwrite: job.overwrite,
    scope: job.scope,
    counts: job.counts,
    totalDomains: job.totalDomains,
    resolvedDomains: job.resolvedDomains,
    percent,
    enriching,
    retrying: job.retries.length - enriching - blocked,
    blocked,
    nextTrySeconds: nextTry === null ? null : Math.max(0, Math.ceil((nextTry - now) / 1000)),
    lookups: job.lookups,
    cacheHits: job.cacheHits,
    chunks: job.chunks,
    rate: Math.round(rate * 10) / 10,
    ...estimate(job, now, seconds, waiting, nextTry),
    nextStepInMs,
    busy,
    startedAt: job.startedAt,
    updatedAt: job.updatedAt,
  };
}

/** The time by which the retries falling due with the first one (within retryGroupMs) are all due. */
function retryGroupEnd(retries: RetryEntry[], first: number): number {
  return Math.max(first, ...retries.map((entry) => entry.at).filter((at) => at <= first + LIMITS.retryGroupMs));
}

/**
 * Seconds left: the domains never looked up at the rate of fresh (uncached) results, and the waiting domains no
 * sooner than their next try; the latest finish adds every retry delay the job still allows them.
 */
function estimate(
  job: EnrichJob,
  now: number,
  seconds: number,
  waiting: RetryEntry[],
  nextTry: number | null,
): Pick<EnrichProgress, 'etaSeconds' | 'etaLatestSeconds'> {
  if (job.status !== 'running') return { etaSeconds: null, etaLatestSeconds: null };
  const notLookedUp = Math.max(0, job.totalDomains - job.resolvedDomains - job.retries.length);
  const freshRate = Math.max(0, job.resolvedDomains - job.cacheHits) / seconds;
  const fresh = notLookedUp === 0 ? 0 : freshRate > 0 ? notLookedUp / freshRate : null;
  if (fresh === null) return { etaSeconds: null, etaLatestSeconds: null };
  if (nextTry === null) return { etaSeconds: Math.ceil(fresh), etaLatestSeconds: Math.ceil(fresh) };
  const latest = Math.max(
    ...waiting.map((entry) => {
      const delays = entry.why === 'enriching' ? LIMITS.enrichingDelaysMs : LIMITS.errorDelaysMs;
      return entry.at + delays.slice(entry.n).reduce((sum, delay) => sum + delay, 0);
    }),
  );
  return {
    etaSeconds: Math.ceil(Math.max(fresh, (nextTry - now) / 1000)),
    etaLatestSeconds: Math.ceil(Math.max(fresh, (latest - now) / 1000)),
  };
}

export function currentProgress(deps: Pick<EnrichDeps, 'store' | 'clock'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  return job ? progressOf(job, deps.clock.now()) : null;
}

// --- Preview and start ---------------------------------------------------------------------------------------------

interface Analysis {
  sheet: EnrichSheet;
  values: unknown[][];
  lastColumn: number;
  columns: ColumnOption[];
  domainColumn: number;
  hasHeaderRow: boolean;
  domainHeader: string;
  note: string | null;
  fields: ProfileField[];
  targets: ReturnType<typeof planTargetColumns>;
  /** Normalized headers of the target columns a finished job filled (see EnrichJob.settled). */
  settled: string[];
  rows: ReturnType<typeof readRows>;
}

function parseFields(
  keys: string[] | undefined,
): { ok: true; fields: ProfileField[] } | { ok: false; message: string } {
  if (keys !== undefined && keys.length === 0) return { ok: false, message: 'Pick at least one field to add.' };
  return parseFieldList(keys === undefined ? '' : keys.join(','));
}

function analyze(
  deps: EnrichDeps,
  options: EnrichOptions,
  sheetOverride?: EnrichSheet,
): Analysis | { message: string } {
  const active = deps.sheets.active();
  const sheet = sheetOverride ?? active.sheet;
  const values = sheet.readValues();
  const lastColumn = values.reduce((max, row) => Math.max(max, row.length), 0);
  const detected = detectDomainColumn(values, active.selection, lastColumn, options.domainColumn);
  if (!detected.ok) return { message: detected.message };
  // The fields last chosen for this sheet when the panel asks for none (a remembered key no longer known is dropped).
  const remembered =
    options.fields === undefined
      ? chosenFields(deps.store, sheet.id)?.filter((key) => profileFieldByKey(key))
      : undefined;
  const parsed = parseFields(options.fields ?? (remembered?.length ? remembered : undefined));
  if (!parsed.ok) return { message: parsed.message };
  if (options.fields !== undefined)
    rememberChosenFields(
      deps.store,
      sheet.id,
      parsed.fields.map((field) => field.key),
    );
  const hasHeaderRow = detected.headerRow === 1;
  const domainHeader = hasHeaderRow ? detected.header : DEFAULT_DOMAIN_HEADER;
  const targets = planTargetColumns(
    hasHeaderRow ? values[0] : [],
    lastColumn,
    detected.column,
    domainHeader,
    parsed.fields,
    hasHeaderRow,
  );
  const filled = filledColumns(deps.store, sheet.id, normalizeHeader(domainHeader));
  const settled = targets
    .filter((t) => !t.isNew && filled.has(normalizeHeader(t.header)))
    .map((t) => normalizeHeader(t.header));
  const isSettled = targets.map((t) => settled.includes(normalizeHeader(t.header)));
  const rows = readRows(
    values,
    detected.headerRow,
    detected.column,
    targets.map((t) => t.column),
    options.overwrite === true,
    isSettled,
  );
  return {
    sheet,
    values,
    lastColumn,
    columns: columnOptions(values, lastColumn),
    domainColumn: detected.column,
    hasHeaderRow,
    domainHeader,
    note: detected.note,
    fields: parsed.fields,
    targets,
    settled,
    rows,
  };
}

export function previewEnrichment(deps: EnrichDeps, options: EnrichOptions = {}): EnrichPreview {
  const existing = loadJob(deps.store);
  const job = existing ? progressOf(existing, deps.clock.now()) : null;
  const analysis = analyze(deps, options);
  if ('message' in analysis) return { ok: false, message: analysis.message, job };
  const chosen = new Map(analysis.targets.map((target) => [target.field.key, target]));
  const cached =
    analysis.rows.pending.length > 0 ? readCachedLookups(deps.cache, analysis.rows.pending, deps.clock.now()).size : 0;
  return {
    ok: true,
    sheetName: analysis.sheet.name,
    columns: analysis.columns,
    domainColumn: analysis.domainColumn,
    domainColumnLabel: analysis.columns[analysis.domainColumn - 1]?.label ?? columnLetter(analysis.domainColumn),
    hasHeaderRow: analysis.hasHeaderRow,
    note: analysis.note,
    fields: allFieldChoices(chosen),
    overwrite: options.overwrite === true,
    rows: analysis.rows.rows,
    uniqueDomains: analysis.rows.rowsByDomain.size,
    blank: analysis.rows.blank,
    invalid: analysis.rows.invalid,
    alreadyFilled: analysis.rows.alreadyFilled,
    toLookUp: analysis.rows.pending.length,
    cached,
    credits: 0,
    job,
  };
}

function allFieldChoices(chosen: Map<string, { column: number; isNew: boolean; header: string }>): FieldChoice[] {
  return PROFILE_FIELDS.map((field) => {
    const target = chosen.get(field.key);
    return {
      key: field.key,
      header: target?.header ?? field.header,
      checked: target !== undefined,
      target: target
        ? target.isNew
          ? `new column ${columnLetter(target.column)}`
          : `column ${columnLetter(target.column)} (existing)`
        : '',
    };
  });
}

/**
 * Starts a job on the active sheet: adds a header row when the data has none, writes the headers of new field
 * columns, records the job with its first plan and arms the continuation trigger. Sends no lookup itself.
 */
export function startEnrichment(deps: EnrichDeps, options: EnrichOptions = {}): StartResult {
  if (!deps.lock.tryLock(10_000)) return { ok: false, message: BUSY_MESSAGE };
  try {
    const existing = loadJob(deps.store);
    if (existing && existing.status === 'running') {
      return {
        ok: false,
        message: `An enrichment is already running on "${existing.sheetName}": wait for it or cancel it first.`,
      };
    }
    let analysis = analyze(deps, options);
    if ('message' in analysis) return { ok: false, message: analysis.message };
    if (!analysis.hasHeaderRow) {
      analysis.sheet.insertRowAtTop();
      analysis.sheet.writeValues(1, analysis.domainColumn, [[DEFAULT_DOMAIN_HEADER]]);
      const again = analyze(deps, { ...options, domainColumn: analysis.domainColumn }, analysis.sheet);
      if ('message' in again) return { ok: false, message: again.message };
      analysis = again;
    }
    const created = analysis.targets.filter((target) => target.isNew);
    if (created.length > 0) analysis.sheet.ensureColumns(Math.max(...created.map((target) => target.column)));
    for (const run of columnRuns(created.map((target) => target.column))) {
      const headers = created
        .filter((t) => t.column >= run.first && t.column < run.first + run.count)
        .map((t) => t.header);
      analysis.sheet.writeValues(1, run.first, [headers]);
    }
    const now = deps.clock.now();
    const pending = analysis.rows.pending;
    const job: EnrichJob = {
      v: 1,
      id: deps.newId(),
      status: 'running',
      message: null,
      sheetId: analysis.sheet.id,
      sheetName: analysis.sheet.name,
      domainColumn: analysis.domainColumn,
      domainHeader: analysis.domainHeader,
      fields: analysis.fields.map((field) => field.key),
      headers: analysis.targets.map((target) => target.header),
      overwrite: options.overwrite === true,
      settled: analysis.settled,
      cursor: '',
      plan: pending.slice(0, LIMITS.planSize).map((d) => ({ d, r: analysis.rows.pendingRows.get(d) ?? 0 })),
      mainDone: pending.length <= LIMITS.planSize,
      retries: [],
      scope: {
        rows: analysis.rows.rows,
        blank: analysis.rows.blank,
        invalid: analysis.rows.invalid,
        alreadyFilled: analysis.rows.alreadyFilled,
        uniqueDomains: analysis.rows.rowsByDomain.size,
      },
      totalDomains: pending.length,
      resolvedDomains: 0,
      counts: emptyCounts(),
      lookups: 0,
      requests: 0,
      cacheHits: 0,
      chunks: 0,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    saveJob(deps.store, job);
    deps.triggers.scheduleOnly(TRIGGER_HANDLER, LIMITS.triggerBackstopMs);
    return { ok: true, progress: progressOf(job, now) };
  } finally {
    deps.lock.release();
  }
}

// --- Cancel and resume ---------------------------------------------------------------------------------------------

/** Stops the job; everything written so far stays. A chunk running meanwhile stops at its next batch. */
export function cancelEnrichment(deps: Pick<EnrichDeps, 'store' | 'clock' | 'triggers'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  if (!job) return null;
  if (job.status === 'running' || job.status === 'paused') {
    job.status = 'cancelled';
    job.message = 'Cancelled: values written so far are kept.';
    job.updatedAt = deps.clock.now();
    job.finishedAt = job.updatedAt;
    saveJob(deps.store, job);
  }
  deps.triggers.cancelAll(TRIGGER_HANDLER);
  return progressOf(job, deps.clock.now());
}

/** Continues a paused job (after the user fixed the token, the sheet or a column). */
export function resumeEnrichment(deps: Pick<EnrichDeps, 'store' | 'clock' | 'triggers'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  if (!job) return null;
  if (job.status === 'paused') {
    job.status = 'running';
    job.message = null;
    job.updatedAt = deps.clock.now();
    saveJob(deps.store, job);
    deps.triggers.scheduleOnly(TRIGGER_HANDLER, LIMITS.triggerBackstopMs);
  }
  return progressOf(job, deps.clock.now());
}

// --- One chunk -----------------------------------------------------------------------------------------------------

export type ChunkMode = 'sidebar' | 'trigger';

interface ChunkWork {
  /** Final outcomes of this chunk, per domain, with the rows that needed them when planned. */
  outcomes: Map<string, { outcome: RowOutcome; planned: number }>;
  fatal: ApiError | null;
}

function retryEntry(
  previous: RetryEntry | undefined,
  domain: string,
  planned: number,
  why: RetryEntry['why'],
  now: number,
  message?: string,
): RetryEntry | null {
  const n = (previous?.n ?? 0) + 1;
  const delays = why === 'enriching' ? LIMITS.enrichingDelaysMs : LIMITS.errorDelaysMs;
  if (n > delays.length) return null;
  return { d: domain, n, at: now + delays[n - 1], why, r: planned, ...(message ? { m: message } : {}) };
}

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
  job.plan = job.plan.filter((entry) => !cached.has(entry.d));
}

/**
 * Looks up the plan (and due retries) batch by batch until done, cancelled, or out of time. In the last plan (no
 * later plan is read from the cursor, so taking entries out of order is safe) cached lookups come first, and for the
 * sidebar a chunk that found some ends there (written and shown at once). A sidebar chunk never sleeps for a retry:
 * the panel shows the waiting domains and calls again when they are due.
 */
function lookUp(deps: EnrichDeps, job: EnrichJob, budgetMs: number, started: number, mode: ChunkMode): ChunkWork {
  const work: ChunkWork = { outcomes: new Map(), fatal: null };
  if (job.mainDone) {
    takeCachedFromPlan(deps, job, work);
    if (mode === 'sidebar' && work.outcomes.size > 0) return work;
  }
  const client = deps.client();
  let planIndex = 0;
  for (;;) {
    let now = deps.clock.now();
    if (now - started >= budgetMs) break;
    if (planIndex >= job.plan.length) {
      if (mode === 'sidebar' && job.retries.every((entry) => entry.at > now)) break;
      // The plan is used up: stop to read the sheet for the next one, or (last plan) wait for the retries that fall
      // due soon, together, so they go out in one full fetchAll rather than one by one.
      if (!job.mainDone || job.retries.length === 0) break;
      const next = Math.min(...job.retries.map((entry) => entry.at));
      const until = Math.max(...job.retries.map((entry) => entry.at).filter((at) => at <= next + LIMITS.retryGroupMs));
      if (until - started < budgetMs && until - now <= LIMITS.maxWaitMs && until > now) {
        deps.clock.sleep(until - now);
        now = deps.clock.now();
      }
    }
    const batchSize = client.batchSize();
    const due = job.retries.filter((entry) => entry.at <= now).slice(0, batchSize);
    const fromPlan = job.plan.slice(planIndex, planIndex + batchSize - due.length);
    if (due.length === 0 && fromPlan.length === 0) break;
    // The tail of a plan that is not the last goes out with the next plan, in a full batch.
    if (!job.mainDone && due.length + fromPlan.length < batchSize && planIndex + fromPlan.length >= job.plan.length)
      break;
    const stored = loadJob(deps.store);
    if (!stored || stored.id !== job.id || stored.status !== 'running') break;
    const batch = [
      ...due.map((entry) => ({ d: entry.d, r: entry.r, retry: entry })),
      ...fromPlan.map((entry) => ({ ...entry, retry: undefined })),
    ];
    const resolved = resolveDomains(
      batch.map((item) => item.d),
      { cache: deps.cache, client, deadline: started + budgetMs, now: () => deps.clock.now() },
    );
    job.cacheHits += resolved.cacheHits;
    job.lookups += batch.length - resolved.cacheHits;
    job.requests += resolved.requests;
    now = deps.clock.now();
    const dueSet = new Set(due.map((entry) => entry.d));
    job.retries = job.retries.filter((entry) => !dueSet.has(entry.d));
    for (const item of batch) {
      const result = resolved.results.get(item.d);
      if (!result) continue;
      if (result.state === 'found')
        work.outcomes.set(item.d, { outcome: { kind: 'profile', values: result.values }, planned: item.r });
      else if (result.state === 'not_found')
        work.outcomes.set(item.d, { outcome: { kind: 'not_found' }, planned: item.r });
      else if (result.state === 'fatal') {
        // Not this domain's failure: the job pauses and looks it up again on Resume.
        work.fatal = result.error;
        job.retries.push({ d: item.d, n: item.retry?.n ?? 0, at: now, why: 'paused', r: item.r });
      } else if (result.state === 'error' && PERMANENT_ERRORS.has(result.error.kind)) {
        work.outcomes.set(item.d, { outcome: { kind: 'failed', message: userMessage(result.error) }, planned: item.r });
      } else if (result.state === 'error' && result.error.kind === 'rate_limited') {
        // Refused before it was served: back in line after Retry-After, not counted as a failed attempt, while the
        // next (paced) batches go on.
        const at = now + (result.error.retryAfterSeconds ?? 1) * 1000;
        job.retries.push({ d: item.d, n: item.retry?.n ?? 0, at, why: item.retry?.why ?? 'error', r: item.r });
      } else {
        const why = result.state === 'enriching' ? 'enriching' : 'error';
        const message = result.state === 'error' ? userMessage(result.error) : undefined;
        const next = retryEntry(item.retry, item.d, item.r, why, now, message);
        if (next) job.retries.push(next);
        else
          work.outcomes.set(item.d, {
            outcome:
              why === 'enriching' ? { kind: 'enriching' } : { kind: 'failed', message: message ?? 'Lookup failed' },
            planned: item.r,
          });
      }
    }
    planIndex += fromPlan.length;
    if (fromPlan.length > 0) job.cursor = fromPlan[fromPlan.length - 1].d;
    if (work.fatal) break;
  }
  job.plan = job.plan.slice(planIndex);
  return work;
}

function pause(job: EnrichJob, message: string): void {
  job.status = 'paused';
  job.message = message;
}

/**
 * Writes this chunk's outcomes into the rows that hold their domains now, and plans the next chunk. Returns the
 * domains whose profile (or "Not found") was written, to date them.
 */
function writeAndPlan(sheet: EnrichSheet, job: EnrichJob, work: ChunkWork): string[] {
  const settledDomains: string[] = [];
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
    const written = addOutcomeUpdates(
      updates,
      values,
      rows,
      located.targets,
      outcomeCells(outcome, fields),
      job.overwrite,
    );
    if (written > 0 && (outcome.kind === 'profile' || outcome.kind === 'not_found')) settledDomains.push(domain);
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
  if (!job.mainDone) {
    const after = snapshot.pending.filter((domain) => domain > job.cursor);
    job.plan = after.slice(0, LIMITS.planSize).map((d) => ({ d, r: snapshot.pendingRows.get(d) ?? 0 }));
    // The last plan: once it is looked up only retries remain, and this chunk's execution can wait for them.
    job.mainDone = after.length <= LIMITS.planSize;
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
      deps.triggers.cancelAll(TRIGGER_HANDLER);
      return job ? progressOf(job, started) : null;
    }
    for (;;) {
      chunkOnce(deps, job, started, budget, mode);
      const stored = loadJob(deps.store);
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
      deps.triggers.scheduleOnly(TRIGGER_HANDLER, delay);
    } else {
      // Done, cancelled, or paused until the user acts (Resume re-arms the trigger).
      deps.triggers.cancelAll(TRIGGER_HANDLER);
    }
    return progress;
  } finally {
    deps.lock.release();
  }
}
