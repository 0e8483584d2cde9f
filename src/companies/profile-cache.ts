// Cache of company lookups shared by the formulas and the bulk enrichment job: one entry per registered domain,
// holding the whole profile (so any set of fields is served from it) or the fact that the service has none. Profiles
// live 6 hours (CacheService's maximum); "not found" answers 1 hour; "enriching" (202) is never cached.
import type { CachePort } from '../ports';
import type { CompanyProfile } from '../api/types';

export type CachedLookup = { state: 'found'; profile: CompanyProfile } | { state: 'not_found' };

const KEY_PREFIX = 'company:v1:';
const MAX_KEY_LENGTH = 250;
export const PROFILE_TTL_SECONDS = 6 * 60 * 60;
export const NOT_FOUND_TTL_SECONDS = 60 * 60;

function cacheKey(domain: string): string | null {
  const key = KEY_PREFIX + domain;
  return key.length <= MAX_KEY_LENGTH ? key : null;
}

/** Cached lookups for the given domains (missing, expired or evicted entries are simply absent). */
export function readCachedLookups(cache: CachePort, domains: string[]): Map<string, CachedLookup> {
  const keys = domains.map(cacheKey).filter((key): key is string => key !== null);
  const found = new Map<string, CachedLookup>();
  if (keys.length === 0) return found;
  const stored = cache.getAll(keys);
  for (const domain of domains) {
    const key = cacheKey(domain);
    const text = key ? stored[key] : undefined;
    if (!text) continue;
    try {
      const entry = JSON.parse(text) as CachedLookup;
      if (entry.state === 'found' || entry.state === 'not_found') found.set(domain, entry);
    } catch {
      // A damaged entry is a miss.
    }
  }
  return found;
}

/** Stores lookups: profiles for 6 hours, "not found" for 1 hour. */
export function writeCachedLookups(cache: CachePort, entries: Map<string, CachedLookup>): void {
  const profiles: Record<string, string> = {};
  const notFound: Record<string, string> = {};
  for (const [domain, entry] of entries) {
    const key = cacheKey(domain);
    if (!key) continue;
    (entry.state === 'found' ? profiles : notFound)[key] = JSON.stringify(entry);
  }
  if (Object.keys(profiles).length > 0) cache.putAll(profiles, PROFILE_TTL_SECONDS);
  if (Object.keys(notFound).length > 0) cache.putAll(notFound, NOT_FOUND_TTL_SECONDS);
}
