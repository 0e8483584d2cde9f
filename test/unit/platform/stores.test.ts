// The Properties, Cache, Lock and clock adapters over fakes of the Apps Script services.

import { createCachePort } from '../../../src/platform/cache';
import { createAppsScriptClock } from '../../../src/platform/clock';
import { createLockPort } from '../../../src/platform/lock';
import { createPropertiesStore } from '../../../src/platform/properties-store';

/** A Properties store that counts its calls (each is one against the daily quota). */
function fakeProperties() {
  const values = new Map<string, string>();
  const calls: string[] = [];
  const properties = {
    getProperty: (key: string) => (calls.push('getProperty'), values.get(key) ?? null),
    getProperties: () => (calls.push('getProperties'), Object.fromEntries(values)),
    setProperty: (key: string, value: string) => {
      calls.push('setProperty');
      values.set(key, value);
      return properties;
    },
    deleteProperty: (key: string) => {
      calls.push('deleteProperty');
      values.delete(key);
      return properties;
    },
  };
  return { values, calls, properties: properties as unknown as GoogleAppsScript.Properties.Properties };
}

class FakeCache {
  readonly values = new Map<string, string>();
  readonly puts: Array<{ keys: string[]; ttl: number }> = [];
  readonly gets: string[][] = [];
  failing = false;
  getAll(keys: string[]) {
    this.gets.push(keys);
    if (this.failing) throw new Error('Service error: Cache');
    const found: Record<string, string> = {};
    for (const key of keys) if (this.values.has(key)) found[key] = this.values.get(key) as string;
    return found;
  }
  putAll(values: Record<string, string>, ttl: number) {
    if (this.failing) throw new Error('Service error: Cache');
    this.puts.push({ keys: Object.keys(values), ttl });
    for (const key of Object.keys(values)) this.values.set(key, values[key]);
  }
  removeAll(keys: string[]) {
    if (this.failing) throw new Error('Service error: Cache');
    for (const key of keys) this.values.delete(key);
  }
}

describe('createPropertiesStore', () => {
  test('gets, sets and removes properties', () => {
    const { values, properties } = fakeProperties();
    const store = createPropertiesStore(properties);
    expect(store.get('k')).toBeNull();
    store.set('k', 'v');
    expect(values.get('k')).toBe('v');
    expect(store.get('k')).toBe('v');
    store.remove('k');
    expect(store.get('k')).toBeNull();
  });

  test('reads the whole store once per execution; writes go through and are seen by later reads', () => {
    const { values, calls, properties } = fakeProperties();
    values.set('a', '1').set('b', '2');
    const store = createPropertiesStore(properties);
    expect([store.get('a'), store.get('b'), store.get('missing')]).toEqual(['1', '2', null]);
    store.set('a', '3');
    store.remove('b');
    expect([store.get('a'), store.get('b')]).toEqual(['3', null]);
    expect(calls).toEqual(['getProperties', 'setProperty', 'deleteProperty']);
  });

  test('fresh reads what another execution wrote since; forget makes the next read fetch the store again', () => {
    const { values, calls, properties } = fakeProperties();
    values.set('count', '1');
    const store = createPropertiesStore(properties);
    expect(store.get('count')).toBe('1');
    values.set('count', '5');
    values.set('other', 'x');
    expect(store.get('count')).toBe('1');
    expect(store.fresh('count')).toBe('5');
    expect(store.get('count')).toBe('5');
    expect(store.get('other')).toBeNull();
    store.forget();
    expect(store.get('other')).toBe('x');
    expect(calls).toEqual(['getProperties', 'getProperty', 'getProperties']);
  });
});

describe('createCachePort', () => {
  test('round-trips values and clamps the lifetime into 1 s - 6 h', () => {
    const cache = new FakeCache();
    const port = createCachePort(cache);
    port.putAll({ a: '1', b: '2' }, 999_999);
    port.putAll({ c: '3' }, 0.2);
    expect(cache.puts.map((put) => put.ttl)).toEqual([21_600, 1]);
    expect(port.getAll(['a', 'c', 'missing'])).toEqual({ a: '1', c: '3' });
    port.removeAll(['a']);
    expect(port.getAll(['a', 'b'])).toEqual({ b: '2' });
  });

  test('keys over 250 characters and values over 100 KB are not cacheable', () => {
    const cache = new FakeCache();
    const port = createCachePort(cache);
    const longKey = 'k'.repeat(251);
    port.putAll({ [longKey]: 'x', big: 'é'.repeat(50_001), ok: 'é'.repeat(50_000) }, 60);
    expect(cache.puts).toEqual([{ keys: ['ok'], ttl: 60 }]);
    expect(port.getAll([longKey])).toEqual({});
    expect(cache.gets).toEqual([]);
  });

  test('a value counted in UTF-8 bytes: emoji take four bytes', () => {
    const cache = new FakeCache();
    const port = createCachePort(cache);
    port.putAll({ fits: '😀'.repeat(25_000), over: '😀'.repeat(25_001) }, 60);
    expect(cache.puts).toEqual([{ keys: ['fits'], ttl: 60 }]);
  });

  test('CacheService errors on read and write count as misses; removal errors propagate', () => {
    const cache = new FakeCache();
    const port = createCachePort(cache);
    cache.failing = true;
    expect(port.getAll(['a'])).toEqual({});
    expect(() => port.putAll({ a: '1' }, 60)).not.toThrow();
    expect(() => port.removeAll(['a'])).toThrow('Service error: Cache');
  });

  test('empty batches make no service call', () => {
    const cache = new FakeCache();
    const port = createCachePort(cache);
    port.putAll({}, 60);
    expect(port.getAll([])).toEqual({});
    expect(cache.puts).toEqual([]);
    expect(cache.gets).toEqual([]);
  });
});

describe('createAppsScriptClock', () => {
  test('sleeps whole milliseconds through Utilities.sleep, capped at 5 minutes, and skips empty sleeps', () => {
    const sleeps: number[] = [];
    const clock = createAppsScriptClock({ sleep: (ms: number) => void sleeps.push(ms) });
    clock.sleep(250.2);
    clock.sleep(0);
    clock.sleep(-5);
    clock.sleep(10 * 60_000);
    expect(sleeps).toEqual([251, 300_000]);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000);
  });
});

describe('createLockPort', () => {
  test('tries the lock with a whole, non-negative timeout and releases only a held lock', () => {
    let held = false;
    const timeouts: number[] = [];
    let releases = 0;
    const port = createLockPort({
      tryLock: (ms: number) => {
        timeouts.push(ms);
        held = true;
        return true;
      },
      hasLock: () => held,
      releaseLock: () => {
        releases++;
        held = false;
      },
    });
    port.release();
    expect(releases).toBe(0);
    expect(port.tryLock(1500.7)).toBe(true);
    port.tryLock(-1);
    expect(timeouts).toEqual([1500, 0]);
    port.release();
    port.release();
    expect(releases).toBe(1);
  });

  test('taking the lock drops what the execution read of the stores it guards; a lock not taken drops nothing', () => {
    const forgotten: string[] = [];
    let free = false;
    const port = createLockPort({ tryLock: () => free, hasLock: () => free, releaseLock: () => undefined }, [
      { forget: () => forgotten.push('document') },
    ]);
    expect(port.tryLock(100)).toBe(false);
    expect(forgotten).toEqual([]);
    free = true;
    expect(port.tryLock(100)).toBe(true);
    expect(forgotten).toEqual(['document']);
  });
});
