// The document's bulky records (the Tables mappings, history and push markers, the account watches, the lists of
// "Keep enriching new rows", the Research panel's settings) in a hidden sheet, not in its one 500 KB store of
// DocumentProperties, which the small values every feature needs (the formula token, the spending cap, the request
// counters, the job's state) share: one row per record (key, part count, the value in parts that each fit a cell, then
// the number of the commit that wrote it), read whole once per execution (there are few records, each written by one
// save). The table is sealed (sealed-table.ts: a row changed outside the add-in is not read), and the document's
// properties keep a fingerprint of each record's current value (a few bytes a record), so an older sealed copy of a
// record put back is not read either: a record reads as the add-in last wrote it, or as absent (`changedOutside`
// names it). Writers hold the document lock, whose taking drops what was read (`forget`).
//
// A write is a commit with no window in which an execution cut short (Apps Script's 6 minutes) leaves a record read
// as changed: the properties also name the commit to come (`next`), the rows are written carrying that number, and one
// write of the properties then makes their fingerprints current and names the next commit. A row carrying the number
// the properties name is the commit in flight (or one cut short), sealed, so the add-in wrote it: it reads as written,
// by readers during the commit too. Only that commit can carry the number, so once it lands every copy of an older row
// fails both tests; what a commit cut short leaves readable is each of its records as before or as after it (the row
// it was replacing, were it put back, is the "before"). The next writer, holding the lock and having read the rows,
// takes a number of its own first when it finds the last one used (one more properties write, only after a cut), and
// its commit makes current what it read. A removal needs no number: the properties drop the record first, so a cut
// before its row is deleted leaves that row read as absent, which is what the removal meant. Why not a fingerprint
// entry holding the old and new values while the row is written, settled after: that is two properties writes a commit
// (a write is 62 ms modelled plus its bytes, dev/gas-runtime/costs.ts), where a commit here costs one, as before, and
// the first write of a document an earlier version kept (no commit number yet) one more, once. Records an older version
// kept in DocumentProperties are read from there until their next save moves them (readRecord / writeRecord). Pure
// over a TablePort.
import type { KeyValueStore, TablePort } from '../../ports';
import { fingerprint } from '../fingerprint';
import { readChunked, removeChunked } from './chunked-store';
import { joinText, splitText } from './text-parts';

export { RECORDS_SHEET } from './internal-sheets';

export const RECORDS_HEADERS = ['key', 'parts', 'value'];
/** Where the document's properties keep the fingerprint of each record's current value and the commit to come. */
export const RECORD_VALUES_KEY = 'sheetscout.records.current';

/** The records sheet as features see it: a KeyValueStore that also names the records changed outside the add-in. */
export interface RecordStore extends KeyValueStore {
  /** The records whose row was changed, put back from an older copy or deleted outside Sheet Scout (read as absent). */
  changedOutside(): string[];
}

/**
 * What the properties keep: key -> fingerprint of the value the add-in last committed, and under the empty key (no
 * record has it: a row keyed '' is none) the number the next commit's rows carry, as text (none in a document an
 * earlier version wrote: no row is read by its number then).
 */
type Seals = Record<string, string>;
const NEXT = '';

/** A record as read: its value and the value's fingerprint. */
interface Kept {
  value: string;
  print: string;
  /** The number of the commit that wrote its row (0: none). */
  commit?: number;
}

/** A row of the sheet as a record: its key, value, fingerprint and commit number. */
function recordOf(row: readonly unknown[]): (Kept & { key: string }) | null {
  const key = String(row[0] ?? '');
  const count = Number(row[1]);
  if (key === '' || !Number.isInteger(count) || count < 1) return null;
  const value = joinText(row.slice(2, 2 + count));
  return { key, value, print: fingerprint(value), commit: Number(row[2 + count]) || 0 };
}

/** KeyValueStore over the records sheet; `forget` drops what this execution read of it. */
export class SheetRecordStore implements RecordStore {
  /** Key -> 0-based data row and value, read on first use (records read as the add-in last wrote them). */
  private known: Map<string, Kept & { index: number }> | null = null;
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
   * The seals; null before the first write of a version that kept them. `fresh`: as stored now (another execution
   * may have committed since this one first read the properties).
   */
  private seals(fresh = false): Seals | null {
    try {
      const text = fresh ? this.properties.fresh(RECORD_VALUES_KEY) : this.properties.get(RECORD_VALUES_KEY);
      const parsed = JSON.parse(text ?? 'null') as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Seals) : null;
    } catch {
      return null;
    }
  }

  private load(): Map<string, Kept & { index: number }> {
    if (this.known) return this.known;
    const { rows } = this.table.readAll();
    const records = rows.map(recordOf);
    let seals = this.seals();
    // The commit in flight's rows (or a cut one's), then those as the add-in last committed them: an older copy is not.
    const current = ({ key, print, commit }: Kept & { key: string }) =>
      !seals || commit === Number(seals[NEXT]) || seals[key] === print;
    if (records.some((record) => record && !current(record))) seals = this.seals(true);
    this.rowCount = rows.length;
    this.known = new Map();
    this.unread = new Map(this.table.refused().map(({ index, cells }) => [String(cells[0] ?? ''), index]));
    const lost = [...this.unread.keys(), ...Object.keys(seals ?? {})];
    records.forEach((record, index) => {
      if (record && current(record)) this.known!.set(record.key, { ...record, index });
      else if (record) this.unread.set(record.key, index);
    });
    this.unread.delete('');
    this.changed = [...new Set(lost)].filter((key) => key !== '' && !this.known!.has(key));
    return this.known;
  }

  /** The records whose row was changed, put back or deleted outside the add-in (read as absent). */
  changedOutside(): string[] {
    this.load();
    return this.changed.slice();
  }

  /**
   * Commits (one properties write): every record read counts as current (a cut commit this writer read lands with
   * its own), `removed` does not, and `next` names the next commit's number.
   */
  private commit(next: number, removed = NEXT): void {
    const seals = { ...this.seals() };
    for (const [key, { print }] of this.load()) seals[key] = print;
    delete seals[removed];
    this.properties.set(RECORD_VALUES_KEY, JSON.stringify({ ...seals, [NEXT]: String(next) }));
  }

  get(key: string): string | null {
    return this.load().get(key)?.value ?? null;
  }

  fresh(key: string): string | null {
    this.forget();
    return this.get(key);
  }

  set(key: string, value: string): void {
    this.setAll({ [key]: value });
  }

  /**
   * Writes the rows of the records that changed, carrying the number the properties name (a new one first, when a
   * row read carries it or they name none), then commits them.
   */
  setAll(values: Record<string, string>): void {
    const known = this.load();
    const changes = Object.entries(values).filter(([key, value]) => known.get(key)?.value !== value);
    if (changes.length === 0) return;
    // 0: the seals name none, or there are none yet (every row is read then).
    const seals = this.seals();
    let number = Number(seals?.[NEXT] ?? 0);
    const used = [...known.values()].some((record) => record.commit === number);
    if (seals && (!number || used)) this.commit(++number);
    const rows = changes.map(([key, value]) => {
      const parts = splitText(value);
      const index = known.get(key)?.index ?? this.unread.get(key);
      return { key, value, index, values: [key, parts.length, ...parts, number] };
    });
    this.table.writeRows(rows.filter((row): row is typeof row & { index: number } => row.index !== undefined));
    this.table.appendRows(rows.filter((row) => row.index === undefined).map((row) => row.values));
    for (const { key, value, index } of rows) {
      known.set(key, { index: index ?? this.rowCount++, value, print: fingerprint(value) });
      this.unread.delete(key);
    }
    this.commit(number + 1);
    this.changed = this.changed.filter((key) => values[key] === undefined);
  }

  /** Drops the record from the properties first (its row then reads as absent), then deletes its row. */
  remove(key: string): void {
    const known = this.load();
    const at = known.get(key)?.index ?? this.unread.get(key);
    if (at === undefined && !this.changed.includes(key)) return;
    known.delete(key);
    this.commit(Number(this.seals()?.[NEXT] ?? 0) + 1, key);
    this.changed = this.changed.filter((changed) => changed !== key);
    if (at === undefined) return;
    this.table.deleteRows([at]);
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
