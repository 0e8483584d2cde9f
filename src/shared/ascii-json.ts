// JSON with every non-ASCII character written as a \u escape, so a text's length in characters is its size in bytes:
// what CacheService's 100 KB per value is counted in. Used by the caches that pack data close to that limit.

export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
