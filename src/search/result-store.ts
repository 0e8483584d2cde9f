// Keeps the results of a search between the panel's preview and its "Insert"/"Append" click, so writing does not
// search again: JSON cut into chunks under CacheService's 100 KB value limit, kept 1 hour, keyed by a search id and
// bound to the exact spec that produced them. A miss (evicted, expired, other spec) makes the caller search again.
import type { CompanySearchResult } from '../api/types';
import type { CachePort } from '../ports';

const PREFIX = 'search:v1:';
// 30,000 UTF-16 units are at most 90 KB of UTF-8, under the 100 KB value limit whatever the text.
const CHUNK_CHARS = 30_000;
export const RESULTS_TTL_SECONDS = 60 * 60;

export interface StoredSearch {
  specKey: string;
  results: CompanySearchResult[];
  exhausted: boolean;
}

/** Stores a search's results; returns false when the cache refused them (too large), in which case nothing is kept. */
export function storeResults(cache: CachePort, searchId: string, stored: StoredSearch): boolean {
  const text = JSON.stringify(stored);
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += CHUNK_CHARS) chunks.push(text.slice(at, at + CHUNK_CHARS));
  const values: Record<string, string> = { [`${PREFIX}${searchId}`]: String(chunks.length) };
  chunks.forEach((chunk, index) => (values[`${PREFIX}${searchId}:${index}`] = chunk));
  try {
    cache.putAll(values, RESULTS_TTL_SECONDS);
    return true;
  } catch {
    return false;
  }
}

/** The stored results of a search if every chunk is still there and they belong to `specKey`. */
export function loadResults(cache: CachePort, searchId: string, specKey: string): StoredSearch | null {
  const countKey = `${PREFIX}${searchId}`;
  const count = Number(cache.getAll([countKey])[countKey]);
  if (!Number.isInteger(count) || count < 1) return null;
  const keys = Array.from({ length: count }, (_, index) => `${countKey}:${index}`);
  const found = cache.getAll(keys);
  if (keys.some((key) => typeof found[key] !== 'string')) return null;
  try {
    const stored = JSON.parse(keys.map((key) => found[key]).join('')) as StoredSearch;
    return stored.specKey === specKey && Array.isArray(stored.results) ? stored : null;
  } catch {
    return null;
  }
}

/** A stable key of a spec: JSON with object keys sorted, so the same spec built in another order matches. */
export function specKeyOf(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
