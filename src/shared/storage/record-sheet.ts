// The document's bulky records (the Tables mappings, history and push markers) in a hidden sheet, not in its one
// 500 KB store of DocumentProperties, which the small values every feature needs (the formula token, the spending
// cap, the request counters, the job's state) share: one row per record (key, part count, then the value in parts
// that each fit a cell), read whole once per execution (there are few records, each written by one save). Writers
// hold the document lock, whose taking drops what was read (`forget`). Records an older version kept in
// DocumentProperties are read from there until their next save moves them (readRecord / writeRecord). Pure over a
// TablePort.
import type { KeyValueStore, TablePort } from '../../ports';
import { readChunked, removeChunked } from './chunked-store';
import { joinText, splitText } from './text-parts';

export { RECORDS_SHEET } from './internal-sheets';

export const RECORDS_HEADERS = ['key', 'parts', 'value'];

/** KeyValueStore over the records sheet; `forget` drops what this execution read of it. */
export class SheetRecordStore implements KeyValueStore {
  /** Key -> 0-based data row and value, read on first use. */
  private known: Map<string, { index: number; value: string }> | null = null;
  private rowCount = 0;

  constructor(private readonly table: TablePort) {}

  private load(): Map<string, { index: number; value: string }> {
    if (this.known) return this.known;
    const { rows } = this.table.readAll();
    this.rowCount = rows.length;
    this.known = new Map();
    rows.forEach((row, index) => {
      const key = String(row[0] ?? '');
      const count = Number(row[1]);
      if (key !== '' && Number.isInteger(count) && count >= 1)
        this.known!.set(key, { index, value: joinText(row.slice(2, 2 + count)) });
    });
    return this.known;
  }

  get(key: string): string | null {
    return this.load().get(key)?.value ?? null;
  }

  fresh(key: string): string | null {
    this.forget();
    return this.get(key);
  }

  set(key: string, value: string): void {
    const known = this.load();
    const existing = known.get(key);
    if (existing?.value === value) return;
    const parts = splitText(value);
    const values: Array<string | number> = [key, parts.length, ...parts];
    if (existing) this.table.writeRows([{ index: existing.index, values }]);
    else this.table.appendRows([values]);
    known.set(key, { index: existing?.index ?? this.rowCount++, value });
  }

  setAll(values: Record<string, string>): void {
    for (const [key, value] of Object.entries(values)) this.set(key, value);
  }

  remove(key: string): void {
    const known = this.load();
    const existing = known.get(key);
    if (!existing) return;
    this.table.deleteRows([existing.index]);
    known.delete(key);
    this.rowCount--;
    for (const entry of known.values()) if (entry.index > existing.index) entry.index--;
  }

  forget(): void {
    this.known = null;
  }
}

/** Where a feature's records live now (the records sheet) and where an older version kept them. */
export interface RecordStores {
  records: KeyValueStore;
  /** DocumentProperties: chunked documents (src/shared/storage/chunked-store.ts) or plain values, by the record's name. */
  properties: KeyValueStore;
}

/** How an older version kept the record in DocumentProperties. */
export type LegacyForm = 'chunked' | 'plain';

function readLegacy(stores: RecordStores, name: string, form: LegacyForm): string | null {
  return form === 'chunked' ? readChunked(stores.properties, name) : stores.properties.get(name);
}

function removeLegacy(stores: RecordStores, name: string, form: LegacyForm): void {
  if (form === 'chunked') removeChunked(stores.properties, name);
  else if (stores.properties.get(name) !== null) stores.properties.remove(name);
}

/** The record's text: from the records sheet, else where an older version left it; null when there is none. */
export function readRecord(stores: RecordStores, name: string, form: LegacyForm): string | null {
  return stores.records.get(name) ?? readLegacy(stores, name, form);
}

/** Writes the record to the records sheet, then removes an older version's copy from DocumentProperties. */
export function writeRecord(stores: RecordStores, name: string, form: LegacyForm, textValue: string): void {
  stores.records.set(name, textValue);
  removeLegacy(stores, name, form);
}

/** Removes the record wherever it is kept. */
export function removeRecord(stores: RecordStores, name: string, form: LegacyForm): void {
  stores.records.remove(name);
  removeLegacy(stores, name, form);
}
