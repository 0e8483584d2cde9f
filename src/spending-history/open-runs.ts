// The open part of a spending-history run (history.ts): its figures so far and which of its records are not settled
// yet, by their place in the launch (a set of six records a character, shared/storage/bitmap.ts) or, in runs an
// earlier version opened, by their fingerprints. In memory both are lists of keys (keyIn). Pure over the store.
import type { KeyValueStore } from '../ports';
import { readChunkedJson, writeChunked } from '../shared/storage/chunked-store';
import { fingerprint } from '../shared/fingerprint';
import { bitsText, readBits } from '../shared/storage/bitmap';

/** How an open run knows its records: by their place in the launch, or (runs of earlier versions) by fingerprint. */
export interface RunKeying {
  wide: boolean;
  byOrdinal?: boolean;
}

export interface Figures {
  reserved: number;
  charged: number;
  givenBack: number;
  unknown: number;
  /** Absent in runs of earlier versions. */
  lost?: number;
}

/**
 * The open part of a run: its figures so far and its unsettled records' keys (stored as the text of the set of their
 * places in the launch, or in runs of earlier versions as their fingerprints).
 */
export interface OpenRun extends Figures, RunKeying {
  /** Keys of the records not settled yet. */
  records: string[];
  /** Records are known by two fingerprints (one collided when the run was opened). */
  wide: boolean;
}

/** The key a run of an earlier version knows one of its records by. */
export const recordKey = (record: string, wide: boolean) =>
  wide ? `${fingerprint(record)}.${fingerprint(`#${record}`)}` : fingerprint(record);

/** The key of a record by its place in the launch. */
const ordinalKey = (ordinal: number) => `#${ordinal}`;

/** The key an open run knows one of its records by (null: a record of no place in a run that keys by place). */
export function keyIn(run: RunKeying, record: { record: string; ordinal?: number | null }): string | null {
  if (!run.byOrdinal) return recordKey(record.record, run.wide);
  return typeof record.ordinal === 'number' ? ordinalKey(record.ordinal) : null;
}

/** The open part stored under `key`, or null (a run keyed by place keeps its records as a set's text). */
export function readOpen(store: KeyValueStore, key: string): OpenRun | null {
  const parsed = readChunkedJson(store, key) as (Omit<OpenRun, 'records'> & { records: unknown }) | null;
  if (parsed && typeof parsed.records === 'string')
    return { ...parsed, records: [...readBits(parsed.records)].map(ordinalKey), byOrdinal: true };
  return parsed && Array.isArray(parsed.records) ? (parsed as OpenRun) : null;
}

/** Stores the open part under `key`. */
export function writeOpen(store: KeyValueStore, key: string, open: OpenRun): void {
  const records = open.byOrdinal ? bitsText(open.records.map((record) => Number(record.slice(1)))) : open.records;
  writeChunked(store, key, JSON.stringify({ ...open, records }));
}
