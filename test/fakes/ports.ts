// The in-memory ports every unit test shares, each with the real platform rule it stands for
// (docs/platform/apps-script-platform.md §4, §5, §11): a property store with 8,066 bytes per value (the measured
// limit; Google's quota page says 9 KB) and 500 KB per store,
// a cache with 250-character keys, 100 KB values, a 6-hour expiry and the 1,000-item cap (keeping the 900 furthest
// from expiry), a manual clock whose sleep advances time, and a lock held by one execution at a time.
import type { CachePort, ClockPort, LockPort, SizedStore } from '../../src/ports';

/** The largest property value the platform takes, as measured (dev/gas-runtime/state/property-store.ts). */
export const PROPERTY_VALUE_BYTES = 8066;
const PROPERTY_STORE_BYTES = 500 * 1024;
const CACHE_KEY_CHARS = 250;
const CACHE_VALUE_CHARS = 100 * 1024;
const CACHE_MAX_TTL_SECONDS = 21_600;
const CACHE_MAX_ITEMS = 1000;
const CACHE_ITEMS_KEPT = 900;

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A manual clock: `time` moves only by `sleep` or `advance`; every sleep is recorded. */
export class ManualClock implements ClockPort {
  readonly sleeps: number[] = [];
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.time;
  }
  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.time += ms;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * PropertiesService-like store: throws the platform's errors past 8,066 bytes per value or 500 KB per store; counts reads
 * and writes (each is a call against the daily Properties quota), and `failWrites` makes every write refused.
 */
export class MemoryStore implements SizedStore {
  readonly data = new Map<string, string>();
  reads = 0;
  writes = 0;
  failWrites = false;
  get(key: string): string | null {
    this.reads += 1;
    return this.data.get(key) ?? null;
  }
  fresh(key: string): string | null {
    return this.get(key);
  }
  set(key: string, value: string): void {
    this.setAll({ [key]: value });
  }
  /** One write call for all of them; nothing is stored when one value is refused. */
  setAll(values: Record<string, string>): void {
    this.writes += 1;
    if (this.failWrites) throw new Error('You have exceeded the property storage quota.');
    let total = this.totalBytes();
    for (const [key, value] of Object.entries(values)) {
      if (utf8Bytes(key) + utf8Bytes(value) > PROPERTY_VALUE_BYTES) throw new Error('Argument too large: value');
      total += utf8Bytes(key) + utf8Bytes(value);
      if (this.data.has(key)) total -= utf8Bytes(key) + utf8Bytes(this.data.get(key) ?? '');
    }
    if (total > PROPERTY_STORE_BYTES) {
      throw new Error('You have exceeded the property storage quota. Please remove some properties and try again.');
    }
    for (const [key, value] of Object.entries(values)) this.data.set(key, value);
  }
  remove(key: string): void {
    this.data.delete(key);
  }
  bytesFree(): number {
    return PROPERTY_STORE_BYTES - this.totalBytes();
  }
  bytesUnder(prefix: string): number {
    let total = 0;
    for (const [key, value] of this.data) if (key.startsWith(prefix)) total += utf8Bytes(key) + utf8Bytes(value);
    return total;
  }
  totalBytes(): number {
    let total = 0;
    for (const [key, value] of this.data) total += utf8Bytes(key) + utf8Bytes(value);
    return total;
  }
}

/** CacheService-like cache on a clock: expiry, size rules, eviction past 1,000 items; `failPuts` refuses puts. */
export class MemoryCache implements CachePort {
  readonly entries = new Map<string, { value: string; ttl: number; expiresAt: number }>();
  /** Every put is refused, as CacheService does for an oversized batch. */
  failPuts = false;
  /** getAll and putAll calls (each is one CacheService call). */
  gets = 0;
  puts = 0;
  constructor(private readonly clock: ClockPort = new ManualClock()) {}
  getAll(keys: string[]): Record<string, string> {
    this.gets += 1;
    const found: Record<string, string> = {};
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (entry.expiresAt <= this.clock.now()) this.entries.delete(key);
      else found[key] = entry.value;
    }
    return found;
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    this.puts += 1;
    if (this.failPuts) throw new Error('Argument too large: value');
    for (const [key, value] of Object.entries(values)) {
      if (key.length > CACHE_KEY_CHARS) throw new Error(`Argument too large: key (${key.length} characters)`);
      if (value.length > CACHE_VALUE_CHARS) throw new Error(`Argument too large: value (${value.length} characters)`);
      const ttl = Math.min(Math.max(1, ttlSeconds), CACHE_MAX_TTL_SECONDS);
      this.entries.delete(key);
      this.entries.set(key, { value, ttl, expiresAt: this.clock.now() + ttl * 1000 });
    }
    if (this.entries.size > CACHE_MAX_ITEMS) this.evict();
  }
  removeAll(keys: string[]): void {
    for (const key of keys) this.entries.delete(key);
  }
  private evict(): void {
    const byExpiry = [...this.entries].sort((a, b) => b[1].expiresAt - a[1].expiresAt);
    for (const [key] of byExpiry.slice(CACHE_ITEMS_KEPT)) this.entries.delete(key);
  }
}

/** LockService-like lock of one execution (taking it again succeeds); `heldElsewhere`: another execution holds it. */
export class MemoryLock implements LockPort {
  held = false;
  heldElsewhere = false;
  tryLock(): boolean {
    if (this.heldElsewhere) return false;
    this.held = true;
    return true;
  }
  release(): void {
    this.held = false;
  }
}
