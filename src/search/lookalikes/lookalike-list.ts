// Lookalikes of a whole list of reference companies, merged into one ranking (pure): which excluded domains go into
// the service's filter and which are removed after the call, reciprocal rank fusion of the references' lookalike
// lists, and the rows written for the merged ranking (company columns, a match score from 0 to 100, and "similar to N
// of your M" with the references and ranks).
//
// Ranking: a company at rank r (1 = most similar) of a reference's list scores 1 / (k + r), k = 60, summed over the
// references whose lists hold it. A company similar to several references therefore ranks above one similar to a
// single reference at about the same rank. Ranks are counted after the excluded domains are removed, so a domain
// filtered after the call (beyond the 1,000-domain filter) does not push the others down. Ties: more references,
// then the better best rank, then the domain in code-point order, so the same answers always give the same sheet.
import type { CompanySearchResult } from '../../api/types';
import { toCellValue, type CellValue } from '../../shared/cell-values';
import { parseDomain } from '../../shared/domain/domain';
import { cellRow, type ResultColumn } from '../results/columns';
import { mostRecent } from '../exclude-domains';
import { EXCLUDE_DOMAIN_LIMIT } from '../limits';
import { RRF_K } from './lookalike-plan';

/** One reference's lookalike list, most similar first. */
export interface ReferenceResults {
  reference: string;
  results: readonly CompanySearchResult[];
}

export interface ReferenceMatch {
  reference: string;
  /** 1-based rank in that reference's list, excluded domains not counted. */
  rank: number;
}

export interface FusedCompany {
  /** The company's registered domain (the key it is merged and excluded by). */
  domain: string;
  /** The company as the reference where it ranks best returned it. */
  result: CompanySearchResult;
  score: number;
  /** The references whose lists hold it, best rank first (reference order on equal ranks). */
  matches: ReferenceMatch[];
}

export interface Fusion {
  companies: FusedCompany[];
  /** Distinct companies removed from the answers because they are excluded (references and exclude sources). */
  removed: number;
}

export interface ExclusionSplit {
  /** Sent as `exclude.domains` with every request: the references first, then the most recent other domains. */
  filter: string[];
  /** Every excluded domain, removed from the answers whether or not the service filtered it. */
  excluded: Set<string>;
  /** How many excluded domains did not fit in the filter. */
  beyondFilter: number;
}

/** The domain a result is merged and excluded by: its registered domain, else its domain or id as given. */
export function companyKey(result: CompanySearchResult): string {
  const parsed = parseDomain(result.domain);
  return parsed.kind === 'domain' ? parsed.domain : String(result.domain || result.id || '').toLowerCase();
}

/**
 * References go first into the filter: each tends to appear in the other references' lists. The other excluded
 * domains (oldest first, as the exclude sources give them) fill the rest of the 1,000, most recent first kept.
 */
export function splitExclusion(references: readonly string[], excludedDomains: readonly string[]): ExclusionSplit {
  const referenceSet = new Set(references);
  const others = [...new Set(excludedDomains)].filter((domain) => !referenceSet.has(domain));
  const room = Math.max(0, EXCLUDE_DOMAIN_LIMIT - referenceSet.size);
  const filter = [...referenceSet, ...(room > 0 ? mostRecent(others, room) : [])].slice(0, EXCLUDE_DOMAIN_LIMIT);
  const excluded = new Set([...referenceSet, ...others]);
  return { filter, excluded, beyondFilter: excluded.size - filter.length };
}

function bestRank(company: FusedCompany): number {
  return company.matches[0].rank;
}

/** Reciprocal rank fusion of the lists (given in reference order), excluded domains removed first. */
export function fuseRankings(lists: readonly ReferenceResults[], excluded: ReadonlySet<string>, k = RRF_K): Fusion {
  const byDomain = new Map<string, FusedCompany>();
  const removed = new Set<string>();
  for (const list of lists) {
    const seen = new Set<string>();
    let rank = 0;
    for (const result of list.results) {
      const domain = companyKey(result);
      if (domain === '' || seen.has(domain)) continue;
      seen.add(domain);
      if (excluded.has(domain)) {
        removed.add(domain);
        continue;
      }
      rank++;
      const company = byDomain.get(domain);
      if (!company) {
        byDomain.set(domain, { domain, result, score: 1 / (k + rank), matches: [{ reference: list.reference, rank }] });
        continue;
      }
      company.score += 1 / (k + rank);
      if (rank < bestRank(company)) company.result = result;
      company.matches.push({ reference: list.reference, rank });
    }
  }
  const companies = [...byDomain.values()];
  // Stable: equal ranks keep the reference order they were added in.
  for (const company of companies) company.matches.sort((a, b) => a.rank - b.rank);
  companies.sort(
    (a, b) =>
      b.score - a.score ||
      b.matches.length - a.matches.length ||
      bestRank(a) - bestRank(b) ||
      (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0),
  );
  return { companies, removed: removed.size };
}

/**
 * The "Similar to" cell: how many of the references list the company, then those references, best rank first, each
 * with its rank ("2 of your 18: acme.com (#1), beta.io (#12)").
 */
export function similarToText(matches: readonly ReferenceMatch[], references: number): string {
  const list = matches.map((match) => `${match.reference} (#${match.rank})`).join(', ');
  return `${matches.length} of your ${references}: ${list}`;
}

/**
 * The score as written, from 0 to 100: the fused score over the most a company can score (every reference listing it
 * first), rounded. A company every reference lists first scores 100; one a single reference of 18 lists first, 6.
 */
export function matchScore(score: number, references: number): number {
  return Math.round((100 * score * (RRF_K + 1)) / Math.max(1, references));
}

/** Headers of the merged list's own columns, cased like the company columns beside them. */
export const SCORE_LABEL = 'Match score (0-100)';
export const SIMILAR_TO_LABEL = 'Similar to';
/** A company's relevance is the one the reference where it ranks best gave it: the first listed in "Similar to". */
const RELEVANCE_LABEL = 'Relevance (to its first reference)';

/**
 * Header row and one row per company: the chosen company columns, then the score and "Similar to" (of `references`
 * references in all); text escaped.
 */
export function fusedRows(
  companies: readonly FusedCompany[],
  columns: readonly ResultColumn[],
  references: number,
): CellValue[][] {
  return [
    [
      ...columns.map((column) => (column.key === 'relevance' ? RELEVANCE_LABEL : column.label)),
      SCORE_LABEL,
      SIMILAR_TO_LABEL,
    ],
    ...companies.map((company) => [
      ...cellRow(company.result, columns),
      matchScore(company.score, references),
      toCellValue(similarToText(company.matches, references)),
    ]),
  ];
}
