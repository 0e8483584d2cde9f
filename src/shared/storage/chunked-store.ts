// JSON documents in a KeyValueStore (DocumentProperties) that may exceed the per-value limit (8,066 bytes as measured,
// docs/platform): the text is cut into chunks of at most CHUNK_BYTES UTF-8 bytes stored under keys of a new random
// generation (one setProperties call for all of them), then a small head value naming the generation and chunk count
// is written, then the previous generation's chunks are removed. A write cut short before the head is written leaves
// the previous document readable; readers only follow the head; two executions writing at once (a cancel during a
// job's chunk) never mix their chunks. Used by every feature that keeps a document larger than one property
// (enrichment jobs, research panel state, table mappings).
import type { KeyValueStore } from '../../ports';

/** A property value holds 8,066 bytes as measured (docs/platform §12); stay under it. */
export const CHUNK_BYTES = 8000;

interface Head {
  gen: string;
  chunks: number;
}

function utf8Length(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code < 0x10000) return 3;
  return 4;
}

/** UTF-8 size of a string (no TextEncoder in Apps Script). */
export function utf8Bytes(textValue: string): number {
  let bytes = 0;
  for (const char of textValue) bytes += utf8Length(char.codePointAt(0) ?? 0);
  return bytes;
}

/** Cuts text into pieces of at most `maxBytes` UTF-8 bytes, never inside a surrogate pair. */
export function splitUtf8(textValue: string, maxBytes: number): string[] {
  const chunks: string[] = [];
  let current = '';
  let size = 0;
  for (const char of textValue) {
    const bytes = utf8Length(char.codePointAt(0) ?? 0);
    if (size + bytes > maxBytes) {
      chunks.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += bytes;
  }
  if (current !== '' || chunks.length === 0) chunks.push(current);
  return chunks;
}

function readHead(store: KeyValueStore, name: string): Head | null {
  const raw = store.get(name);
  if (raw === null) return null;
  try {
    const head = JSON.parse(raw) as Partial<Head>;
    const gen = typeof head.gen === 'number' ? String(head.gen) : head.gen;
    return typeof gen === 'string' && gen !== '' && typeof head.chunks === 'number'
      ? { gen, chunks: head.chunks }
      : null;
  } catch {
    return null;
  }
}

const chunkKey = (name: string, gen: string, index: number): string => `${name}.${gen}.${index}`;

function newGeneration(previous: string | undefined): string {
  let gen = '';
  while (gen === '' || gen === previous) gen = Math.random().toString(36).slice(2, 10);
  return gen;
}

/** The stored text, or null when there is none or a chunk is missing. */
export function readChunked(store: KeyValueStore, name: string): string | null {
  const head = readHead(store, name);
  if (!head) return null;
  const parts: string[] = [];
  for (let index = 0; index < head.chunks; index++) {
    const part = store.get(chunkKey(name, head.gen, index));
    if (part === null) return null;
    parts.push(part);
  }
  return parts.join('');
}

/** The generation of the stored text (null: none): it changes with every write, so a reader can keep what it parsed. */
export function chunkedGeneration(store: KeyValueStore, name: string): string | null {
  return readHead(store, name)?.gen ?? null;
}

/** Replaces the stored text (see the module comment for the write order). */
export function writeChunked(store: KeyValueStore, name: string, textValue: string): void {
  const previous = readHead(store, name);
  const gen = newGeneration(previous?.gen);
  const chunks = splitUtf8(textValue, CHUNK_BYTES);
  store.setAll(Object.fromEntries(chunks.map((chunk, index) => [chunkKey(name, gen, index), chunk])));
  store.set(name, JSON.stringify({ gen, chunks: chunks.length }));
  if (previous) for (let index = 0; index < previous.chunks; index++) store.remove(chunkKey(name, previous.gen, index));
}

/** Removes the stored text (its head first, so no reader follows it to chunks being removed). */
export function removeChunked(store: KeyValueStore, name: string): void {
  const head = readHead(store, name);
  if (store.get(name) !== null) store.remove(name);
  if (head) for (let index = 0; index < head.chunks; index++) store.remove(chunkKey(name, head.gen, index));
}

export function readChunkedJson(store: KeyValueStore, name: string): unknown {
  const textValue = readChunked(store, name);
  if (textValue === null) return null;
  try {
    return JSON.parse(textValue) as unknown;
  } catch {
    return null;
  }
}

/** A list kept as one chunked JSON document: its items, or none when nothing (or no list) is stored. */
export function readChunkedList<T>(store: KeyValueStore, name: string): T[] {
  const parsed = readChunkedJson(store, name);
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

/** Keeps a list as one chunked JSON document; an empty list is removed. */
export function writeChunkedList(store: KeyValueStore, name: string, items: readonly unknown[]): void {
  if (items.length === 0) removeChunked(store, name);
  else writeChunked(store, name, JSON.stringify(items));
}
