// CachePort over an Apps Script Cache (script, user or document cache from CacheService), and a wrapper that holds
// long-lived writes until a flush writes them in one call.
// Apps Script limits keys to 250 characters, values to 100 KB and lifetimes to 1 s - 6 h. Entries
// outside those limits are treated as not cacheable (never stored, always a miss) instead of
// making CacheService throw. Reads and writes are best effort: a CacheService error counts as a
// miss or as an entry that was not kept, which the port already allows ("entries may vanish").
// Removal errors propagate, because a failed invalidation would leave stale data behind.

import type { CachePort } from '../ports';

const MAX_KEY_LENGTH = 250;
/** 100 KB, counted in UTF-8 bytes and rounded down to stay clear of the limit. */
const MAX_VALUE_BYTES = 100_000;
const MIN_TTL_SECONDS = 1;
const MAX_TTL_SECONDS = 21_600;

/** The part of `GoogleAppsScript.Cache.Cache` this adapter uses. */
interface AppsScriptCache {
  getAll(keys: string[]): Record<string, unknown>;
  putAll(values: Record<string, string>, expirationInSeconds: number): void;
  removeAll(keys: string[]): void;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** UTF-8 length of a string without TextEncoder (absent in Apps Script). */
function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4; // a surrogate pair is one 4-byte code point
      index++;
    } else bytes += 3;
  }
  return bytes;
}

function isCacheableKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH;
}

/** Wraps the given cache, e.g. `CacheService.getUserCache()`. */
export function createCachePort(cache: AppsScriptCache): CachePort {
  return {
    getAll(keys) {
      const cacheable = keys.filter(isCacheableKey);
      if (cacheable.length === 0) return {};
      let found: Record<string, unknown>;
      try {
        found = cache.getAll(cacheable);
      } catch {
        return {};
      }
      const values: Record<string, string> = {};
      for (const key of cacheable) {
        const value = found[key];
        if (typeof value === 'string') values[key] = value;
      }
      return values;
    },
    putAll(values, ttlSeconds) {
      const storable: Record<string, string> = {};
      let count = 0;
      for (const key of Object.keys(values)) {
        if (isCacheableKey(key) && utf8ByteLength(values[key]) <= MAX_VALUE_BYTES) {
          storable[key] = values[key];
          count++;
        }
      }
      if (count === 0) return;
      const ttl = Math.min(MAX_TTL_SECONDS, Math.max(MIN_TTL_SECONDS, Math.round(ttlSeconds)));
      try {
        cache.putAll(storable, ttl);
      } catch {
        // Not kept: later reads miss, as they would after an early eviction.
      }
    },
    removeAll(keys) {
      const cacheable = keys.filter(isCacheableKey);
      if (cacheable.length > 0) cache.removeAll(cacheable);
    },
  };
}

/** The longest life CacheService gives (6 hours): writes of this life can wait for one putAll. */
const HELD_TTL_SECONDS = MAX_TTL_SECONDS;

/**
 * A cache whose writes of the longest life can be held (`hold`) and written together (`flush`: one putAll for all of
 * them), so a long job's several writers (its lookups, the learned throughput) cost one cache write per save. Reads
 * see held values.
 */
export function holdingCache(port: CachePort): { cache: CachePort; hold(): void; flush(): void } {
  let held: Record<string, string> | null = null;
  const cache: CachePort = {
    getAll(keys) {
      const found = port.getAll(held ? keys.filter((key) => !(key in (held as object))) : keys);
      if (held) for (const key of keys) if (key in held) found[key] = held[key];
      return found;
    },
    putAll(values, ttlSeconds) {
      if (held && ttlSeconds >= HELD_TTL_SECONDS) Object.assign(held, values);
      else port.putAll(values, ttlSeconds);
    },
    removeAll(keys) {
      if (held) for (const key of keys) delete held[key];
      port.removeAll(keys);
    },
  };
  return {
    cache,
    hold: () => {
      held ??= {};
    },
    flush: () => {
      if (!held || Object.keys(held).length === 0) return;
      const values = held;
      held = {};
      port.putAll(values, HELD_TTL_SECONDS);
    },
  };
}
