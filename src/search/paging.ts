// Paging of one search: the pages of at most 250 results that cover the requested count (all sent at once through the
// client's batch search, so 2,000 results cost one parallel round of 8 requests), and the merge of the answers in
// order: a short page ends the results (there is no total count), a company repeated across pages counts once.
import type { CompanySearchResult, Pagination } from '../api/types';

/** The service's page size limit (interface section 8). */
export const PAGE_SIZE = 250;

/** Pages covering `count` results from offset 0. */
export function planPages(count: number, pageSize = PAGE_SIZE): Required<Pagination>[] {
  const pages: Required<Pagination>[] = [];
  for (let offset = 0; offset < count; offset += pageSize)
    pages.push({ offset, limit: Math.min(pageSize, count - offset) });
  return pages;
}

export interface MergedResults {
  results: CompanySearchResult[];
  /** True when a page came back short: the index holds no more matches. */
  exhausted: boolean;
}

/** Concatenates the pages' results in page order, stopping after the first short page, de-duplicated by domain. */
export function mergePages(
  pages: ReadonlyArray<{ limit: number; results: readonly CompanySearchResult[] }>,
  count: number,
): MergedResults {
  const seen = new Set<string>();
  const results: CompanySearchResult[] = [];
  let exhausted = false;
  for (const page of pages) {
    for (const result of page.results) {
      const key = (result.domain || result.id || '').toLowerCase();
      if (key !== '' && seen.has(key)) continue;
      if (key !== '') seen.add(key);
      results.push(result);
    }
    if (page.results.length < page.limit) {
      exhausted = true;
      break;
    }
  }
  return { results: results.slice(0, count), exhausted };
}
