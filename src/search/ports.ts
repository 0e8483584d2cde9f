// The spreadsheet operations the search feature needs, as a small port: adapters/sheets.ts implements it
// over SpreadsheetApp, unit tests over an in-memory grid. Rows and columns are 1-based like Apps Script's.
import type { CellValue } from '../shared/cell-values';

export interface SheetRef {
  id: number;
  name: string;
}

export interface SelectedRange {
  sheet: SheetRef;
  /** A1 notation of the range ("A2:A21"). */
  a1: string;
  /** 1-based row of its top edge. */
  row: number;
  values: unknown[][];
}

export interface SearchSheetPort {
  listSheets(): SheetRef[];
  activeSheet(): SheetRef;
  /** The value of the active cell (top-left of the selection), or null when nothing is selected. */
  activeCellValue(): unknown;
  /** The values of the selected range, row by row, with where it is; null when nothing is selected. */
  selection(): SelectedRange | null;
  /** Every value of a sheet's data range in one read (empty array for an empty sheet). */
  readAll(sheetId: number): unknown[][];
  /** Creates a sheet with that exact (unused) name at the end and returns it. */
  insertSheet(name: string): SheetRef;
  /** One rectangular write of values starting at (row, column). */
  writeValues(sheetId: number, row: number, column: number, values: CellValue[][]): void;
  getNote(sheetId: number, row: number, column: number): string;
  setNote(sheetId: number, row: number, column: number, note: string): void;
  /** Freezes the first row and makes it bold. */
  styleHeader(sheetId: number, columns: number): void;
  activate(sheetId: number): void;
}
