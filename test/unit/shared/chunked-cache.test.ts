// The shared chunked cache (src/shared/storage/chunked-cache.ts) used by the search formulas' results and the panel's
// previews, against the cache fake with CacheService's limits.
import { getChunked, putChunked } from '../../../src/shared/storage/chunked-cache';
import { MemoryCache } from '../../fakes/ports';

const rows = Array.from({ length: 3000 }, (_, i) => [`company${i}.com`, `Näme ${i} ✓`, 'x'.repeat(60), i]);

describe('chunked cache', () => {
  it('keeps a large value in pieces under 100 KB of UTF-8 each, whatever the text, and reads it back', () => {
    const cache = new MemoryCache();
    expect(putChunked(cache, 'k', 'request-a', rows, 60)).toBe(true);
    const sizes = [...cache.entries.values()].map((entry) => Buffer.byteLength(entry.value, 'utf8'));
    expect(sizes.length).toBeGreaterThan(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100 * 1024);
    expect(getChunked(cache, 'k', 'request-a')).toEqual(rows);
  });

  it('misses for another identity, a missing piece, an unknown key or a refused put', () => {
    const cache = new MemoryCache();
    putChunked(cache, 'k', 'request-a', rows, 60);
    expect(getChunked(cache, 'k', 'request-b')).toBeNull();
    expect(getChunked(cache, 'other', 'request-a')).toBeNull();
    cache.removeAll(['k:1']);
    expect(getChunked(cache, 'k', 'request-a')).toBeNull();
    const refusing = new MemoryCache();
    refusing.failPuts = true;
    expect(putChunked(refusing, 'k', 'request-a', rows, 60)).toBe(false);
    expect(getChunked(refusing, 'k', 'request-a')).toBeNull();
  });

  it('writes the pieces before the head, so a reader never finds a head without them', () => {
    const cache = new MemoryCache();
    const order: string[][] = [];
    const putAll = cache.putAll.bind(cache);
    cache.putAll = (values, ttl) => (order.push(Object.keys(values)), putAll(values, ttl));
    putChunked(cache, 'k', 'id', { a: 'x'.repeat(200_000) }, 60);
    expect(order.at(-1)).toEqual(['k']);
    expect(order.slice(0, -1).flat()).toEqual(['k:0', 'k:1', 'k:2']);
  });
});
