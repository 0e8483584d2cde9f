// CacheService: the script, user and document caches (each a CacheStore, state/cache-store.ts, which holds Google's
// limits: keys up to 250 characters, values up to 100 KB, TTL default 600 s and at most 21,600 s, 1,000 items per
// cache). Expiry follows the runtime clock, so a manual clock makes TTLs testable. Each call is charged what it
// moves, by key and by KB (costs.ts, CACHE).
import { CACHE_DEFAULT_TTL_SECONDS, type CacheStore } from '../state/cache-store';
import type { ServiceContext } from '../state/env';
import { cacheDataCost } from '../costs';

const ttlArg = (value: unknown) => (value === undefined || value === null ? CACHE_DEFAULT_TTL_SECONDS : Number(value));

const kb = (text: string) => Buffer.byteLength(text, 'utf8') / 1024;

export function createCacheService({ env, exec }: ServiceContext): Record<string, unknown> {
  /** What a call moved, on top of its fixed cost (costs.ts, CACHE). */
  const moved = (values: number, readKb: number, writtenKb: number) =>
    exec.charge(cacheDataCost(values, readKb, writtenKb), 'cache.data');
  const Cache = exec.define<CacheStore>('Cache', {
    get(key: string) {
      const value = this.get(String(key));
      moved(0, value === null ? 0 : kb(value), 0);
      return value;
    },
    getAll(keys: string[]) {
      const out: Record<string, string> = {};
      const asked = Array.from(keys ?? [], String);
      let readKb = 0;
      for (const key of asked) {
        const value = this.get(key);
        if (value !== null) {
          out[key] = value;
          readKb += kb(value);
        }
      }
      moved(asked.length, readKb, 0);
      return out;
    },
    put(key: string, value: unknown, expirationInSeconds?: number) {
      this.put(String(key), String(value), ttlArg(expirationInSeconds));
      moved(0, 0, kb(String(value)));
    },
    putAll(values: Record<string, unknown>, expirationInSeconds?: number) {
      const entries: Record<string, string> = {};
      for (const [k, v] of Object.entries(values ?? {})) entries[k] = String(v);
      this.putAll(entries, ttlArg(expirationInSeconds));
      const stored = Object.values(entries);
      moved(
        stored.length,
        0,
        stored.reduce((sum, value) => sum + kb(value), 0),
      );
    },
    remove(key: string) {
      this.remove(String(key));
    },
    removeAll(keys: string[]) {
      const asked = Array.from(keys ?? [], String);
      for (const key of asked) this.remove(key);
      moved(asked.length, 0, 0);
    },
  });
  const Service = exec.define<object>('CacheService', {
    getScriptCache() {
      exec.require('cache', 'CacheService', 'getScriptCache');
      return Cache.wrap(env.caches.script);
    },
    getDocumentCache() {
      exec.require('cache', 'CacheService', 'getDocumentCache');
      return exec.documentless ? null : Cache.wrap(env.caches.document);
    },
    getUserCache() {
      exec.require('cache', 'CacheService', 'getUserCache');
      return Cache.wrap(env.caches.user(exec.authMode === 'CUSTOM_FUNCTION' ? env.owner : exec.user));
    },
  });
  return Service.wrap({});
}
