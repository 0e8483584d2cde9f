// One JSON value kept in the script's cache (CacheService allows 100 KB a value) under a head entry and numbered
// pieces, bound to an identity (the exact request or spec it answers), so a hash collision or another request is a
// miss; a missing or unreadable piece is a miss too, and the caller computes the value again. The JSON is ASCII-only
// (asciiJson), so a piece of 90,000 characters is 90,000 bytes whatever the text. The pieces are put before the head:
// a reader never finds a head whose pieces were not written.
import type { CachePort } from '../../ports';
import { asciiJson } from '../ascii-json';

const PIECE_LENGTH = 90_000;

interface Head {
  identity: string;
  pieces: number;
}

/** Keeps `value` under `key` for `ttlSeconds`; false when the cache refused it (nothing usable is left then). */
export function putChunked(
  cache: CachePort,
  key: string,
  identity: string,
  value: unknown,
  ttlSeconds: number,
): boolean {
  const text = asciiJson(value);
  const values: Record<string, string> = {};
  let pieces = 0;
  for (let offset = 0; offset < text.length; offset += PIECE_LENGTH)
    values[`${key}:${pieces++}`] = text.slice(offset, offset + PIECE_LENGTH);
  const head = asciiJson({ identity, pieces } satisfies Head);
  if (head.length > PIECE_LENGTH) return false;
  try {
    cache.putAll(values, ttlSeconds);
    cache.putAll({ [key]: head }, ttlSeconds);
    return true;
  } catch {
    return false;
  }
}

/** The value kept under `key` for this identity, or null (never kept, expired, evicted in part, or another's). */
export function getChunked<T>(cache: CachePort, key: string, identity: string): T | null {
  const headText = cache.getAll([key])[key];
  if (!headText) return null;
  try {
    const head = JSON.parse(headText) as Head;
    if (head.identity !== identity || !Number.isInteger(head.pieces) || head.pieces < 1) return null;
    const pieceKeys = Array.from({ length: head.pieces }, (_, i) => `${key}:${i}`);
    const pieces = cache.getAll(pieceKeys);
    if (pieceKeys.some((pieceKey) => typeof pieces[pieceKey] !== 'string')) return null;
    return JSON.parse(pieceKeys.map((pieceKey) => pieces[pieceKey]).join('')) as T;
  } catch {
    return null;
  }
}
