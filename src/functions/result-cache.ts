// Cache of finished SIMILAR / COMPANY_SEARCH results (the spilled rows), keyed by the normalized request. A page of
// 250 companies can exceed CacheService's 100 KB per value, so a result is stored as ASCII-only JSON cut into
// pieces under one head entry; a missing piece makes the whole entry a miss. The head also holds the request
// text itself, so a hash collision can never serve another request's rows.
import type { CachePort } from '../ports';
import type { FormulaResult } from './cell-text';
import { hashText } from './hash';
import { asciiJson } from '../companies/ascii-json';

const KEY_PREFIX = 'functions:result:v1:';
/** Characters per piece: ASCII-only JSON, so characters are bytes, under the 100 KB value limit. */
const PIECE_LENGTH = 90_000;
export const RESULT_TTL_SECONDS = 6 * 60 * 60;

interface Head {
  request: string;
  pieces: number;
}

function headKey(request: string): string {
  return KEY_PREFIX + hashText(request);
}

export function readResult(cache: CachePort, request: string): FormulaResult | null {
  const key = headKey(request);
  const headText = cache.getAll([key])[key];
  if (!headText) return null;
  try {
    const head = JSON.parse(headText) as Head;
    if (head.request !== request) return null;
    const pieceKeys = Array.from({ length: head.pieces }, (_, i) => `${key}:${i}`);
    const pieces = cache.getAll(pieceKeys);
    if (pieceKeys.some((pieceKey) => pieces[pieceKey] === undefined)) return null;
    return JSON.parse(pieceKeys.map((pieceKey) => pieces[pieceKey]).join('')) as FormulaResult;
  } catch {
    return null;
  }
}

export function writeResult(cache: CachePort, request: string, rows: FormulaResult): void {
  const key = headKey(request);
  const text = asciiJson(rows);
  const values: Record<string, string> = {};
  let pieces = 0;
  for (let offset = 0; offset < text.length; offset += PIECE_LENGTH)
    values[`${key}:${pieces++}`] = text.slice(offset, offset + PIECE_LENGTH);
  const head: Head = { request, pieces };
  const headText = asciiJson(head);
  if (headText.length > PIECE_LENGTH) return;
  cache.putAll(values, RESULT_TTL_SECONDS);
  cache.putAll({ [key]: headText }, RESULT_TTL_SECONDS);
}
