// Cache of company lookups shared by the formulas and the bulk enrichment job, in the document cache. Google's
// CacheService keeps at most 1,000 items per cache (past that, the 900 furthest from expiry), so lookups are packed:
// each lookup key (registered domain or company ID) hashes to one of BUCKETS buckets, and a bucket is one cache item
// holding its keys' lookups as compact ASCII JSON (only the catalogue's field values, in catalogue order: about 1 KB
// per sandbox profile). Thousands of profiles thus take at most BUCKETS items, whatever else shares the cache.
// - Each entry carries its own expiry: profiles 6 hours (CacheService's maximum), "not found" 1 hour; "enriching"
//   (202) is never cached. A bucket's item lives 6 hours from its last write; expired entries are dropped on read.
// - A bucket over MAX_BUCKET_CHARS (under the 100 KB value limit) drops the entries nearest to expiry until it fits.
// - Reading any number of lookups is one getAll. Writing is one getAll of the buckets it touches (to merge with what
//   other executions stored since) and one putAll; a long job that read its buckets once writes them back without
//   reading them again (readLookupBuckets, writeLookupBuckets). Two executions writing the same bucket at the same moment can
//   still lose one's entries (CacheService has no compare-and-set): a lost entry is a miss, looked up again later,
//   never a wrong answer.
// - Clearing (when formulas stop using a token) removes every bucket: one removeAll of BUCKETS keys.
import type { CachePort } from '../ports';
import { asciiJson } from '../shared/ascii-json';
import { PROFILE_FIELDS, type ProfileValues } from './profile-fields';

export type CachedLookup = { state: 'found'; values: ProfileValues } | { state: 'not_found' };

export const BUCKETS = 256;
/** Characters (= bytes: ASCII-only) a bucket may hold, under CacheService's 100 KB per value. */
export const MAX_BUCKET_CHARS = 95_000;
export const PROFILE_TTL_SECONDS = 6 * 60 * 60;
export const NOT_FOUND_TTL_SECONDS = 60 * 60;

/** FNV-1a, 32 bits: spreads lookup keys evenly over the buckets. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The bucket layout depends on the catalogue's field order: a changed catalogue starts new buckets. */
const KEY_PREFIX = `company:v2:${fnv1a(PROFILE_FIELDS.map((field) => field.key).join(',')).toString(36)}:`;

/** Stored entry: [expiry in epoch seconds, field values in catalogue order (trailing nulls cut) or 0 for "not found"]. */
type StoredEntry = [number, unknown[] | 0];

export function bucketKey(lookupKey: string): string {
  return KEY_PREFIX + (fnv1a(lookupKey) % BUCKETS).toString(36);
}

function isStoredEntry(value: unknown): value is StoredEntry {
  return Array.isArray(value) && typeof value[0] === 'number' && (value[1] === 0 || Array.isArray(value[1]));
}

/** A bucket's live entries (expired and damaged ones left out; a damaged bucket is empty). */
function parseBucket(text: string | undefined, nowSeconds: number): Map<string, StoredEntry> {
  const entries = new Map<string, StoredEntry>();
  if (!text) return entries;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return entries;
    for (const [key, value] of Object.entries(parsed))
      if (isStoredEntry(value) && value[0] > nowSeconds) entries.set(key, value);
  } catch {
    // A damaged bucket is a miss for all its keys.
  }
  return entries;
}

function encode(entry: CachedLookup, nowSeconds: number): StoredEntry {
  if (entry.state === 'not_found') return [nowSeconds + NOT_FOUND_TTL_SECONDS, 0];
  const values = PROFILE_FIELDS.map((field) => entry.values[field.key] ?? null);
  while (values.length > 0 && values[values.length - 1] === null) values.pop();
  return [nowSeconds + PROFILE_TTL_SECONDS, values];
}

function decode(stored: StoredEntry): CachedLookup {
  const values = stored[1];
  if (values === 0) return { state: 'not_found' };
  return {
    state: 'found',
    values: Object.fromEntries(PROFILE_FIELDS.map((field, i) => [field.key, values[i] ?? null])),
  };
}

/** A bucket's text: the entries furthest from expiry that fit in MAX_BUCKET_CHARS. */
function bucketText(entries: Map<string, StoredEntry>): string {
  const furthestFirst = [...entries].sort(([, a], [, b]) => b[0] - a[0]);
  const parts: string[] = [];
  let length = 2;
  for (const [key, entry] of furthestFirst) {
    const part = `${asciiJson(key)}:${asciiJson(entry)}`;
    if (length + part.length + 1 > MAX_BUCKET_CHARS) continue;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

const seconds = (nowMs: number) => Math.floor(nowMs / 1000);

/** Buckets as one execution read them (bucket key -> live entries), kept to write back without reading them again. */
export type LookupBuckets = Map<string, Map<string, StoredEntry>>;

/**
 * Cached lookups for the given keys, with the buckets they live in (one getAll): a long job reads the cache once and
 * stores its answers into these buckets (writeLookupBuckets) without reading them again.
 */
export function readLookupBuckets(
  cache: CachePort,
  lookupKeys: string[],
  nowMs: number,
): { found: Map<string, CachedLookup>; buckets: LookupBuckets } {
  const found = new Map<string, CachedLookup>();
  const buckets: LookupBuckets = new Map();
  if (lookupKeys.length === 0) return { found, buckets };
  const keys = [...new Set(lookupKeys.map(bucketKey))];
  const stored = cache.getAll(keys);
  for (const key of keys) buckets.set(key, parseBucket(stored[key], seconds(nowMs)));
  for (const lookupKey of lookupKeys) {
    const entry = buckets.get(bucketKey(lookupKey))?.get(lookupKey);
    if (entry) found.set(lookupKey, decode(entry));
  }
  return { found, buckets };
}

/**
 * Stores lookups into the buckets read by readLookupBuckets (a bucket not read then is read first, one getAll for
 * them) and writes the buckets they touch in one putAll. Entries another execution stored in the same buckets since
 * they were read are lost (a miss, looked up again later, never a wrong answer).
 */
export function writeLookupBuckets(
  cache: CachePort,
  buckets: LookupBuckets,
  entries: Map<string, CachedLookup>,
  nowMs: number,
): void {
  if (entries.size === 0) return;
  const now = seconds(nowMs);
  const unread = [...new Set([...entries.keys()].map(bucketKey))].filter((key) => !buckets.has(key));
  if (unread.length > 0) {
    const current = cache.getAll(unread);
    for (const key of unread) buckets.set(key, parseBucket(current[key], now));
  }
  const touched = new Set<string>();
  for (const [lookupKey, entry] of entries) {
    const key = bucketKey(lookupKey);
    (buckets.get(key) as Map<string, StoredEntry>).set(lookupKey, encode(entry, now));
    touched.add(key);
  }
  const values: Record<string, string> = {};
  for (const key of touched) values[key] = bucketText(buckets.get(key) as Map<string, StoredEntry>);
  cache.putAll(values, PROFILE_TTL_SECONDS);
}

/** Cached lookups for the given keys (missing, expired or evicted entries are simply absent): one getAll. */
export function readCachedLookups(cache: CachePort, lookupKeys: string[], nowMs: number): Map<string, CachedLookup> {
  return readLookupBuckets(cache, lookupKeys, nowMs).found;
}

/** Stores lookups (profiles for 6 hours, "not found" for 1 hour) into their buckets: one getAll and one putAll. */
export function writeCachedLookups(cache: CachePort, entries: Map<string, CachedLookup>, nowMs: number): void {
  writeLookupBuckets(cache, new Map(), entries, nowMs);
}

/** Removes every cached lookup of this cache (all BUCKETS items): one removeAll. */
export function clearCachedLookups(cache: CachePort): void {
  cache.removeAll(Array.from({ length: BUCKETS }, (_, i) => KEY_PREFIX + i.toString(36)));
}
