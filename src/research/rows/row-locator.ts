// Finds the current rows of a ledger record. A record is one question, identified by the values of the brief's columns
// at launch (its key): the rows holding that key ask it, so sorting, inserting or deleting rows never misdirects a
// result, and every row of a contact list that names the same company gets the one task's result. Where rows outside
// the launch held the key too, the launched rows were tagged with short developer-metadata ids (row-tags.ts) and the
// tagged rows are used while they still hold the key; a row tagged for another record with the same key is never
// taken by a key match. No trustworthy row -> none (detached): the result stays in the ledger and the report viewer
// instead of landing on a wrong row. Pure.
import { identityTags, type RowIdentity } from '../records/ledger';

export interface SheetView {
  headers: string[];
  /** Row tag id -> row number. */
  rowIds: Map<string, number>;
  /** Row tag id -> keyString of the record that owns the tag (records that still need their row). */
  tagOwners: Map<string, string>;
  /** Key values by row: keyRows[i] holds the values of `keyColumns` for row i + 2. */
  keyRows: string[][];
  /** The columns keyRows holds, in that order (1-based). */
  keyColumns: number[];
}

/** Column of a key header: a header name, or `#<n>` for a column that had no header at launch. */
export function keyColumn(headers: readonly string[], keyHeader: string): number | null {
  const byNumber = /^#(\d+)$/.exec(keyHeader);
  if (byNumber) return Number(byNumber[1]);
  const index = headers.findIndex((header) => header.trim() === keyHeader.trim());
  return index >= 0 ? index + 1 : null;
}

/** The key header recorded for a column: its header text, or `#<n>` when blank. */
export function keyHeaderOf(headers: readonly string[], column: number): string {
  const header = (headers[column - 1] ?? '').trim();
  return header || `#${column}`;
}

function normalize(value: string): string {
  return value.trim();
}

/** One string per key (values joined by a separator no cell text contains), for counting and comparing keys. */
export function keyString(values: readonly string[]): string {
  return values.map(normalize).join('\u0000');
}

function keyAt(view: SheetView, row: number, columns: number[]): string[] | null {
  // A record without key columns (an imported task) is identified by its row tag alone.
  if (columns.length === 0) return null;
  const values = view.keyRows[row - 2];
  if (!values) return null;
  return columns.map((column) => {
    const at = view.keyColumns.indexOf(column);
    return at >= 0 ? normalize(values[at] ?? '') : '';
  });
}

function sameKey(a: string[] | null, b: string[]): boolean {
  return a !== null && a.length === b.length && a.every((value, i) => value === normalize(b[i]));
}

/** The rows the record's result belongs in now, ascending; none when no row can be trusted with it. */
export function locateRows(identity: RowIdentity, view: SheetView): number[] {
  const columns = identity.keyHeaders.map((header) => keyColumn(view.headers, header));
  if (columns.some((column) => column === null)) return [];
  const keyColumns = columns as number[];
  const keys = [identity.keyValues, ...(identity.groupKeys ?? [])];
  const holdsKey = (row: number) =>
    keyColumns.length === 0 || keys.some((key) => sameKey(keyAt(view, row, keyColumns), key));
  const tags = identityTags(identity);
  const tagged = tags.flatMap((tag) => {
    const row = view.rowIds.get(tag);
    return row !== undefined && holdsKey(row) ? [row] : [];
  });
  if (tagged.length > 0) return [...new Set(tagged)].sort((a, b) => a - b);
  if (keyColumns.length === 0) return [];
  const owned = new Set(keys.map((key) => keyString(key)));
  // Rows tagged for another record that asks the same question: never taken by a key match.
  const othersRows = new Set(
    [...view.rowIds]
      .filter(([tag]) => !tags.includes(tag) && owned.has(view.tagOwners.get(tag) ?? '\u0001'))
      .map(([, row]) => row),
  );
  const found: number[] = [];
  for (let row = 2; row < view.keyRows.length + 2; row++) if (!othersRows.has(row) && holdsKey(row)) found.push(row);
  // Tagged rows that lost their tag: their key tells them apart only when one row holds it (others did at launch).
  return tags.length > 0 && found.length > 1 ? [] : found;
}
