// "Similar to a list" in the company search panel, over the search feature's ports: reads the reference domains from
// the selection, runs one lookalike search per reference (every page of every reference in parallel fetchAll batches,
// the same filters for all), tells unknown and still-enriching references apart, fuses the lists (lookalike-list.ts)
// and writes the top N into a new sheet. A reference that fails is reported in the answer, never fatal; the run fails
// only when no reference could be searched for a reason the user must fix (token, filters, quota).
import type { ApiError, Result } from '../../api/errors';
import { userMessage } from '../../api/errors';
import type { ServiceClient } from '../../api/client';
import type { CompanySearchResult, SimilarRequest, SimilarResponse } from '../../api/types';
import { parseDomain } from '../../shared/domain/domain';
import { resolveColumns, type ResultColumnKey } from '../results/columns';
import { normalizeDomainList, summarizeExclude, type ExcludeEntry } from '../exclude-domains';
import { fusedRows, fuseRankings, splitExclusion, type ReferenceResults } from './lookalike-list';
import { MAX_REFERENCES, MAX_TOP, RRF_K } from './lookalike-plan';
import { FREE_DEPTH, PAID_DEPTH } from '../limits';
import { mergePages, planPages } from '../paging';
import { learnedPaid, probeFreeTier } from '../plan-depth';
import { fail, NOT_CONNECTED, thisYear, withDocumentLock, type Failure, type SearchDeps } from '../service';
import { fieldOfLocation } from '../run-search';
import type { SheetRef } from '../ports';
import { checkSpec, describeFilters, toServiceFilters, type FieldProblem, type FilterForm } from '../spec';
import { unusedSheetName } from '../results/write-results';

/** The service calls a run needs: the lookalike search, and the free lookup that tells "enriching" from "unknown". */
export type LookalikeBackend = Pick<ServiceClient, 'runSimilar' | 'lookupCompanies'>;

export interface LookalikeDeps extends Omit<SearchDeps, 'client'> {
  client: LookalikeBackend | null;
}

export interface ReferenceList {
  /** Where they came from ("Companies!A2:A21"). */
  label: string;
  domains: string[];
  invalid: string[];
  duplicates: number;
  /** Set when there are none or more than 100. */
  problem: string | null;
}

export interface LookalikeListRequest {
  /** Reference domains as getLookalikeReferences gave them (checked again here). */
  references: string[];
  /** The panel's filters; its excludeDomains are excluded like the sources' domains. */
  filters: FilterForm;
  /** The panel's exclude sources, oldest first; all their domains are excluded, over 1,000 after the call. */
  exclude: ExcludeEntry[];
  perReference: number;
  top: number;
  columns: ResultColumnKey[];
}

export interface ReferenceReport {
  /** References whose lookalike lists were merged. */
  used: string[];
  /** Not in the company index. */
  notFound: string[];
  /** Known to the service, its profile still being built: try again in a few minutes. */
  enriching: string[];
  failed: Array<{ reference: string; message: string }>;
  /** References whose later pages failed: their lists are shorter than asked. */
  partial: string[];
}

export type LookalikeAnswer =
  | {
      ok: true;
      /** The new sheet; null when nothing was found to write. */
      sheet: SheetRef | null;
      written: number;
      /** Distinct companies over all lists after exclusion. */
      candidates: number;
      /** Requests sent: lookalike pages plus the free lookups of references the index does not serve. */
      requests: number;
      references: ReferenceReport;
      sentAsFilter: number;
      /** Distinct excluded companies removed from the answers after the call. */
      removedAfterCall: number;
      warning: string | null;
    }
  | Failure;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

function referenceProblem(count: number): string | null {
  if (count === 0)
    return 'Select the cells that hold your reference domains (e.g. your best customers), then Use selection';
  if (count > MAX_REFERENCES) return `${count} references: one run takes at most ${MAX_REFERENCES}; select fewer`;
  return null;
}

/**
 * The reference domains of the selected cells, row by row, normalized and de-duplicated. A first row that is the
 * sheet's header row and holds no domain is left out ("Domain", "Website").
 */
export function lookalikeReferences(deps: Pick<SearchDeps, 'sheets'>): ReferenceList {
  const selection = deps.sheets.selection();
  if (!selection) return { label: '', domains: [], invalid: [], duplicates: 0, problem: referenceProblem(0) };
  const rows = selection.values;
  const headerRow =
    selection.row === 1 && rows.length > 1 && rows[0].every((value) => parseDomain(value).kind !== 'domain');
  const list = normalizeDomainList((headerRow ? rows.slice(1) : rows).flat());
  return { label: `${selection.sheet.name}!${selection.a1}`, ...list, problem: referenceProblem(list.domains.length) };
}

type ReferenceOutcome =
  | { kind: 'listed'; results: CompanySearchResult[]; exhausted: boolean; partial: boolean }
  | { kind: 'not_found' }
  | { kind: 'enriching' }
  | { kind: 'failed'; error: ApiError };

/** One reference's pages, in order: the pages before a failing one are kept. */
function outcomeOf(
  outcomes: ReturnType<LookalikeBackend['runSimilar']>,
  limits: number[],
  perReference: number,
): ReferenceOutcome {
  const firstFailure = outcomes.findIndex((outcome) => !outcome.ok);
  if (firstFailure === 0) {
    const { error } = outcomes[0] as Extract<(typeof outcomes)[number], { ok: false }>;
    if (error.kind === 'not_found') return { kind: 'not_found' };
    // The lookalike endpoint documents no 202; a service that answers one is still building the profile.
    if (error.kind === 'bad_response' && error.status === 202) return { kind: 'enriching' };
    return { kind: 'failed', error };
  }
  const fetched = firstFailure < 0 ? outcomes : outcomes.slice(0, firstFailure);
  const merged = mergePages(
    fetched.map((outcome, index) => ({ limit: limits[index], results: outcome.ok ? outcome.value.results : [] })),
    perReference,
  );
  return {
    kind: 'listed',
    results: merged.results,
    exhausted: merged.exhausted,
    partial: firstFailure > 0 && !merged.exhausted,
  };
}

function failureOf(error: ApiError): Failure {
  if (error.kind === 'validation' && error.detail.length > 0) {
    const problems: FieldProblem[] = error.detail.map((issue) => ({
      field: fieldOfLocation(issue.loc),
      message: issue.msg,
    }));
    return fail(`The service rejected the search: ${problems.map((problem) => problem.message).join('; ')}`, problems);
  }
  return fail(userMessage(error));
}

function checkRequest(
  deps: LookalikeDeps,
  request: LookalikeListRequest,
  references: string[],
  invalid: string[],
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const countProblem = referenceProblem(references.length);
  if (countProblem) problems.push({ field: 'references', message: countProblem });
  if (invalid.length > 0)
    problems.push({ field: 'references', message: `Not domains: ${invalid.slice(0, 5).join(', ')}` });
  const filterProblems = checkSpec(
    {
      mode: 'similar',
      query: '',
      reference: references[0] ?? 'example.com',
      count: request.perReference,
      filters: { ...request.filters, excludeDomains: [] },
    },
    PAID_DEPTH,
    thisYear(deps),
  );
  for (const problem of filterProblems) {
    if (problem.field === 'reference') continue;
    if (problem.field === 'count') {
      problems.push({
        field: 'perReference',
        message: `Choose between 1 and ${PAID_DEPTH.toLocaleString('en-US')} results per reference`,
      });
    } else problems.push(problem);
  }
  if (!Number.isInteger(request.top) || request.top < 1 || request.top > MAX_TOP) {
    problems.push({
      field: 'top',
      message: `Choose between 1 and ${MAX_TOP.toLocaleString('en-US')} companies to write`,
    });
  }
  return problems;
}

function noteFor(request: LookalikeListRequest, references: string[], excludedOthers: number, ranAt: string): string {
  return [
    'Sheet Scout lookalikes of a list',
    `References (${references.length}): ${references.join(', ')}`,
    `Filters: ${describeFilters({ ...request.filters, excludeDomains: [] })}`,
    `Excluded: the references and ${plural(excludedOthers, 'other domain')}`,
    `Results per reference: ${request.perReference}; top ${request.top} written`,
    `Match score: reciprocal rank fusion, the sum over the references of 1 / (${RRF_K} + rank), as a share of the ` +
      `most a company can score (every reference listing it first) from 0 to 100; similar to: how many references ` +
      'list it, then those references, best rank first',
    `Run: ${ranAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
  ].join('\n');
}

/** Each reference's pages of answers as one list of results, or why it has none. */
function collectLists(
  references: string[],
  answers: Result<SimilarResponse>[],
  pageLimits: number[],
  perReference: number,
) {
  const report: ReferenceReport = { used: [], notFound: [], enriching: [], failed: [], partial: [] };
  const lists: ReferenceResults[] = [];
  const exhaustedLists: boolean[] = [];
  const unserved: string[] = [];
  let firstError: ApiError | null = null;
  for (const [index, reference] of references.entries()) {
    const pages = pageLimits.length;
    const outcome = outcomeOf(answers.slice(index * pages, (index + 1) * pages), pageLimits, perReference);
    if (outcome.kind === 'listed') {
      report.used.push(reference);
      if (outcome.partial) report.partial.push(reference);
      lists.push({ reference, results: outcome.results });
      exhaustedLists.push(outcome.exhausted);
    } else if (outcome.kind === 'not_found') unserved.push(reference);
    else if (outcome.kind === 'enriching') report.enriching.push(reference);
    else {
      firstError ??= outcome.error;
      report.failed.push({ reference, message: userMessage(outcome.error) });
    }
  }
  return { report, lists, exhaustedLists, unserved, firstError };
}

/** The run's warning: the free plan's depth (when every list stopped there), and lists shortened by failed pages. */
function runWarning(
  deps: LookalikeDeps,
  client: NonNullable<LookalikeDeps['client']>,
  perReference: number,
  lists: ReferenceResults[],
  exhaustedLists: boolean[],
  report: ReferenceReport,
): string | null {
  let warning: string | null = null;
  learnedPaid(deps, Math.max(0, ...lists.map((list) => list.results.length)));
  const allAtFreeDepth =
    lists.length > 0 && lists.every((list, index) => list.results.length === FREE_DEPTH && exhaustedLists[index]);
  if (perReference > FREE_DEPTH && allAtFreeDepth && probeFreeTier(deps, client, lists[0].results[0].domain)) {
    warning = `The free plan returns up to ${FREE_DEPTH} results per reference`;
  }
  if (report.partial.length > 0) {
    const partial = `Some pages failed, so these lists are shorter than asked: ${report.partial.join(', ')}`;
    warning = warning ? `${warning}. ${partial}` : partial;
  }
  return warning;
}

/** Runs the lookalike searches of every reference, merges them and writes the top N into a new sheet. */
export function runLookalikeList(deps: LookalikeDeps, request: LookalikeListRequest): LookalikeAnswer {
  const client = deps.client;
  if (!client) return fail(NOT_CONNECTED);
  const { domains: references, invalid } = normalizeDomainList(request.references);
  // The free plan's depth, when learned, explains a short list; it refuses nothing (a plan can change).
  const problems = checkRequest(deps, request, references, invalid);
  if (problems.length > 0) return fail(problems[0].message, problems);

  const excludedDomains = summarizeExclude(
    [
      { id: 'filters', label: 'Filters', list: normalizeDomainList(request.filters.excludeDomains) },
      ...request.exclude,
    ],
    false,
  ).toSend;
  const split = splitExclusion(references, excludedDomains);
  const filters = toServiceFilters({ ...request.filters, excludeDomains: split.filter });
  const pages = planPages(request.perReference);
  const calls = references.flatMap((reference) =>
    pages.map((pagination) => ({
      companyIdentifier: reference,
      request: (filters ? { filters, pagination } : { pagination }) as SimilarRequest,
    })),
  );
  const answers = client.runSimilar(calls);

  const { report, lists, exhaustedLists, unserved, firstError } = collectLists(
    references,
    answers,
    pages.map((page) => page.limit),
    request.perReference,
  );
  // The lookalike search answers 404 for a company whose profile is still being built; the lookup (0 credits) says
  // which (202) and starts the enrichment, so the same run works a few minutes later.
  const lookups = unserved.length > 0 ? client.lookupCompanies(unserved) : [];
  for (const [index, reference] of unserved.entries()) {
    const lookup = lookups[index];
    if (lookup.ok && lookup.value.state === 'enriching') report.enriching.push(reference);
    else report.notFound.push(reference);
  }
  if (lists.length === 0 && firstError !== null) return failureOf(firstError);

  const warning = runWarning(deps, client, request.perReference, lists, exhaustedLists, report);

  const fusion = fuseRankings(lists, split.excluded);
  const top = fusion.companies.slice(0, request.top);
  const requests = calls.length + lookups.length;
  const base = {
    ok: true as const,
    candidates: fusion.companies.length,
    requests,
    references: report,
    sentAsFilter: split.filter.length,
    removedAfterCall: fusion.removed,
    warning,
  };
  if (top.length === 0) return { ...base, sheet: null, written: 0 };
  const columns = resolveColumns(request.columns);
  const ranAt = new Date(deps.clock.now()).toISOString();
  return withDocumentLock(deps, () => {
    const subject = references.length === 1 ? references[0] : `${references.length} companies`;
    const sheet = deps.sheets.insertSheet(
      unusedSheetName(
        'Lookalikes',
        subject,
        deps.sheets.listSheets().map((existing) => existing.name),
      ),
    );
    const rows = fusedRows(top, columns, lists.length);
    deps.sheets.writeValues(sheet.id, 1, 1, rows);
    deps.sheets.setNote(sheet.id, 1, 1, noteFor(request, references, split.excluded.size - references.length, ranAt));
    deps.sheets.styleHeader(sheet.id, rows[0].length);
    deps.sheets.activate(sheet.id);
    return { ...base, sheet, written: top.length };
  });
}
