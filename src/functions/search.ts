// =SIMILAR(domain, [limit], [filters]) and =COMPANY_SEARCH(query, [limit], [filters]): a header row and up to
// `limit` companies. Pages of at most 250 (the service's page size) are fetched in one fetchAll, in parallel, up to
// the plan's depth; the finished rows are cached for 6 hours under the normalized request so a recalculation makes
// no HTTP call.
import type { ApiError, Result } from '../api/errors';
import type { CompanySearchResult, SearchFilters, SearchResponse } from '../api/types';
import { readFilters } from './filters';
import { readLimit, readQuery, readReferenceCompany, type ArgRead } from './arguments';
import { tripsBreaker } from './breaker';
import { CELL_TEXT, errorCellText, messageRow, toFormulaCell, type FormulaCell, type FormulaResult } from './cell-text';
import type { FormulaEnv } from './env';
import { getChunked, putChunked } from '../shared/chunked-cache';
import { hashText } from './hash';

/** The service's largest page (interface section 8). */
export const PAGE_SIZE = 250;

interface SearchColumn {
  header: string;
  read(result: CompanySearchResult): unknown;
}

export const SEARCH_COLUMNS: readonly SearchColumn[] = [
  { header: 'Domain', read: (r) => r.domain },
  { header: 'Company name', read: (r) => r.name },
  { header: 'Short description', read: (r) => r.short_description },
  { header: 'Country', read: (r) => r.hq_country },
  { header: 'City', read: (r) => r.hq_city },
  { header: 'Size', read: (r) => r.employee_count },
  { header: 'Founded', read: (r) => r.founding_year },
  {
    header: 'Relevance',
    read: (r) =>
      typeof r.relevance_score === 'number' ? Math.round(r.relevance_score * 1000) / 1000 : r.relevance_score,
  },
];

const WIDTH = SEARCH_COLUMNS.length;

export type SearchSubject = { kind: 'search'; query: string } | { kind: 'similar'; company: string };

/** Errors on a later page that mean "no deeper than this for your plan": keep the pages before it. */
function endsPaging(error: ApiError): boolean {
  return ['validation', 'rejected', 'payment_required', 'plan_required', 'forbidden', 'not_found'].includes(error.kind);
}

function pagesFor(limit: number): Array<{ offset: number; limit: number }> {
  const pages: Array<{ offset: number; limit: number }> = [];
  for (let offset = 0; offset < limit; offset += PAGE_SIZE)
    pages.push({ offset, limit: Math.min(PAGE_SIZE, limit - offset) });
  return pages;
}

function rowOf(result: CompanySearchResult): FormulaCell[] {
  return SEARCH_COLUMNS.map((column) => toFormulaCell(column.read(result)));
}

function fetchPages(
  subject: SearchSubject,
  filters: SearchFilters | undefined,
  pages: Array<{ offset: number; limit: number }>,
  env: FormulaEnv,
): Result<SearchResponse>[] {
  const elapsed = env.clock.now() - env.startedAt;
  const client = env.connect!({ budgetMs: Math.max(0, env.limits.deadlineMs - elapsed), maxParallel: pages.length });
  if (subject.kind === 'search') {
    return client.runSearches(
      pages.map((pagination) => ({ q: subject.query, ...(filters ? { filters } : {}), pagination })),
    );
  }
  return client.runSimilar(
    pages.map((pagination) => ({
      companyIdentifier: subject.company,
      request: { ...(filters ? { filters } : {}), pagination },
    })),
  );
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

  const pages = pagesFor(limit);
  const results = fetchPages(subject, filters, pages, env);
  const rows: FormulaResult = [SEARCH_COLUMNS.map((column) => column.header)];
  const seen = new Set<string>();
  let failure: ApiError | null = null;
  for (let index = 0; index < pages.length; index++) {
    const result = results[index];
    if (!result.ok) {
      if (index > 0 && endsPaging(result.error)) break;
      failure = result.error;
      break;
    }
    for (const company of result.value.results) {
      const identity = company.id || company.domain;
      if (seen.has(identity)) continue;
      seen.add(identity);
      rows.push(rowOf(company));
    }
    if (result.value.results.length < pages[index].limit) break;
  }

  if (env.breaker) {
    if (failure && tripsBreaker(failure)) env.breaker.recordFailure(failure, env.clock.now());
    else env.breaker.recordSuccess();
  }
  if (failure) {
    // Nothing fetched: one cell with the cause. Later pages failed: keep what arrived, say why the rest is missing.
    if (rows.length === 1) return [[errorCellText(failure)]];
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
  return runSearchFormula({ kind: 'search', query: args.value.subject }, args.value.limit, args.value.filters, env);
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
