// One cache's contents with Google's limits (keys up to 250 characters, values up to 100 KB, TTL default 600 s and at
// most 21,600 s, 1,000 items, then the 900 furthest from expiry): the state CacheService (services/cache.ts) reads and
// writes, shared by the executions of a project or a document, and the host's inspection API.
import type { Clock } from '../clock';
import { GasError, Msg } from '../errors';

export const CACHE_KEY_LIMIT = 250;
export const CACHE_VALUE_LIMIT_BYTES = 100 * 1024;
export const CACHE_DEFAULT_TTL_SECONDS = 600;
export const CACHE_MAX_TTL_SECONDS = 21_600;
export const CACHE_MAX_ITEMS = 1000;
/** What a cache keeps after a write passes CACHE_MAX_ITEMS (Cache reference: "the 900 items farthest from expiration"). */
export const CACHE_ITEMS_AFTER_EVICTION = 900;

/** One cache; also the host-side inspection API (`runtime.cache.script.get('k')`). */
export class CacheStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  get(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  put(key: string, value: string, ttlSeconds = CACHE_DEFAULT_TTL_SECONDS): void {
    this.putAll({ [key]: value }, ttlSeconds);
  }

  /** Stores several values; checks every key and value before storing any. */
  putAll(values: Record<string, string>, ttlSeconds = CACHE_DEFAULT_TTL_SECONDS): void {
    for (const [key, value] of Object.entries(values)) {
      if (key.length > CACHE_KEY_LIMIT) throw new GasError(Msg.argumentTooLarge('key'));
      if (Buffer.byteLength(value, 'utf8') > CACHE_VALUE_LIMIT_BYTES) throw new GasError(Msg.argumentTooLarge('value'));
    }
    const ttl = Math.min(Math.max(1, Math.floor(ttlSeconds)), CACHE_MAX_TTL_SECONDS);
    const expiresAt = this.clock.now() + ttl * 1000;
    for (const [key, value] of Object.entries(values)) {
      this.entries.delete(key);
      this.entries.set(key, { value, expiresAt });
    }
    this.evict();
  }

  remove(key: string): void {
    this.entries.delete(key);
  }

  /** Live (unexpired) keys. */
  keys(): string[] {
    return [...this.entries.keys()].filter((k) => this.get(k) !== null);
  }

  /** Milliseconds until the entry expires, or null when absent. */
  ttlMs(key: string): number | null {
    return this.get(key) === null ? null : this.entries.get(key)!.expiresAt - this.clock.now();
  }

  clear(): void {
    this.entries.clear();
  }

  /**
   * Past CACHE_MAX_ITEMS: drops expired entries, then the entries nearest to expiry (the earlier written first
   * among equal expiries) until CACHE_ITEMS_AFTER_EVICTION remain.
   */
  private evict(): void {
    if (this.entries.size <= CACHE_MAX_ITEMS) return;
    const now = this.clock.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size <= CACHE_MAX_ITEMS) return;
    const nearestExpiryFirst = [...this.entries].sort(([, a], [, b]) => a.expiresAt - b.expiresAt); // stable: write order
    for (const [key] of nearestExpiryFirst.slice(0, this.entries.size - CACHE_ITEMS_AFTER_EVICTION))
      this.entries.delete(key);
  }
}
