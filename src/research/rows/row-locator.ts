// Finds the current row of a ledger record. A record is identified by the values of the brief's columns at launch
// (its key): the one row holding that key is its row, so sorting, inserting or deleting rows never misdirects a
// result. Rows whose key another row shares were tagged at launch with a short developer-metadata id (row-tags.ts),
// and the tagged row is used while it still holds the key; a row tagged for another record with the same key is never
// taken by a key match. No trustworthy row -> null (detached): the result stays in the ledger and the report viewer instead of
// landing on the wrong row. Pure.
import type { RowIdentity } from '../records/ledger';

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

/** The row the record's result belongs in now, or null when no row can be trusted with it. */
export function locateRow(identity: RowIdentity, view: SheetView): number | null {
  const columns = identity.keyHeaders.map((header) => keyColumn(view.headers, header));
  if (columns.some((column) => column === null)) return null;
  const keyColumns = columns as number[];
  const tagged = identity.rowId ? view.rowIds.get(identity.rowId) : undefined;
  if (tagged !== undefined && (keyColumns.length === 0 || sameKey(keyAt(view, tagged, keyColumns), identity.keyValues)))
    return tagged;
  if (keyColumns.length === 0) return null;
  const key = keyString(identity.keyValues);
  const othersRows = new Set<number>();
  for (const [tag, row] of view.rowIds)
    if (tag !== identity.rowId && view.tagOwners.get(tag) === key) othersRows.add(row);
  let found: number | null = null;
  for (let row = 2; row < view.keyRows.length + 2; row++) {
    if (othersRows.has(row) || !sameKey(keyAt(view, row, keyColumns), identity.keyValues)) continue;
    if (found !== null) return null;
    found = row;
  }
  return found;
}
