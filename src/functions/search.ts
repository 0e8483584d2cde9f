// =SIMILAR(domain, [limit], [filters]) and =COMPANY_SEARCH(query, [limit], [filters]): a header row and up to
// `limit` companies, fetched by the panel's search core (src/search/run-search.ts: pages of 250 in one parallel
// fetchAll, merged in order) with the panel's column labels; the finished rows are cached for 6 hours under the
// normalized request so a recalculation makes no HTTP call.
import type { ApiError } from '../api/errors';
import type { SearchFilters } from '../api/types';
import { readFilters } from './filters';
import { readLimit, readQuery, readReferenceCompany, type ArgRead } from './arguments';
import { tripsBreaker } from './breaker';
import { CELL_TEXT, errorCellText, messageRow, toFormulaCell, type FormulaResult } from './cell-text';
import type { FormulaEnv } from './ports';
import { getChunked, putChunked } from '../shared/storage/chunked-cache';
import { hashText } from './hash';
import { fetchSearch, type SearchSubject } from '../search/run-search';
import { FORMULA_COLUMNS, resolveColumns } from '../search/results/columns';
import { planPages } from '../search/paging';

/** The columns a search formula spills, with the panel's labels (Domain first). */
export const SEARCH_COLUMNS = resolveColumns(FORMULA_COLUMNS);

const WIDTH = SEARCH_COLUMNS.length;

/** Errors on a later page that mean "no deeper than this for your plan": keep the pages before it. */
function endsPaging(error: ApiError): boolean {
  return ['validation', 'rejected', 'payment_required', 'plan_required', 'forbidden', 'not_found'].includes(error.kind);
}

/** Finished results (the spilled rows) are cached by request, so a recalculation costs nothing for 6 hours. */
const RESULT_KEY_PREFIX = 'functions:result:v2:';
const RESULT_TTL_SECONDS = 6 * 60 * 60;

/** Runs one search formula whose arguments are already read. */
export function runSearchFormula(
  subject: SearchSubject,
  limit: number,
  filters: SearchFilters | undefined,
  env: FormulaEnv,
): FormulaResult {
  const requestKey = JSON.stringify({ subject, limit, filters: filters ?? null });
  const cacheKey = RESULT_KEY_PREFIX + hashText(requestKey);
  const cached = getChunked<FormulaResult>(env.cache, cacheKey, requestKey);
  if (cached) return cached;
  if (!env.connect) return [[CELL_TEXT.setup]];
  const openMessage = env.breaker?.openMessage(env.clock.now());
  if (openMessage) return [[openMessage]];

  const elapsed = env.clock.now() - env.startedAt;
  // A round the slowest one seen could carry past Sheets' limit is not started: Pending, not a timeout.
  if (elapsed + (env.slowestRoundMs ?? 0) > env.limits.endRoundsByMs) return [[CELL_TEXT.pending]];
  const client = env.connect({
    budgetMs: Math.max(0, env.limits.deadlineMs - elapsed),
    maxParallel: planPages(limit).length,
  });
  const { merged, failed } = fetchSearch(client, subject, filters, limit);
  // A later page refused for the plan's depth ends the results there; any other failure is said in the last row.
  const failure = failed && (failed.page === 0 || !endsPaging(failed.error)) ? failed.error : null;
  if (env.breaker) {
    if (failure && tripsBreaker(failure)) env.breaker.recordFailure(failure, env.clock.now());
    else env.breaker.recordSuccess();
  }
  if (failure && failed?.page === 0) return [[errorCellText(failure)]];
  const rows: FormulaResult = [
    SEARCH_COLUMNS.map((column) => column.label),
    ...merged.results.map((company) => SEARCH_COLUMNS.map((column) => toFormulaCell(column.value(company)))),
  ];
  if (failure) {
    // Later pages failed: keep what arrived, say why the rest is missing.
    rows.push(messageRow(errorCellText(failure), WIDTH));
    return rows;
  }
  if (rows.length === 1) rows.push(messageRow(CELL_TEXT.noResults, WIDTH));
  putChunked(env.cache, cacheKey, requestKey, rows, RESULT_TTL_SECONDS);
  return rows;
}

function readSearchArgs<T>(
  subject: ArgRead<T>,
  limitArg: unknown,
  filtersArg: unknown,
): ArgRead<{ subject: T; limit: number; filters: SearchFilters | undefined }> {
  if (!subject.ok) return subject;
  const limit = readLimit(limitArg);
  if (!limit.ok) return limit;
  const filters = readFilters(filtersArg);
  if (!filters.ok) return filters;
  return { ok: true, value: { subject: subject.value, limit: limit.value, filters: filters.value } };
}

export function companySearch(
  queryArg: unknown,
  limitArg: unknown,
  filtersArg: unknown,
  env: FormulaEnv,
): FormulaResult {
  const args = readSearchArgs(readQuery(queryArg), limitArg, filtersArg);
  if (!args.ok) return [[args.message]];
  return runSearchFormula({ kind: 'describe', query: args.value.subject }, args.value.limit, args.value.filters, env);
}

export function similarCompanies(
  domainArg: unknown,
  limitArg: unknown,
  filtersArg: unknown,
  env: FormulaEnv,
): FormulaResult {
  const args = readSearchArgs(readReferenceCompany(domainArg), limitArg, filtersArg);
  if (!args.ok) return [[args.message]];
  return runSearchFormula({ kind: 'similar', company: args.value.subject }, args.value.limit, args.value.filters, env);
}
