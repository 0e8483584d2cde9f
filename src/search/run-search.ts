// Runs one company search (describe = semantic search, similar = lookalike) for a checked SearchSpec: plans the pages,
// sends them all in one parallel batch through the service client's batch search, merges the answers, and turns
// failures into messages pointed at the panel's controls (422 `detail` by its `loc`, 404 on lookalike as "not in the
// company index"). Results fetched before a failing page are kept and the shortfall is explained.
import { userMessage, type ApiError, type Result } from '../api/errors';
import type { ServiceClient } from '../api/client';
import type {
  CompanySearchResult,
  SearchRequest,
  SearchResponse,
  SimilarRequest,
  SimilarResponse,
  ValidationIssue,
} from '../api/types';
import { mergePages, planPages } from './paging';
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

/** Runs a spec that checkSpec accepted. */
export function runSearch(backend: SearchBackend, spec: SearchSpec): SearchRun {
  const pages = planPages(spec.count);
  const filters = toServiceFilters(spec.filters);
  const withFilters = <T extends object>(request: T): T => (filters ? { ...request, filters } : request);
  let outcomes: Array<Result<SearchResponse | SimilarResponse>>;
  if (spec.mode === 'describe') {
    const q = spec.query.trim();
    outcomes = backend.runSearches(pages.map((pagination) => withFilters<SearchRequest>({ q, pagination })));
  } else {
    const identifier = referenceIdentifier(spec.reference);
    outcomes = backend.runSimilar(
      pages.map((pagination) => ({
        companyIdentifier: identifier,
        request: withFilters<SimilarRequest>({ pagination }),
      })),
    );
  }
  const firstFailure = outcomes.findIndex((outcome) => !outcome.ok);
  if (firstFailure === 0) return failure((outcomes[0] as Extract<Result<unknown>, { ok: false }>).error, spec);
  const fetched = firstFailure < 0 ? outcomes : outcomes.slice(0, firstFailure);
  const merged = mergePages(
    fetched.map((outcome, index) => ({ limit: pages[index].limit, results: outcome.ok ? outcome.value.results : [] })),
    spec.count,
  );
  let warning: string | null = null;
  if (firstFailure > 0 && !merged.exhausted) {
    const failed = outcomes[firstFailure] as Extract<Result<unknown>, { ok: false }>;
    warning = `Only the first ${merged.results.length} results could be fetched: ${failure(failed.error, spec).message}`;
  }
  const first = outcomes[0];
  const reference = first.ok && 'reference_company' in first.value ? first.value.reference_company : null;
  return { ok: true, results: merged.results, exhausted: merged.exhausted, reference, warning };
}
