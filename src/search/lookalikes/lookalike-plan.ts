// What a "Similar to a list" run will cost and what it leaves out, known before anything is sent: one lookalike page
// request per reference and page (the pages of the search's paging), the plan's depth per reference, and how the
// excluded domains split between the service's `exclude.domains` filter (at most 1,000) and the filtering done after
// the answers arrive. Dependency-free (paging and limits only) so the panel shows the same figures the server uses.
import { EXCLUDE_DOMAIN_LIMIT, FREE_DEPTH, PAID_DEPTH } from '../limits';
import { planPages } from '../paging';

/** Most reference companies one run takes. */
export const MAX_REFERENCES = 100;
/** Most companies one run writes. */
export const MAX_TOP = PAID_DEPTH;
/** The k of reciprocal rank fusion: a company at rank r of a reference's list scores 1 / (k + r). */
export const RRF_K = 60;

export interface LookalikePlan {
  references: number;
  /** Results asked of each reference (at most the plan's depth). */
  perReference: number;
  pagesPerReference: number;
  /** Lookalike requests in all (references x pages), sent in parallel fetchAll batches. */
  requests: number;
  /** The plan's depth: most results one lookalike search returns (25 on the free plan). */
  depth: number;
  /** Domains left out: the references and every distinct domain of the exclude sources. */
  excluded: number;
  /** Of those, sent with each request as the service's filter (references first, then the most recent). */
  sentAsFilter: number;
  /** The rest, removed from the answers after the call. */
  filteredAfterCall: number;
}

/** `excludedOthers` counts the excluded domains that are not references. */
export function planLookalikeRun(
  references: number,
  perReference: number,
  excludedOthers: number,
  depth: number,
): LookalikePlan {
  const pagesPerReference = planPages(Math.max(0, perReference)).length;
  const excluded = references + excludedOthers;
  const sentAsFilter = Math.min(EXCLUDE_DOMAIN_LIMIT, excluded);
  return {
    references,
    perReference,
    pagesPerReference,
    requests: references * pagesPerReference,
    depth,
    excluded,
    sentAsFilter,
    filteredAfterCall: excluded - sentAsFilter,
  };
}

function count(value: number, one: string, many = `${one}s`): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
}

/** The panel's lines for a plan: requests, depth, exclusions. */
export function describePlan(plan: LookalikePlan): string[] {
  const depth =
    plan.depth === FREE_DEPTH
      ? `the free plan reaches ${FREE_DEPTH} per reference`
      : `your plan reaches ${plan.depth.toLocaleString('en-US')}`;
  const lines = [
    `${count(plan.requests, 'request')}: ${count(plan.references, 'reference')} × ${count(plan.pagesPerReference, 'page')} (lookalike searches, in parallel)`,
    `${count(plan.perReference, 'result')} per reference; ${depth}`,
  ];
  if (plan.filteredAfterCall > 0) {
    lines.push(
      `Excluded: ${plan.excluded.toLocaleString('en-US')} domains (references included): ${plan.sentAsFilter.toLocaleString('en-US')} sent as the ` +
        `service's filter, ${plan.filteredAfterCall.toLocaleString('en-US')} removed from the answers after the call`,
    );
  } else {
    lines.push(`Excluded: ${count(plan.excluded, 'domain')} (references included), sent as the service's filter`);
  }
  return lines;
}
