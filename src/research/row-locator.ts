// Finds the current row of a ledger record: the row carrying its developer-metadata id, confirmed by the values of
// the brief's columns (the key) being unchanged; when the metadata row does not match (a sort moved values but not
// metadata, or the row was deleted), the one row whose key values match. No unique match -> detached: the result
// stays in the ledger and the report viewer instead of landing on the wrong row. Pure.
import type { RowIdentity } from './ledger';

export interface SheetView {
  headers: string[];
  /** Row id -> row number. */
  rowIds: Map<string, number>;
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

function keyAt(view: SheetView, row: number, columns: number[]): string[] | null {
  // A record without key columns (an imported task) is identified by its row id alone.
  if (columns.length === 0) return row >= 2 ? [] : null;
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
  const tagged = view.rowIds.get(identity.rowId);
  if (tagged !== undefined && sameKey(keyAt(view, tagged, keyColumns), identity.keyValues)) return tagged;
  let found: number | null = null;
  for (let row = 2; row < view.keyRows.length + 2; row++) {
    if (!sameKey(keyAt(view, row, keyColumns), identity.keyValues)) continue;
    if (found !== null) return null;
    found = row;
  }
  return found;
}
