// The small sheet ports the research logic works through, so it is unit-testable without Apps Script:
// a data sheet (headers, display values, row identity metadata, batched cell writes) and a hidden table (ledger and
// report store rows). src/platform/sheets/research.ts implements them over SpreadsheetApp.
import type { CellValue } from '../shared/cell-values';
import type { CreateTaskRequest, ListTasksQuery, ResearchTask, User } from '../api/types';
import type { Result } from '../api/errors';

/** One cell to write: a value, a note (null clears it), or both. Rows and columns are 1-based. */
export interface CellWrite {
  row: number;
  column: number;
  value?: CellValue;
  note?: string | null;
}

export interface GridPort {
  /** Header row (row 1) of the sheet, or null when the sheet no longer exists. */
  headers(sheetId: number): string[] | null;
  /** Appends the missing headers after the last used column; returns the header row afterwards. */
  ensureHeaders(sheetId: number, wanted: string[]): string[];
  /** Display values of `columns` for rows 2..last row: result[i] is row i + 2, one value per requested column. */
  readColumns(sheetId: number, columns: number[]): string[][];
  /** Display values of whole rows (all columns up to the last used one). */
  readRows(sheetId: number, rows: number[]): string[][];
  /** Row tags (developer metadata) of the sheet: tag id -> current row number. */
  rowIds(sheetId: number): Map<string, number>;
  /** Attaches a tag to each row that has none; returns row number -> tag id for all of `rows`. */
  tagRows(sheetId: number, rows: number[], newId: () => string): Map<number, string>;
  /** Removes the sheet's row tags with these ids. */
  untagRows(sheetId: number, ids: ReadonlySet<string>): void;
  /** Developer-metadata characters (keys and values) in use on the sheet and in the whole spreadsheet. */
  metadataUse(sheetId: number): { sheet: number; spreadsheet: number };
  /** Writes the cells in as few range writes as possible. */
  write(sheetId: number, cells: CellWrite[]): void;
  /** Cells of the whole spreadsheet: every sheet's rows x columns, filled or not (Google allows 10 million). */
  cellsInUse(): number;
}

/** The header row and data rows of a table read. */
export interface TableRead {
  header: unknown[];
  rows: unknown[][];
}

/** A hidden sheet used as a table: data rows below one header row. Data rows are addressed by 0-based index. */
export interface TablePort {
  /** The header row and every data row, whole. */
  readAll(): TableRead;
  /** `count` columns from the 1-based column `first`, of the header row and of every data row (an index read). */
  readColumns(first: number, count: number): TableRead;
  /** The first cell of every data row (an index without reading whole rows). */
  readKeys(): string[];
  /** One data row. */
  readRow(index: number): unknown[];
  /** Whole data rows, in the order asked (read in runs of neighbours). */
  readRows(indices: number[]): unknown[][];
  /** Overwrites data rows (batched into contiguous runs by the adapter). */
  writeRows(rows: Array<{ index: number; values: Array<string | number> }>): void;
  /** Appends data rows at the end. */
  appendRows(rows: Array<Array<string | number>>): void;
  /** Replaces the header row. */
  writeHeader(values: string[]): void;
  /** Deletes data rows; the rows below move up. */
  deleteRows(indices: number[]): void;
  /** Makes the sheet `width` columns wide and no taller than its rows: no empty grid is kept (cells count). */
  fitGrid(width: number): void;
}

/** What research needs of the service client (a subset of ServiceClient). */
export interface ResearchClient {
  createTasks(requests: CreateTaskRequest[]): Array<Result<ResearchTask>>;
  getTasks(ids: string[]): Array<Result<ResearchTask>>;
  listTasks(query: ListTasksQuery): Result<ResearchTask[]>;
  /** Several pages of the task list in one fetchAll round. */
  listTaskPages(queries: ListTasksQuery[]): Array<Result<ResearchTask[]>>;
  getUser(): Result<User>;
}
