// The bulk enrichment job's preview of a selection and its start (header row, field columns, the job's record); the
// work itself is run.ts, progress progress.ts. Rows a job finished are skipped by later runs (sheet/rows.ts), so
// re-running a finished job sends no request at any size.
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
import { readRows } from '../sheet/rows';
import { prefixFingerprint } from '../sheet/job-view';
import { readColumns, stateFromGrid, type SheetState } from './job-sheet';
import { requestPlan, type EnrichOptions, type EnrichPreview, type FieldChoice, type StartResult } from '../contract';
import { emptyCounts, jobRecordBound, loadJob, saveJob, storedJobBytes, type EnrichJob } from './job-state';
import { chosenFields, chosenFieldsValue, filledColumns } from './sheet-choices';
import type { EnrichDeps, EnrichSheet } from '../ports';
import { LIMITS } from './limits';
import { columnLetter } from '../../shared/a1';
import { parseDomain } from '../../shared/domain/domain';
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
  /** The fields chosen for the sheet, to remember (a property value, or none when they are remembered). */
  remember: Record<string, string>;
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
  const remember =
    options.fields === undefined
      ? {}
      : chosenFieldsValue(
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
    remember,
  };
}

export function previewEnrichment(deps: EnrichDeps, options: EnrichOptions = {}): EnrichPreview {
  const existing = loadJob(deps.store);
  // A running or paused job shows wherever the panel is (one job at a time); a finished one only on its own sheet.
  const active = existing && (existing.status === 'running' || existing.status === 'paused') ? existing : null;
  const analysis = analyze(deps, options);
  if (!('message' in analysis) && Object.keys(analysis.remember).length > 0) deps.store.setAll(analysis.remember);
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

/** The record of a new job over the analysed sheet. */
function newJob(deps: EnrichDeps, analysis: Analysis, options: EnrichOptions, now: number): EnrichJob {
  const pending = analysis.rows.pending;
  const rowsToPass = [...analysis.rows.pendingRows.values()].reduce((sum, rows) => sum + rows, 0);
  const added = analysis.targets.map((target) => target.isNew);
  return {
    v: 2,
    id: deps.newId(),
    status: 'running',
    message: null,
    sheetId: analysis.sheet.id,
    sheetName: analysis.sheet.name,
    domainColumn: analysis.domainColumn,
    domainHeader: analysis.domainHeader,
    fields: analysis.fields.map((field) => field.key),
    headers: analysis.targets.map((target) => target.header),
    columns: analysis.targets.map((target) => target.column),
    added,
    headersPending: added.some(Boolean),
    overwrite: options.overwrite === true,
    settled: analysis.settled,
    cursor: 1,
    prefix: prefixFingerprint(
      analysis.values.map((row) => row[analysis.domainColumn - 1]),
      1,
    ),
    moved: false,
    moreRows: rowsToPass + analysis.rows.invalid > 0,
    remaining: rowsToPass + analysis.rows.invalid,
    retries: [],
    marked: [],
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
    waitUntil: null,
    timerArmed: false,
    wake: null,
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
 * Starts a job on the active sheet (the caller holds the document lock): adds a header row when the data has none and
 * the columns new fields need, and records the job (the new columns' headers are written with its first save).
 * Returns the job and the sheet as read, from which its first execution goes on. Sends no lookup itself.
 */
export function startLocked(
  deps: EnrichDeps,
  options: EnrichOptions,
): { job: EnrichJob; state: SheetState } | { message: string } {
  const existing = loadJob(deps.store);
  if (existing && existing.status === 'running')
    return { message: `An enrichment is already running on "${existing.sheetName}": wait for it or cancel it first.` };
  let analysis = analyze(deps, options);
  if ('message' in analysis) return { message: analysis.message };
  if (existing) keepLastRun(deps.store, existing, deps.clock.now());
  const refusal = storageRefusal(deps, newJob(deps, analysis, options, deps.clock.now()), analysis.rows.pending);
  if (refusal) return { message: refusal };
  if (!analysis.hasHeaderRow) {
    analysis.sheet.insertRowAtTop();
    analysis.sheet.writeValues(1, analysis.domainColumn, [[DEFAULT_DOMAIN_HEADER]]);
    const again = analyze(deps, { ...options, domainColumn: analysis.domainColumn }, analysis.sheet);
    if ('message' in again) return { message: again.message };
    analysis = again;
  }
  const created = analysis.targets.filter((target) => target.isNew);
  if (created.length > 0) analysis.sheet.ensureColumns(Math.max(...created.map((target) => target.column)));
  const job = newJob(deps, analysis, options, deps.clock.now());
  const kept = job.columns.filter((_column, i) => !job.added[i]);
  const formulas = job.overwrite
    ? new Map<number, string[]>()
    : (readColumns(analysis.sheet, kept, 0, analysis.values.length - 1, 'formulas') as Map<number, string[]>);
  saveJob(deps.store, job, analysis.remember);
  return { job, state: stateFromGrid(analysis.sheet, job, analysis.values, formulas) };
}

/** Starts a job (see startLocked) without going on with it: the panel's next call or the timer does. */
export function startEnrichment(deps: EnrichDeps, options: EnrichOptions = {}): StartResult {
  if (!deps.lock.tryLock(10_000)) return { ok: false, message: BUSY_MESSAGE };
  try {
    const started = startLocked(deps, options);
    if ('message' in started) return { ok: false, message: started.message };
    return { ok: true, progress: progressOf(started.job, deps.clock.now()) };
  } finally {
    deps.lock.release();
  }
}
