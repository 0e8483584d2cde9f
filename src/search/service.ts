// What the company search panel asks the server to do, over ports (sheets, service client, cache, user store, clock,
// lock): the panel's start state, reading exclude domains from a sheet, previewing a search (results kept in the cache
// for the write that follows), writing results into a new or existing sheet, and "Run again" for a sheet a search
// created. Every answer is a JSON-only DTO for google.script.run; expected failures are answers, not exceptions.
import type { CompanySearchResult } from '../api/types';
import type { CachePort, ClockPort, KeyValueStore, LockPort } from '../ports';
import { parseDomain } from '../shared/domain/domain';
import {
  DEFAULT_COLUMNS,
  previewRow,
  RESULT_COLUMNS,
  resolveColumns,
  suggestionsFrom,
  type PreviewRow,
  type ResultColumnKey,
} from './results/columns';
import {
  normalizeDomainList,
  summarizeExclude,
  type DomainList,
  type ExcludeEntry,
  type ExcludeSummary,
} from './exclude-domains';
import { getChunked, putChunked } from '../shared/storage/chunked-cache';
import { runSearch, type SearchBackend } from './run-search';
import { parseSavedSearchNote, formatSavedSearchNote, type SavedSearch } from './results/saved-search';
import { columnValues, domainColumns, domainValues } from './sheet-domains';
import type { SearchSheetPort, SheetRef } from './ports';
import {
  checkSpec,
  describeFilters,
  FREE_DEPTH,
  PAID_DEPTH,
  specKeyOf,
  type FieldProblem,
  type SearchSpec,
} from './spec';
import { appendToSheet, insertIntoNewSheet } from './results/write-results';
import { BUSY_MESSAGE } from '../shared/busy';
import { depthOf, learnedPaid, probeFreeTier } from './plan-depth';

export interface SearchDeps {
  sheets: SearchSheetPort;
  /** The acting user's service client; null when no token is set. */
  client: SearchBackend | null;
  cache: CachePort;
  userStore: KeyValueStore;
  clock: ClockPort;
  lock: LockPort;
  newId: () => string;
}

export const PREVIEW_ROWS = 50;
const LOCK_WAIT_MS = 10_000;
/**
 * A preview's results are kept until "Insert" or "Append" (an hour), so writing does not search again; bound to the
 * exact spec that produced them (a miss searches again).
 */
const STORED_SEARCH_PREFIX = 'search:v2:';
const STORED_SEARCH_TTL_SECONDS = 60 * 60;

interface StoredSearch {
  results: CompanySearchResult[];
  exhausted: boolean;
}
export const NOT_CONNECTED = 'Set up Sheet Scout: Extensions > Sheet Scout > Settings';

export interface SavedSearchView {
  saved: SavedSearch;
  sheet: SheetRef;
}

export interface SearchPanelState {
  connected: boolean;
  /** Most results one search may ask for on this account (2,000 paid, 25 free once seen). */
  depth: number;
  /** The selected cell as a registered domain, to prefill "Similar to". */
  selectedDomain: string | null;
  activeSheet: SheetRef;
  /** The search that created the active sheet, for "Run again". */
  savedSearch: SavedSearch | null;
  /** The saved search's filters in one line (describeFilters), or null. */
  savedFilters: string | null;
  sheets: SheetRef[];
  /** The columns a search can write, in catalogue order, with the ones chosen by default. */
  columns: ColumnChoice[];
}

export interface ColumnChoice {
  key: ResultColumnKey;
  label: string;
  byDefault: boolean;
}

export type Failure = { ok: false; message: string; problems: FieldProblem[] };

export type PreviewAnswer =
  | {
      ok: true;
      searchId: string;
      count: number;
      exhausted: boolean;
      warning: string | null;
      preview: PreviewRow[];
      reference: PreviewRow | null;
      suggestions: { countries: string[]; cities: string[] };
      depth: number;
    }
  | Failure;

export type WriteTarget = { kind: 'new' } | { kind: 'append'; sheetId: number };

export interface WriteRequest {
  /** From the preview; when its results are gone from the cache the search runs again. */
  searchId: string | null;
  spec: SearchSpec;
  columns: ResultColumnKey[];
  target: WriteTarget;
}

export type WriteAnswer =
  | { ok: true; sheet: SheetRef; written: number; skipped: number; addedColumns: string[]; warning: string | null }
  | Failure;

export type ExcludeSource =
  { kind: 'column'; sheetId: number; column: number; skipHeader: boolean } | { kind: 'sheet'; sheetId: number };

export interface SheetColumns {
  sheet: SheetRef;
  /** Row 1 as text ('' for blank cells); the panel labels blanks by column letter. */
  headers: string[];
  /** 0-based index of the column that holds domains (header or content), or null. */
  domainColumn: number | null;
}

export function thisYear(deps: Pick<SearchDeps, 'clock'>): number {
  return new Date(deps.clock.now()).getUTCFullYear();
}

export function fail(message: string, problems: FieldProblem[] = []): Failure {
  return { ok: false, message, problems };
}

function savedSearchOf(deps: SearchDeps, sheet: SheetRef): SavedSearch | null {
  return parseSavedSearchNote(deps.sheets.getNote(sheet.id, 1, 1));
}

export function panelState(deps: SearchDeps): SearchPanelState {
  const activeSheet = deps.sheets.activeSheet();
  const selected = parseDomain(deps.sheets.activeCellValue());
  const savedSearch = savedSearchOf(deps, activeSheet);
  return {
    connected: deps.client !== null,
    depth: depthOf(deps),
    selectedDomain: selected.kind === 'domain' ? selected.domain : null,
    activeSheet,
    savedSearch,
    savedFilters: savedSearch ? describeFilters(savedSearch.spec.filters) : null,
    sheets: deps.sheets.listSheets(),
    columns: RESULT_COLUMNS.map((column) => ({
      key: column.key,
      label: column.label,
      byDefault: DEFAULT_COLUMNS.includes(column.key),
    })),
  };
}

const NO_SUCH_SHEET = 'That sheet no longer exists: pick another one';

/** One of the sheets the panel offers (hidden ones are not), or null when it is gone. */
function sheetById(deps: SearchDeps, sheetId: number): SheetRef | null {
  return deps.sheets.listSheets().find((candidate) => candidate.id === sheetId) ?? null;
}

export function sheetColumns(deps: SearchDeps, sheetId: number): SheetColumns | Failure {
  const sheet = sheetById(deps, sheetId);
  if (!sheet) return fail(NO_SUCH_SHEET);
  const grid = deps.sheets.readAll(sheetId);
  return {
    sheet,
    headers: (grid[0] ?? []).map((value) => (value === null || value === undefined ? '' : String(value))),
    domainColumn: domainColumns(grid)[0] ?? null,
  };
}

/** The domains of a source, normalized (oldest first = top to bottom). */
export function excludeDomainsFrom(deps: SearchDeps, source: ExcludeSource): DomainList | Failure {
  if (!sheetById(deps, source.sheetId)) return fail(NO_SUCH_SHEET);
  const grid = deps.sheets.readAll(source.sheetId);
  const values = source.kind === 'column' ? columnValues(grid, source.column, source.skipHeader) : domainValues(grid);
  return normalizeDomainList(values);
}

export interface ExcludeSummaryRequest {
  /** The panel's sources, oldest first. */
  entries: ExcludeEntry[];
  /** The user accepted sending the 1,000 most recent of a longer list. */
  acceptMostRecent: boolean;
}

/** The panel's live exclude-domains count: normalized, de-duplicated and checked against the limit here. */
export function excludeSummary(request: ExcludeSummaryRequest): ExcludeSummary {
  return summarizeExclude(request.entries, request.acceptMostRecent);
}

type Searched =
  | {
      ok: true;
      results: CompanySearchResult[];
      exhausted: boolean;
      warning: string | null;
      reference: CompanySearchResult | null;
    }
  | Failure;

/** Checks and runs a spec; a free account's 25-result cap is detected and explained. */
function search(deps: SearchDeps, spec: SearchSpec): Searched {
  if (!deps.client) return fail(NOT_CONNECTED);
  const problems = checkSpec(spec, PAID_DEPTH, thisYear(deps));
  if (problems.length > 0) return fail(problems[0].message, problems);
  const run = runSearch(deps.client, spec);
  if (!run.ok) return fail(run.message, run.problems);
  learnedPaid(deps, run.results.length);
  let warning = run.warning;
  if (
    spec.count > FREE_DEPTH &&
    run.results.length === FREE_DEPTH &&
    run.exhausted &&
    probeFreeTier(deps, deps.client, run.results[0].domain)
  ) {
    warning = `The free plan returns up to ${FREE_DEPTH} results per search`;
  }
  return {
    ok: true,
    results: run.results,
    exhausted: run.exhausted && warning === run.warning,
    warning,
    reference: run.reference,
  };
}

export function previewSearch(deps: SearchDeps, spec: SearchSpec): PreviewAnswer {
  const searched = search(deps, spec);
  if (!searched.ok) return searched;
  const searchId = deps.newId();
  const kept: StoredSearch = { results: searched.results, exhausted: searched.exhausted };
  putChunked(deps.cache, STORED_SEARCH_PREFIX + searchId, specKeyOf(spec), kept, STORED_SEARCH_TTL_SECONDS);
  return {
    ok: true,
    searchId,
    count: searched.results.length,
    exhausted: searched.exhausted,
    warning: searched.warning,
    preview: searched.results.slice(0, PREVIEW_ROWS).map(previewRow),
    reference: searched.reference ? previewRow(searched.reference) : null,
    suggestions: suggestionsFrom(searched.results),
    depth: depthOf(deps),
  };
}

export function withDocumentLock<T>(deps: Pick<SearchDeps, 'lock'>, work: () => T): T | Failure {
  if (!deps.lock.tryLock(LOCK_WAIT_MS)) return fail(BUSY_MESSAGE);
  try {
    return work();
  } finally {
    deps.lock.release();
  }
}

export function writeResults(deps: SearchDeps, request: WriteRequest): WriteAnswer {
  const columns = resolveColumns(request.columns);
  const stored = request.searchId
    ? getChunked<StoredSearch>(deps.cache, STORED_SEARCH_PREFIX + request.searchId, specKeyOf(request.spec))
    : null;
  let results: CompanySearchResult[];
  let warning: string | null = null;
  if (stored) {
    results = stored.results;
  } else {
    const searched = search(deps, request.spec);
    if (!searched.ok) return searched;
    results = searched.results;
    warning = searched.warning;
  }
  const saved: SavedSearch = {
    spec: request.spec,
    columns: columns.map((column) => column.key),
    ranAt: new Date(deps.clock.now()).toISOString(),
  };
  const target = request.target.kind === 'append' ? sheetById(deps, request.target.sheetId) : null;
  if (request.target.kind === 'append' && !target) return fail(NO_SUCH_SHEET);
  return withDocumentLock(deps, () => {
    const summary = target
      ? appendToSheet(deps.sheets, target, results, columns, saved)
      : insertIntoNewSheet(deps.sheets, results, columns, saved);
    return { ok: true as const, ...summary, warning };
  });
}

/**
 * "Run again" on a sheet a search created: repeats the saved search and appends the companies that are not in the
 * sheet yet (rows already there, and anything the user added beside them, stay as they are); the note records the run.
 */
export function runAgain(deps: SearchDeps, sheetId: number): WriteAnswer {
  const sheet = sheetById(deps, sheetId);
  if (!sheet) return fail(NO_SUCH_SHEET);
  const saved = savedSearchOf(deps, sheet);
  if (!saved)
    return fail(`"${sheet.name}" was not created by a Sheet Scout search (its A1 note holds no saved search)`);
  const spec = saved.spec;
  const searched = search(deps, spec);
  if (!searched.ok) return searched;
  const columns = resolveColumns(saved.columns.length > 0 ? saved.columns : ['name', 'domain']);
  const rerun: SavedSearch = { ...saved, ranAt: new Date(deps.clock.now()).toISOString() };
  return withDocumentLock(deps, () => {
    const summary = appendToSheet(deps.sheets, sheet, searched.results, columns, rerun);
    deps.sheets.setNote(sheet.id, 1, 1, formatSavedSearchNote(rerun));
    return { ok: true as const, ...summary, warning: searched.warning };
  });
}
