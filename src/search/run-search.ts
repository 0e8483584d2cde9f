// Runs one company search (describe = semantic search, similar = lookalike) for a checked SearchSpec: plans the pages,
// sends them all in one parallel batch through the service client's batch search, merges the answers, and turns
// failures into messages pointed at the panel's controls (422 `detail` by its `loc`, 404 on lookalike as "not in the
// company index"). Results fetched before a failing page are kept and the shortfall is explained.
import { userMessage, type ApiError, type Result } from '../api/errors';
import type { ServiceClient } from '../api/client';
import type {
  CompanySearchResult,
  SearchFilters,
  SearchRequest,
  SearchResponse,
  SimilarRequest,
  SimilarResponse,
  ValidationIssue,
} from '../api/types';
import { mergePages, planPages, type MergedResults } from './paging';
import { referenceIdentifier, toServiceFilters, type FieldProblem, type SearchField, type SearchSpec } from './spec';

/** The two batch operations of the service client a search needs (one Result per request, in order). */
export type SearchBackend = Pick<ServiceClient, 'runSearches' | 'runSimilar'>;

export type SearchRun =
  | {
      ok: true;
      results: CompanySearchResult[];
      /** The index holds no more matches than `results`. */
      exhausted: boolean;
      reference: CompanySearchResult | null;
      /** Set when later pages failed and fewer results than asked were fetched. */
      warning: string | null;
    }
  | { ok: false; message: string; problems: FieldProblem[]; error: ApiError };

/** Which control a 422 `loc` points at. */
export function fieldOfLocation(loc: ReadonlyArray<string | number>): SearchField {
  const path = loc
    .map(String)
    .filter((part) => part !== 'body' && part !== 'query')
    .join('.');
  const rules: Array<[RegExp, SearchField]> = [
    [/exclude\.domains/, 'excludeDomains'],
    [/include\.size|exclude\.size|(^|\.)size/, 'sizes'],
    [/include\.country/, 'includeCountries'],
    [/exclude\.country/, 'excludeCountries'],
    [/include\.city/, 'includeCities'],
    [/exclude\.city/, 'excludeCities'],
    [/founded\.min|founded$/, 'foundedFrom'],
    [/founded\.max/, 'foundedTo'],
    [/^q$|^q\./, 'query'],
    [/pagination|offset|limit/, 'count'],
    [/company_identifier|path/, 'reference'],
  ];
  for (const [pattern, field] of rules) if (pattern.test(path)) return field;
  return 'form';
}

function problemsOf(detail: readonly ValidationIssue[]): FieldProblem[] {
  return detail.map((issue) => ({ field: fieldOfLocation(issue.loc), message: issue.msg }));
}

type SearchFailure = Extract<SearchRun, { ok: false }>;

function failure(error: ApiError, spec: SearchSpec): SearchFailure {
  if (error.kind === 'not_found' && spec.mode === 'similar') {
    const message = `${referenceIdentifier(spec.reference)} is not in the company index; try Describe`;
    return { ok: false, message, problems: [{ field: 'reference', message }], error };
  }
  if (error.kind === 'validation' && error.detail.length > 0) {
    const problems = problemsOf(error.detail);
    return {
      ok: false,
      message: `The service rejected the search: ${problems.map((p) => p.message).join('; ')}`,
      problems,
      error,
    };
  }
  return { ok: false, message: userMessage(error), problems: [], error };
}

/** What one search asks: a description (semantic search) or a reference company (lookalikes). */
export type SearchSubject = { kind: 'describe'; query: string } | { kind: 'similar'; company: string };

export interface FetchedSearch {
  /** The answers of the pages before the first failure, merged in order. */
  merged: MergedResults;
  /** The first page that failed (page 0: nothing was fetched) and its error; null when every page answered. */
  failed: { page: number; error: ApiError } | null;
  /** The reference company of a lookalike search, as the service named it. */
  reference: CompanySearchResult | null;
}

/**
 * The one search core of the panel and the search formulas: the pages covering `count` (250 a page) sent at once
 * through the client's batch search, merged up to the first failing page.
 */
export function fetchSearch(
  backend: SearchBackend,
  subject: SearchSubject,
  filters: SearchFilters | undefined,
  count: number,
): FetchedSearch {
  const pages = planPages(count);
  const withFilters = <T extends object>(request: T): T => (filters ? { ...request, filters } : request);
  const outcomes: Array<Result<SearchResponse | SimilarResponse>> =
    subject.kind === 'describe'
      ? backend.runSearches(pages.map((pagination) => withFilters<SearchRequest>({ q: subject.query, pagination })))
      : backend.runSimilar(
          pages.map((pagination) => ({
            companyIdentifier: subject.company,
            request: withFilters<SimilarRequest>({ pagination }),
          })),
        );
  const failedPage = outcomes.findIndex((outcome) => !outcome.ok);
  const fetched = failedPage < 0 ? outcomes : outcomes.slice(0, failedPage);
  const merged = mergePages(
    fetched.map((outcome, index) => ({ limit: pages[index].limit, results: outcome.ok ? outcome.value.results : [] })),
    count,
  );
  const failedOutcome = failedPage < 0 ? null : outcomes[failedPage];
  const first = outcomes[0];
  return {
    merged,
    failed: failedOutcome && !failedOutcome.ok ? { page: failedPage, error: failedOutcome.error } : null,
    reference: first?.ok && 'reference_company' in first.value ? first.value.reference_company : null,
  };
}

/** Runs a spec that checkSpec accepted. */
export function runSearch(backend: SearchBackend, spec: SearchSpec): SearchRun {
  const subject: SearchSubject =
    spec.mode === 'describe'
      ? { kind: 'describe', query: spec.query.trim() }
      : { kind: 'similar', company: referenceIdentifier(spec.reference) };
  const { merged, failed, reference } = fetchSearch(backend, subject, toServiceFilters(spec.filters), spec.count);
  if (failed?.page === 0) return failure(failed.error, spec);
  const warning =
    failed && !merged.exhausted
      ? `Only the first ${merged.results.length} results could be fetched: ${failure(failed.error, spec).message}`
      : null;
  return { ok: true, results: merged.results, exhausted: merged.exhausted, reference, warning };
}
