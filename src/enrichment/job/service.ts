// The bulk enrichment job: its limits and ports, preview of a selection, start (header row and field columns, first
// plan), cancel and resume; one chunk of work is chunk.ts, progress progress.ts. Every step runs in its own
// execution (the sidebar's next call or the continuation trigger); the durable job record (job-state.ts) is saved
// after the chunk's write, and lookups are cached as they arrive, so a crash at any point loses no finished result
// and the next chunk resumes from the record. Rows a job finished are skipped by later runs (rows.ts), so re-running
// a finished job sends no request at any size.
import { parseFieldList, PROFILE_FIELDS, profileFieldByKey, type ProfileField } from '../../companies/profile-fields';
import { readCachedLookups } from '../../companies/profile-cache';
import {
  columnOptions,
  DEFAULT_DOMAIN_HEADER,
  detectDomainColumn,
  normalizeHeader,
  planTargetColumns,
  type ColumnOption,
} from '../sheet/layout';
import { columnRuns, readRows } from '../sheet/rows';
import { requestPlan, type EnrichOptions, type EnrichPreview, type FieldChoice, type StartResult } from '../contract';
import {
  chosenFields,
  emptyCounts,
  filledColumns,
  loadJob,
  rememberChosenFields,
  jobRecordBound,
  nextPlan,
  saveJob,
  storedJobBytes,
  type EnrichJob,
} from './job-state';
import type { EnrichDeps, EnrichSheet } from '../ports';
import { LIMITS } from './limits';
import { columnLetter } from '../../shared/a1';
import { parseDomain } from '../../shared/domain';
import { BUSY_MESSAGE } from '../../shared/busy';
import { keepLastRun, lastRunOf, progressOf } from './progress';

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

/** Whether every value of the domain column is a bare registered domain (what the "domain" field would write). */
function holdsBareDomains(values: unknown[][], detected: { column: number; headerRow: number }): boolean {
  const cells = values
    .slice(detected.headerRow)
    .map((row) => String(row[detected.column - 1] ?? '').trim())
    .filter((cell) => cell !== '');
  return (
    cells.length > 0 &&
    cells.every((cell) => {
      const parsed = parseDomain(cell);
      return parsed.kind === 'domain' && parsed.domain === cell;
    })
  );
}

function analyze(
  deps: EnrichDeps,
  options: EnrichOptions,
  sheetOverride?: EnrichSheet,
): Analysis | { message: string } {
  const active = deps.sheets.active();
  const sheet = sheetOverride ?? active.sheet;
  if (!sheetOverride && sheet.targetProblem) return { message: sheet.targetProblem };
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
  // A domain column of bare domains already is what the "domain" field would write (a sheet Company search made).
  const bare = parsed.fields.some((field) => field.key === 'domain') && holdsBareDomains(values, detected);
  const fields = bare ? parsed.fields.filter((field) => field.key !== 'domain') : parsed.fields;
  const targets = planTargetColumns(
    hasHeaderRow ? values[0] : [],
    lastColumn,
    detected.column,
    domainHeader,
    fields,
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
    note: bare
      ? [detected.note, `Column ${columnLetter(detected.column)} already holds bare domains: no second domain column.`]
          .filter(Boolean)
          .join(' ')
      : detected.note,
    fields,
    targets,
    settled,
    rows,
  };
}

export function previewEnrichment(deps: EnrichDeps, options: EnrichOptions = {}): EnrichPreview {
  const existing = loadJob(deps.store);
  // A running or paused job shows wherever the panel is (one job at a time); a finished one only on its own sheet.
  const active = existing && (existing.status === 'running' || existing.status === 'paused') ? existing : null;
  const analysis = analyze(deps, options);
  if ('message' in analysis)
    return { ok: false, message: analysis.message, job: active ? progressOf(active, deps.clock.now()) : null };
  const job =
    existing && (active || existing.sheetId === analysis.sheet.id)
      ? progressOf(existing, deps.clock.now())
      : lastRunOf(deps.store, analysis.sheet.id);
  const chosen = new Map(analysis.targets.map((target) => [target.field.key, target]));
  const cached =
    analysis.rows.pending.length > 0 ? readCachedLookups(deps.cache, analysis.rows.pending, deps.clock.now()).size : 0;
  const budget = deps.requests();
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
    plan: requestPlan(analysis.rows.pending.length - cached, Math.max(0, budget.limit - budget.used), budget.limit),
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

/** The record of a new job over the analysed sheet, with its first plan. */
function newJob(deps: EnrichDeps, analysis: Analysis, options: EnrichOptions, now: number): EnrichJob {
  const pending = analysis.rows.pending;
  return {
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
    ...nextPlan(pending, analysis.rows.pendingRows, LIMITS),
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
}

/** Why the job cannot start (before anything is written) when its record could outgrow the free properties. */
function storageRefusal(deps: EnrichDeps, job: EnrichJob, domains: readonly string[]): string | null {
  const needed = jobRecordBound(job, domains, LIMITS);
  const free = deps.store.bytesFree() + storedJobBytes(deps.store);
  if (needed <= free) return null;
  const kb = (bytes: number) => Math.max(0, Math.floor(bytes / 1024));
  return `Sheet Scout's storage in this spreadsheet is nearly full: the job needs ${Math.ceil(needed / 1024)} KB and ${kb(free)} KB of the 500 KB Google allows are free. Nothing was written.`;
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
    if (existing) keepLastRun(deps.store, existing, deps.clock.now());
    const refusal = storageRefusal(deps, newJob(deps, analysis, options, deps.clock.now()), analysis.rows.pending);
    if (refusal) return { ok: false, message: refusal };
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
    const job = newJob(deps, analysis, options, now);
    const noTimer = deps.continuation.wakeAfter(LIMITS.triggerBackstopMs);
    // Without a timer the job still runs, while this panel is open: nothing of it is paid for.
    if (noTimer) job.message = `${noTimer} Until then the job runs only while this panel is open.`;
    saveJob(deps.store, job);
    return { ok: true, progress: progressOf(job, now) };
  } finally {
    deps.lock.release();
  }
}
