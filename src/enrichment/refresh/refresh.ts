// "Refresh data older than N days": finds the enriched rows of the active sheet whose domain was last enriched before
// the cutoff (dates kept per sheet and domain in a hidden sheet, never in per-row metadata), looks those domains up
// again (past the cache: the point is fresh data), and writes only the cells whose value changed, each with a note
// "Was 51-200 until 2026-11-24". Resumable by construction: a refreshed domain gets today's date, so the next chunk
// (or a later run) takes the ones left. Domains the service is still enriching or could not answer are handed back
// to the panel, which skips them for the rest of the run.
import { profileFieldByKey, type ProfileField } from '../../companies/profile-fields';
import { lookUpFresh } from './fresh-lookups';
import { parseDomain } from '../../shared/domain/domain';
import type { ClockPort, KeyValueStore, LockPort } from '../../ports';
import { loadJob } from '../job/job-state';
import { chosenFields } from '../job/sheet-choices';
import { detectDomainColumn, planTargetColumns, DEFAULT_DOMAIN_HEADER, type Area } from '../sheet/layout';
import type { LookupClient } from '../job/lookups';
import type { EnrichedDomain, EnrichmentDates, EnrichSheet, SheetAccess } from '../ports';
import { outcomeCells } from '../sheet/rows';
import { cellChanges, changeWrites, gridText, writtenFingerprint, writtenText } from '../sheet/refresh-changes';
import type { CellChange } from '../sheet/refresh-changes';
import type { RefreshChangesAnswer, RefreshChunkResult, RefreshPreview, RefreshRequest } from '../contract';
import { BUSY_MESSAGE } from '../../shared/busy';
import type { ChangeLog, LoggedChange } from './change-log';

export interface RefreshDeps {
  store: KeyValueStore;
  sheets: SheetAccess;
  dates: EnrichmentDates;
  clock: ClockPort;
  lock: LockPort;
  client: () => LookupClient;
  /** Today in the spreadsheet's time zone, as the notes show it (yyyy-MM-dd). */
  today: () => string;
  /** Where the changed cells are logged for the panel's "Changes". */
  changes: ChangeLog;
}

const DAY_MS = 86_400_000;
const LOCK_WAIT_MS = 10_000;

interface Layout {
  sheet: EnrichSheet;
  values: unknown[][];
  headerRow: number;
  domainColumn: number;
  fields: ProfileField[];
  targets: number[];
  headers: string[];
}

/**
 * The domain column and the field columns an enrichment filled (existing columns only) of the active sheet, or of
 * the sheet `sheetId` (a scheduled refresh: its domain column is found among all its columns).
 */
function layoutOf(deps: RefreshDeps, sheetId?: number): Layout | { message: string } {
  const target = sheetId === undefined ? deps.sheets.active() : sheetAlone(deps, sheetId);
  if (!target) return { message: 'The sheet of this schedule was deleted.' };
  const { sheet, selection } = target;
  if (sheetId === undefined && sheet.targetProblem) return { message: sheet.targetProblem };
  const values = sheet.readValues();
  const lastColumn = values.reduce((max, row) => Math.max(max, row.length), 0);
  const detected = detectDomainColumn(values, selection as Area, lastColumn);
  if (!detected.ok) return { message: detected.message };
  const keys = chosenFields(deps.store, sheet.id) ?? [];
  const fields = keys
    .map((key) => profileFieldByKey(key))
    .filter((field): field is ProfileField => field !== undefined);
  if (fields.length === 0) return { message: `Nothing on "${sheet.name}" was enriched yet: enrich it first.` };
  const domainHeader = detected.headerRow === 1 ? detected.header : DEFAULT_DOMAIN_HEADER;
  const header = detected.headerRow === 1 ? values[0] : [];
  const planned = planTargetColumns(
    header,
    lastColumn,
    detected.column,
    domainHeader,
    fields,
    detected.headerRow === 1,
  );
  const existing = planned.filter((target) => !target.isNew);
  if (existing.length === 0) return { message: `The enriched columns of "${sheet.name}" are gone: enrich it again.` };
  return {
    sheet,
    values,
    headerRow: detected.headerRow,
    domainColumn: detected.column,
    fields: existing.map((target) => target.field),
    targets: existing.map((target) => target.column),
    headers: existing.map((target) => target.header),
  };
}

/** A sheet by id with all of it as the selection, or null when it was deleted. */
function sheetAlone(deps: RefreshDeps, sheetId: number): { sheet: EnrichSheet; selection: Area } | null {
  const sheet = deps.sheets.byId(sheetId);
  return sheet ? { sheet, selection: { row: 1, column: 1, numRows: 1_000_000, numColumns: 1_000 } } : null;
}

interface Stale {
  /** Domain -> grid row indexes holding it (enriched rows only). */
  rows: Map<string, number[]>;
  datedRows: number;
  undatedRows: number;
  /** Enriched rows newer than the cutoff, and the oldest enrichment among them (ms; null: none). */
  freshRows: number;
  oldestFresh: number | null;
}

/**
 * A row an enrichment filled: one of the field columns holds something. Only these are refreshed: a row added later
 * with an already enriched domain and empty field cells is the user's to enrich, not the refresh's to fill.
 */
function isEnrichedRow(layout: Layout, row: unknown[]): boolean {
  return layout.targets.some((column) => gridText(row[column - 1]).trim() !== '');
}

/** The enriched rows (1-based) holding each domain, top down. */
function domainRows(layout: Layout): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  layout.values.forEach((row, index) => {
    const parsed = parseDomain(row[layout.domainColumn - 1]);
    if (index < layout.headerRow || parsed.kind !== 'domain' || !isEnrichedRow(layout, row)) return;
    const list = rows.get(parsed.domain);
    if (list) list.push(index + 1);
    else rows.set(parsed.domain, [index + 1]);
  });
  return rows;
}

/** Enriched rows whose domain was enriched before the cutoff, or has no date (enriched before dates were kept). */
function staleRows(
  layout: Layout,
  dates: Map<string, EnrichedDomain>,
  cutoff: number,
  skip: ReadonlySet<string>,
): Stale {
  const stale: Stale = { rows: new Map(), datedRows: 0, undatedRows: 0, freshRows: 0, oldestFresh: null };
  layout.values.forEach((row, index) => {
    if (index < layout.headerRow) return;
    const parsed = parseDomain(row[layout.domainColumn - 1]);
    if (parsed.kind !== 'domain' || skip.has(parsed.domain)) return;
    if (!isEnrichedRow(layout, row)) return;
    const at = dates.get(parsed.domain)?.at;
    if (at !== undefined && at >= cutoff) {
      stale.freshRows += 1;
      stale.oldestFresh = Math.min(stale.oldestFresh ?? at, at);
      return;
    }
    if (at === undefined) stale.undatedRows++;
    else stale.datedRows++;
    stale.rows.set(parsed.domain, [...(stale.rows.get(parsed.domain) ?? []), index]);
  });
  return stale;
}

function checkDays(request: RefreshRequest): number | null {
  const days = request.days;
  return Number.isInteger(days) && days >= 0 && days <= 3650 ? days : null;
}

export function previewRefresh(deps: RefreshDeps, request: RefreshRequest): RefreshPreview {
  const days = checkDays(request);
  if (days === null) return { ok: false, message: 'Days must be a whole number from 0 to 3650.' };
  const layout = layoutOf(deps);
  if ('message' in layout) return { ok: false, message: layout.message };
  const stale = staleRows(layout, deps.dates.read(layout.sheet.id), deps.clock.now() - days * DAY_MS, new Set());
  return {
    ok: true,
    sheetName: layout.sheet.name,
    days,
    fields: layout.headers,
    staleRows: stale.datedRows + stale.undatedRows,
    undatedRows: stale.undatedRows,
    domains: stale.rows.size,
    requests: stale.rows.size,
    credits: 0,
  };
}

/** The changes as the log keeps them: by domain and column header, the values as the cells show them. */
function loggedChanges(layout: Layout, changes: readonly CellChange[], at: number): LoggedChange[] {
  const rows = domainRows(layout);
  return changes.map((change) => {
    const parsed = parseDomain(layout.values[change.row - 1]?.[layout.domainColumn - 1]);
    const domain = parsed.kind === 'domain' ? parsed.domain : '';
    return {
      sheetId: layout.sheet.id,
      domain,
      header: layout.headers[layout.targets.indexOf(change.column)] ?? '',
      before: change.before,
      after: writtenText(change.value),
      at,
      occurrence: (rows.get(domain) ?? []).indexOf(change.row) + 1,
    };
  });
}

/**
 * One chunk of a refresh of the active sheet (or of `sheetId`, for a schedule): lookups within `budgetMs` (at most
 * `maxDomains`), then the changed cells written with their notes.
 */
export function runRefreshChunk(
  deps: RefreshDeps,
  request: RefreshRequest,
  budgetMs: number,
  sheetId?: number,
  maxDomains = Infinity,
): RefreshChunkResult {
  const days = checkDays(request);
  if (days === null) return { ok: false, message: 'Days must be a whole number from 0 to 3650.' };
  const started = deps.clock.now();
  const job = loadJob(deps.store);
  if (job?.status === 'running')
    return { ok: false, message: 'An enrichment is running: let it finish (or cancel it) first.' };
  const before = layoutOf(deps, sheetId);
  if ('message' in before) return { ok: false, message: before.message };
  const skip = new Set(request.skip ?? []);
  const dates = deps.dates.read(before.sheet.id);
  const stale = staleRows(before, dates, started - days * DAY_MS, skip);
  const domains = [...stale.rows.keys()].sort();
  const answers = lookUpFresh(deps.client(), deps.clock, domains.slice(0, maxDomains), started + budgetMs);
  if (!deps.lock.tryLock(LOCK_WAIT_MS)) return { ok: false, message: BUSY_MESSAGE };
  try {
    // The sheet as it is now (rows may have been sorted or inserted during the lookups).
    const layout = layoutOf(deps, sheetId);
    if ('message' in layout) return { ok: false, message: layout.message };
    const { changes, keptEdits } = changedCells(layout, answers.found, dates, deps.today());
    for (const write of changeWrites(changes)) {
      layout.sheet.writeValues(write.row, write.column, write.values);
      layout.sheet.writeNotes(write.row, write.column, write.notes);
    }
    deps.changes.append(loggedChanges(layout, changes, deps.clock.now()), deps.clock.now());
    const refreshed = new Map<string, Record<string, string>>(answers.notFound.map((domain) => [domain, {}]));
    for (const [domain, profile] of answers.found) {
      const cells = outcomeCells({ kind: 'profile', values: profile }, layout.fields);
      refreshed.set(
        domain,
        Object.fromEntries(layout.fields.map((field, i) => [field.key, writtenFingerprint(cells[i])])),
      );
    }
    deps.dates.record(layout.sheet.id, refreshed, deps.clock.now());
    return {
      ok: true,
      checked: answers.found.size + answers.notFound.length,
      changedRows: new Set(changes.map((change) => change.row)).size,
      changedCells: changes.length,
      keptEdits,
      changedByField: layout.headers
        .map((header, i) => ({ header, rows: changes.filter((change) => change.column === layout.targets[i]).length }))
        .filter((field) => field.rows > 0),
      freshRows: stale.freshRows,
      freshDueAt: stale.oldestFresh === null ? null : stale.oldestFresh + days * DAY_MS,
      notFound: answers.notFound.length,
      retryLater: answers.retryLater,
      unreachable: answers.unreachable,
      remaining: domains.length - answers.attempted + answers.unreachable,
      requests: answers.attempted,
    };
  } finally {
    deps.lock.release();
  }
}

/**
 * The cells of refreshed rows whose value differs from what the service answers now (formulas, and values the user
 * typed over what the add-in wrote, left alone: `keptEdits` counts those); the rows are the enriched ones holding a
 * refreshed domain, as the preview counted them.
 */
function changedCells(
  layout: Layout,
  found: Map<string, Record<string, unknown>>,
  dates: Map<string, EnrichedDomain>,
  today: string,
): { changes: CellChange[]; keptEdits: number } {
  const formulas = layout.sheet.readFormulas({
    row: 1,
    column: 1,
    numRows: Math.max(1, layout.values.length),
    numColumns: Math.max(...layout.targets),
  });
  const changes: CellChange[] = [];
  let keptEdits = 0;
  const fieldAt = new Map(layout.targets.map((column, i) => [column, layout.fields[i].key]));
  layout.values.forEach((row, index) => {
    if (index < layout.headerRow || !isEnrichedRow(layout, row)) return;
    const parsed = parseDomain(row[layout.domainColumn - 1]);
    const profile = parsed.kind === 'domain' ? found.get(parsed.domain) : undefined;
    if (!profile) return;
    const cells = outcomeCells({ kind: 'profile', values: profile }, layout.fields);
    const written = dates.get(parsed.kind === 'domain' ? parsed.domain : '')?.written ?? {};
    const inRow = cellChanges(
      index + 1,
      row,
      layout.targets,
      cells,
      {
        formulaAt: (column) => formulas[index]?.[column - 1] ?? '',
        writtenAt: (column) => written[fieldAt.get(column) ?? ''],
      },
      today,
    );
    changes.push(...inRow.changes);
    keptEdits += inRow.keptEdits;
  });
  return { changes, keptEdits };
}

/** Changes listed at most (the newest). */
const CHANGES_SHOWN = 200;

/**
 * The active sheet's changed cells since `days` ago, newest first, each with the enriched row that holds its domain
 * now (of several, the one as far down the list of them as the changed row was; null when there is none such any
 * more): the panel's "Changes".
 */
export function refreshChanges(deps: RefreshDeps, days: number): RefreshChangesAnswer {
  const layout = layoutOf(deps);
  if ('message' in layout) return { ok: false, message: layout.message };
  const since = deps.clock.now() - days * DAY_MS;
  const logged = deps.changes.since(layout.sheet.id, since, CHANGES_SHOWN + 1);
  const rows = domainRows(layout);
  return {
    ok: true,
    sheetName: layout.sheet.name,
    since,
    changes: logged.slice(0, CHANGES_SHOWN).map(({ sheetId: _, occurrence, ...change }) => ({
      ...change,
      row: rows.get(change.domain)?.[Math.max(occurrence, 1) - 1] ?? null,
    })),
    more: logged.length > CHANGES_SHOWN,
  };
}
