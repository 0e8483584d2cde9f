// The document's bulky records (the Tables mappings, history and push markers, the account watches, the lists of
// "Keep enriching new rows", the Research panel's settings) in a hidden sheet, not in its one 500 KB store of
// DocumentProperties, which the small values every feature needs (the formula token, the spending cap, the request
// counters, the job's state) share: one row per record (key, part count, then the value in parts that each fit a
// cell), read whole once per execution (there are few records, each written by one save). The table is sealed
// (sealed-table.ts: a row changed outside the add-in is not read), and the document's properties keep a fingerprint
// of each record's current value (a few bytes a record), so an older sealed copy of a record put back is not read
// either: a record reads as the add-in last wrote it, or as absent (`changedOutside` names it). Writers hold the
// document lock, whose taking drops what was read (`forget`). Records an older version kept in DocumentProperties are
// read from there until their next save moves them (readRecord / writeRecord). Pure over a TablePort.
import type { KeyValueStore, TablePort } from '../../ports';
import { fingerprint } from '../fingerprint';
import { readChunked, removeChunked } from './chunked-store';
import { joinText, splitText } from './text-parts';

export { RECORDS_SHEET } from './internal-sheets';

export const RECORDS_HEADERS = ['key', 'parts', 'value'];
/** Where the document's properties keep the fingerprint of each record's current value (key -> fingerprint). */
export const RECORD_VALUES_KEY = 'sheetscout.records.current';

/** The records sheet as features see it: a KeyValueStore that also names the records changed outside the add-in. */
export interface RecordStore extends KeyValueStore {
  /** The records whose row was changed, put back from an older copy or deleted outside Sheet Scout (read as absent). */
  changedOutside(): string[];
}

/** KeyValueStore over the records sheet; `forget` drops what this execution read of it. */
export class SheetRecordStore implements RecordStore {
  /** Key -> 0-based data row and value, read on first use (records read as the add-in last wrote them). */
  private known: Map<string, { index: number; value: string }> | null = null;
  /** Keys whose row was changed outside the add-in, put back from an older copy, or deleted, at the last load. */
  private changed: string[] = [];
  /** Rows not read (changed outside the add-in, or older copies) by the key they claim: a write reuses them. */
  private unread = new Map<string, number>();
  private rowCount = 0;

  /** `properties`: the document's, where each record's current fingerprint is kept. */
  constructor(
    private readonly table: TablePort,
    private readonly properties: KeyValueStore,
  ) {}

  /**
   * Key -> fingerprint of the value the add-in last wrote; null before the first write of this version. `fresh`: as
   * stored now (another execution may have written a record since this one first read the properties).
   */
  private current(fresh = false): Record<string, string> | null {
    try {
      const text = fresh ? this.properties.fresh(RECORD_VALUES_KEY) : this.properties.get(RECORD_VALUES_KEY);
      const parsed = JSON.parse(text ?? 'null') as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : null;
    } catch {
      return null;
    }
  }

  private load(): Map<string, { index: number; value: string }> {
    if (this.known) return this.known;
    const { rows } = this.table.readAll();
    let current = this.current();
    const matches = (key: string, value: string) => !current || current[key] === fingerprint(value);
    const recordOf = (row: unknown[]) => ({
      key: String(row[0] ?? ''),
      value: joinText(row.slice(2, 2 + Number(row[1]))),
    });
    if (rows.some((row) => row.length > 0 && !matches(recordOf(row).key, recordOf(row).value)))
      current = this.current(true);
    this.rowCount = rows.length;
    this.known = new Map();
    const refused = this.table.refused().map(({ index, cells }) => [String(cells[0] ?? ''), index] as const);
    this.unread = new Map(refused);
    rows.forEach((row, index) => {
      const key = String(row[0] ?? '');
      const count = Number(row[1]);
      if (key === '' || !Number.isInteger(count) || count < 1) return;
      const value = joinText(row.slice(2, 2 + count));
      // Read as the add-in last wrote it: an older copy put back (or a record removed since) is not.
      if (current && current[key] !== fingerprint(value)) this.unread.set(key, index);
      else this.known!.set(key, { index, value });
    });
    this.unread.delete('');
    const lost = [...refused.map(([key]) => key), ...Object.keys(current ?? {})];
    this.changed = [...new Set(lost)].filter((key) => key !== '' && !this.known!.has(key));
    return this.known;
  }

  /** The records whose row was changed, put back or deleted outside the add-in (read as absent). */
  changedOutside(): string[] {
    this.load();
    return this.changed.slice();
  }

  /** Keeps the fingerprints of the records' current values (every record read so far counts as current). */
  private noteCurrent(change: (current: Record<string, string>) => void): void {
    const known = this.load();
    const current =
      this.current() ?? Object.fromEntries([...known].map(([key, { value }]) => [key, fingerprint(value)]));
    change(current);
    this.properties.set(RECORD_VALUES_KEY, JSON.stringify(current));
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
    // The fingerprint first: a write cut short in between leaves the record read as changed, never an older value.
    this.noteCurrent((current) => {
      current[key] = fingerprint(value);
    });
    const at = existing?.index ?? this.unread.get(key);
    if (at !== undefined) this.table.writeRows([{ index: at, values }]);
    else this.table.appendRows([values]);
    known.set(key, { index: at ?? this.rowCount++, value });
    this.unread.delete(key);
    this.changed = this.changed.filter((changed) => changed !== key);
  }

  setAll(values: Record<string, string>): void {
    for (const [key, value] of Object.entries(values)) this.set(key, value);
  }

  remove(key: string): void {
    const known = this.load();
    const at = known.get(key)?.index ?? this.unread.get(key);
    if (at === undefined && !this.changed.includes(key)) return;
    this.noteCurrent((current) => {
      delete current[key];
    });
    this.changed = this.changed.filter((changed) => changed !== key);
    if (at === undefined) return;
    this.table.deleteRows([at]);
    known.delete(key);
    this.unread.delete(key);
    this.rowCount--;
    for (const entry of known.values()) if (entry.index > at) entry.index--;
    for (const [other, index] of this.unread) if (index > at) this.unread.set(other, index - 1);
  }

  forget(): void {
    this.known = null;
  }
}

/** Where a feature's records live now (the records sheet) and where an older version kept them. */
export interface RecordStores {
  records: RecordStore;
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
