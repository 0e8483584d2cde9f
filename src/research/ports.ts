// The small sheet ports the research logic works through, so it is unit-testable without Apps Script: a data sheet
// (headers, display values, row identity metadata, batched cell writes); the ledger and the report store use the
// shared hidden table port (src/ports.ts, TablePort). adapters/sheets.ts implements the grid over
// SpreadsheetApp.
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
  /** Why the sheet may not be the target of a launch or a watch (the add-in's own, or hidden), or null. */
  targetProblem(sheetId: number): string | null;
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

/** What research needs of the service client (a subset of ServiceClient). */
export interface ResearchClient {
  createTasks(requests: CreateTaskRequest[]): Array<Result<ResearchTask>>;
  getTasks(ids: string[]): Array<Result<ResearchTask>>;
  listTasks(query: ListTasksQuery): Result<ResearchTask[]>;
  /** Several pages of the task list in one fetchAll round. */
  listTaskPages(queries: ListTasksQuery[]): Array<Result<ResearchTask[]>>;
  getUser(): Result<User>;
}
