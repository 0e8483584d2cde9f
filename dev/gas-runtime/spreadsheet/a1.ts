// A1 notation: column letters, cell and range references ("A1", "B2:C9", "A:C", "2:5", "A2:C",
// "'My sheet'!A1:B2"), parsing into 1-based grid coordinates and formatting back.
import { GasError, Msg } from '../errors';

export function columnToLetters(column: number): string {
  let n = column;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export function lettersToColumn(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A rectangle on one sheet, 1-based and inclusive. */
export interface GridRect {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

/** A parsed A1 reference; open ends (whole columns or rows) are resolved against the sheet size. */
export interface A1Reference {
  sheetName?: string;
  startRow?: number;
  startColumn?: number;
  endRow?: number;
  endColumn?: number;
}

const CELL = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/;

/** Splits "'Sheet name'!A1:B2" into sheet name and range part. */
export function splitSheetName(a1: string): { sheetName?: string; range: string } {
  const text = a1.trim();
  const bang = text.lastIndexOf('!');
  if (bang < 0) return { range: text };
  let sheet = text.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'") && sheet.length >= 2) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return { sheetName: sheet, range: text.slice(bang + 1) };
}

/** Parses an A1 reference; throws Google's "Range not found" for anything else. */
export function parseA1(a1: string): A1Reference {
  if (typeof a1 !== 'string' || a1.trim() === '') throw new GasError(Msg.rangeNotFound);
  const { sheetName, range } = splitSheetName(a1);
  const parts = range.split(':');
  if (parts.length > 2 || parts.some((p) => p === '')) throw new GasError(Msg.rangeNotFound);
  const ends = parts.map((part) => {
    const m = CELL.exec(part);
    if (!m || (!m[1] && !m[2])) throw new GasError(Msg.rangeNotFound);
    return { column: m[1] ? lettersToColumn(m[1]) : undefined, row: m[2] ? Number(m[2]) : undefined };
  });
  const [start, end = start] = ends;
  if (parts.length === 1 && (start.column === undefined || start.row === undefined))
    throw new GasError(Msg.rangeNotFound);
  if (start.row === 0 || end.row === 0) throw new GasError(Msg.rangeNotFound);
  // "A:B" needs columns on both ends, "2:5" rows on both ends; "A2:C" is an open-ended column range.
  if ((start.column === undefined) !== (end.column === undefined)) throw new GasError(Msg.rangeNotFound);
  if (start.row === undefined && end.row !== undefined) throw new GasError(Msg.rangeNotFound);
  const ref: A1Reference = { sheetName };
  const rows = [start.row, end.row].filter((r): r is number => r !== undefined);
  const cols = [start.column, end.column].filter((c): c is number => c !== undefined);
  if (rows.length) {
    ref.startRow = Math.min(...rows);
    if (rows.length === 2) ref.endRow = Math.max(...rows);
  }
  if (cols.length) {
    ref.startColumn = Math.min(...cols);
    ref.endColumn = Math.max(...cols);
  }
  return ref;
}

/** Resolves a parsed reference to a rectangle on a sheet of the given size. */
export function resolveA1(ref: A1Reference, maxRows: number, maxColumns: number): GridRect {
  const row = ref.startRow ?? 1;
  const column = ref.startColumn ?? 1;
  const endRow = ref.endRow ?? (ref.startRow !== undefined && ref.startColumn === undefined ? row : maxRows);
  const endColumn = ref.endColumn ?? maxColumns;
  return { row, column, numRows: endRow - row + 1, numColumns: endColumn - column + 1 };
}

export function cellA1(row: number, column: number): string {
  return `${columnToLetters(column)}${row}`;
}

export function rectA1(rect: GridRect): string {
  const start = cellA1(rect.row, rect.column);
  if (rect.numRows === 1 && rect.numColumns === 1) return start;
  return `${start}:${cellA1(rect.row + rect.numRows - 1, rect.column + rect.numColumns - 1)}`;
}

/** Quotes a sheet name for use in A1 notation when needed. */
export function quoteSheetName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}
