// The packed profile cache: thousands of lookups in a bounded number of cache items under the value limit, one cache
// call to read and two to write, per-entry expiry, merging with what other executions stored, overflow handling.
import {
  BUCKETS,
  MAX_BUCKET_CHARS,
  bucketKey,
  readCachedLookups,
  writeCachedLookups,
  type CachedLookup,
} from '../../../src/companies/profile-cache';
import { profileValues } from '../../../src/companies/profile-fields';
import type { CompanyProfile } from '../../../src/api/types';
import { MemoryCache } from '../../fakes/ports';

/** A cache that counts calls and enforces CacheService's key and value limits (bytes). */
const NOW = Date.UTC(2026, 0, 1);
const HOUR = 60 * 60 * 1000;

function profile(
  domain: string,
  description = `What ${domain} does, in one sentence of about a hundred characters or so.`,
): CompanyProfile {
  return {
    id: `id-${domain}`,
    domain,
    company_name: `${domain.split('.')[0]} GmbH`,
    context: {
      short_description: description,
      hq_country: 'Germany',
      hq_city: 'München',
      employee_count: '51-200',
      founding_year: 2001,
      social_profiles: {},
    },
  } as unknown as CompanyProfile;
}

const found = (domain: string, description?: string): CachedLookup => ({
  state: 'found',
  values: profileValues(profile(domain, description)),
});
const domains = (n: number, prefix = 'company') => Array.from({ length: n }, (_, i) => `${prefix}${i}.com`);

describe('packed profile cache', () => {
  it('keeps 7,500 profiles in at most 256 items under the value limit; reading them all is one getAll', () => {
    const cache = new MemoryCache();
    const list = domains(7500);
    for (let i = 0; i < list.length; i += 50)
      writeCachedLookups(cache, new Map(list.slice(i, i + 50).map((d) => [d, found(d)])), NOW);
    expect(cache.entries.size).toBeLessThanOrEqual(BUCKETS);
    expect(Math.max(...[...cache.entries.values()].map((entry) => entry.value.length))).toBeLessThanOrEqual(
      MAX_BUCKET_CHARS,
    );
    expect([...cache.entries.values()].every((entry) => /^[\x20-\x7e]*$/.test(entry.value))).toBe(true);
    cache.gets = 0;
    const read = readCachedLookups(cache, list, NOW + HOUR);
    expect(cache.gets).toBe(1);
    expect(read.size).toBe(7500);
    expect(read.get('company42.com')).toEqual(found('company42.com'));
    const values = (read.get('company42.com') as { values: Record<string, unknown> }).values;
    expect([values.company_name, values.hq_city, values.linkedin]).toEqual(['company42 GmbH', 'München', null]);
  });

  it('writes with one getAll and one putAll, keeping what other executions stored in the same buckets', () => {
    const cache = new MemoryCache();
    const first = domains(300, 'a');
    const second = domains(300, 'b');
    writeCachedLookups(cache, new Map(first.map((d) => [d, found(d)])), NOW);
    cache.gets = 0;
    cache.puts = 0;
    writeCachedLookups(cache, new Map(second.map((d) => [d, { state: 'not_found' }])), NOW);
    expect([cache.gets, cache.puts]).toEqual([1, 1]);
    const read = readCachedLookups(cache, [...first, ...second], NOW);
    expect(read.size).toBe(600);
    expect(read.get('b7.com')).toEqual({ state: 'not_found' });
  });

  it('expires "not found" after 1 hour and profiles after 6, each by its own time even when its bucket is rewritten', () => {
    const cache = new MemoryCache();
    writeCachedLookups(
      cache,
      new Map<string, CachedLookup>([
        ['old.com', found('old.com')],
        ['gone.com', { state: 'not_found' }],
      ]),
      NOW,
    );
    // Another write into the same bucket 5 hours later renews the item, not the older entries.
    const neighbour = domains(5000, 'n').find((d) => bucketKey(d) === bucketKey('old.com')) as string;
    writeCachedLookups(cache, new Map([[neighbour, found(neighbour)]]), NOW + 5 * HOUR);
    expect([...readCachedLookups(cache, ['old.com', 'gone.com', neighbour], NOW + HOUR + 1000).keys()].sort()).toEqual(
      [neighbour, 'old.com'].sort(),
    );
    expect([...readCachedLookups(cache, ['old.com', neighbour], NOW + 6 * HOUR + 1000).keys()]).toEqual([neighbour]);
  });

  it('drops the entries nearest to expiry when a bucket would pass its size, never storing more than the limit', () => {
    const cache = new MemoryCache();
    const long = 'x'.repeat(20_000);
    const sameBucket = domains(20_000, 'big')
      .filter((d) => bucketKey(d) === bucketKey('big0.com'))
      .slice(0, 6);
    sameBucket.forEach((d, i) => writeCachedLookups(cache, new Map([[d, found(d, long)]]), NOW + i * 60_000));
    const text = cache.entries.get(bucketKey('big0.com'))?.value as string;
    expect(text.length).toBeLessThanOrEqual(MAX_BUCKET_CHARS);
    const kept = readCachedLookups(cache, sameBucket, NOW + 6 * 60_000);
    expect(kept.size).toBe(4);
    expect(kept.has(sameBucket[0])).toBe(false);
    expect(kept.has(sameBucket[5])).toBe(true);
  });

  it('reads a damaged bucket as misses and replaces it on the next write', () => {
    const cache = new MemoryCache();
    cache.putAll({ [bucketKey('a.com')]: '{"a.com": [' }, 600);
    expect(readCachedLookups(cache, ['a.com'], NOW).size).toBe(0);
    writeCachedLookups(cache, new Map([['a.com', found('a.com')]]), NOW);
    expect(readCachedLookups(cache, ['a.com'], NOW).get('a.com')).toEqual(found('a.com'));
  });
});
