// Apps Script adapters of the research sheet ports: GridPort over the user's sheets (display values, row tags as
// developer metadata, cell writes merged into rectangles) and TablePort over a hidden sheet (ledger, report store).
// Thin on purpose: the logic lives in jobs.ts and is unit-tested over fakes.
import type { CellValue } from '../../shared/cell-values';
import { safeText } from '../../shared/cell-values';
import type { CellWrite, GridPort, TablePort, TableRead } from '../../research/ports';
import { ROW_TAG_KEY } from '../../research/row-tags';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function sheetById(spreadsheet: Spreadsheet, sheetId: number): Sheet | null {
  return spreadsheet.getSheets().find((sheet) => sheet.getSheetId() === sheetId) ?? null;
}

/** Splits sorted numbers into runs of values at most `gap` apart (consecutive ones by default). */
function runs(sorted: number[], gap = 1): number[][] {
  const out: number[][] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n - last[last.length - 1] <= gap) last.push(n);
    else out.push([n]);
  }
  return out;
}

/** Wanted hidden-table rows at most this far apart are read in one range. */
const READ_GAP = 8;

interface Block {
  rows: number[];
  columns: number[];
}

/**
 * Groups cells into rectangles: columns that have the same set of rows and sit side by side form one block; each
 * block's consecutive rows form one range. `pick` selects which cells take part (values or notes).
 */
function blocks(
  cells: CellWrite[],
  pick: (cell: CellWrite) => boolean,
): { blocks: Block[]; at: Map<string, CellWrite> } {
  const at = new Map<string, CellWrite>();
  const rowsByColumn = new Map<number, number[]>();
  for (const cell of cells) {
    if (!pick(cell)) continue;
    at.set(`${cell.row}:${cell.column}`, cell);
    rowsByColumn.set(cell.column, [...(rowsByColumn.get(cell.column) ?? []), cell.row]);
  }
  const columns = [...rowsByColumn.keys()].sort((a, b) => a - b);
  const out: Block[] = [];
  let current: { columns: number[]; signature: string; rows: number[] } | null = null;
  for (const column of columns) {
    const rows = [...new Set(rowsByColumn.get(column))].sort((a, b) => a - b);
    const signature = rows.join(',');
    if (current && current.signature === signature && column === current.columns[current.columns.length - 1] + 1) {
      current.columns.push(column);
      continue;
    }
    if (current) out.push({ rows: current.rows, columns: current.columns });
    current = { columns: [column], signature, rows };
  }
  if (current) out.push({ rows: current.rows, columns: current.columns });
  return { blocks: out, at };
}

export class SheetGrid implements GridPort {
  constructor(private readonly spreadsheet: Spreadsheet) {}

  private sheet(sheetId: number): Sheet {
    const sheet = sheetById(this.spreadsheet, sheetId);
    if (!sheet) throw new Error('The sheet of these rows no longer exists');
    return sheet;
  }

  headers(sheetId: number): string[] | null {
    const sheet = sheetById(this.spreadsheet, sheetId);
    if (!sheet) return null;
    const width = sheet.getLastColumn();
    return width === 0 ? [] : sheet.getRange(1, 1, 1, width).getDisplayValues()[0];
  }

  ensureHeaders(sheetId: number, wanted: string[]): string[] {
    const sheet = this.sheet(sheetId);
    const headers = this.headers(sheetId) ?? [];
    const present = new Set(headers.map((header) => header.trim()));
    const missing = [...new Set(wanted.map((name) => name.trim()).filter((name) => name && !present.has(name)))];
    if (missing.length === 0) return headers;
    const start = headers.length + 1;
    const needed = start + missing.length - 1 - sheet.getMaxColumns();
    if (needed > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), needed);
    sheet.getRange(1, start, 1, missing.length).setValues([missing.map((name) => safeText(name))]);
    return [...headers, ...missing];
  }

  readColumns(sheetId: number, columns: number[]): string[][] {
    const sheet = this.sheet(sheetId);
    const last = sheet.getLastRow();
    if (last < 2 || columns.length === 0) return [];
    const first = Math.min(...columns);
    const width = Math.max(...columns) - first + 1;
    const values = sheet.getRange(2, first, last - 1, width).getDisplayValues();
    return values.map((row) => columns.map((column) => row[column - first] ?? ''));
  }

  readRows(sheetId: number, rows: number[]): string[][] {
    const sheet = this.sheet(sheetId);
    const width = sheet.getLastColumn();
    if (rows.length === 0 || width === 0) return rows.map(() => []);
    const first = Math.min(...rows);
    const last = Math.min(Math.max(...rows), Math.max(sheet.getLastRow(), first));
    const values = sheet.getRange(first, 1, last - first + 1, width).getDisplayValues();
    return rows.map((row) => values[row - first] ?? []);
  }

  private tags(sheetId: number): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
    return this.sheet(sheetId)
      .createDeveloperMetadataFinder()
      .withKey(ROW_TAG_KEY)
      .withLocationType(SpreadsheetApp.DeveloperMetadataLocationType.ROW)
      .find();
  }

  rowIds(sheetId: number): Map<string, number> {
    const ids = new Map<string, number>();
    for (const metadata of this.tags(sheetId)) {
      const value = metadata.getValue();
      const range = metadata.getLocation().getRow();
      if (value && range && !ids.has(value)) ids.set(value, range.getRow());
    }
    return ids;
  }

  tagRows(sheetId: number, rows: number[], newId: () => string): Map<number, string> {
    const sheet = this.sheet(sheetId);
    const byRow = new Map<number, string>();
    for (const [id, row] of this.rowIds(sheetId)) if (!byRow.has(row)) byRow.set(row, id);
    const result = new Map<number, string>();
    for (const row of rows) {
      let id = byRow.get(row);
      if (!id) {
        id = newId();
        sheet
          .getRange(`${row}:${row}`)
          .addDeveloperMetadata(ROW_TAG_KEY, id, SpreadsheetApp.DeveloperMetadataVisibility.DOCUMENT);
        byRow.set(row, id);
      }
      result.set(row, id);
    }
    return result;
  }

  untagRows(sheetId: number, ids: ReadonlySet<string>): void {
    if (ids.size === 0 || !sheetById(this.spreadsheet, sheetId)) return;
    for (const metadata of this.tags(sheetId)) if (ids.has(metadata.getValue() ?? '')) metadata.remove();
  }

  metadataUse(sheetId: number): { sheet: number; spreadsheet: number } {
    const size = (found: GoogleAppsScript.Spreadsheet.DeveloperMetadata[]) =>
      found.reduce((sum, metadata) => sum + metadata.getKey().length + (metadata.getValue() ?? '').length, 0);
    return {
      sheet: size(this.sheet(sheetId).createDeveloperMetadataFinder().find()),
      spreadsheet: size(this.spreadsheet.createDeveloperMetadataFinder().find()),
    };
  }

  cellsInUse(): number {
    return this.spreadsheet.getSheets().reduce((sum, sheet) => sum + sheet.getMaxRows() * sheet.getMaxColumns(), 0);
  }

  write(sheetId: number, cells: CellWrite[]): void {
    if (cells.length === 0) return;
    const sheet = this.sheet(sheetId);
    const maxRow = Math.max(...cells.map((cell) => cell.row));
    if (maxRow > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), maxRow - sheet.getMaxRows());
    const values = blocks(cells, (cell) => cell.value !== undefined);
    for (const block of values.blocks) {
      for (const run of runs(block.rows)) {
        const grid = run.map((row) =>
          block.columns.map((column) => values.at.get(`${row}:${column}`)?.value as CellValue),
        );
        sheet.getRange(run[0], block.columns[0], run.length, block.columns.length).setValues(grid);
      }
    }
    const notes = blocks(cells, (cell) => cell.note !== undefined);
    for (const block of notes.blocks) {
      for (const run of runs(block.rows)) {
        const grid = run.map((row) => block.columns.map((column) => notes.at.get(`${row}:${column}`)?.note ?? ''));
        sheet.getRange(run[0], block.columns[0], run.length, block.columns.length).setNotes(grid);
      }
    }
  }
}

/** A hidden sheet used as a table (created with its header row on first use). */
export class HiddenTable implements TablePort {
  private sheetRef: Sheet | null = null;

  constructor(
    private readonly spreadsheet: Spreadsheet,
    private readonly name: string,
    private readonly headers: string[],
  ) {}

  private sheet(): Sheet {
    if (this.sheetRef) return this.sheetRef;
    let sheet = this.spreadsheet.getSheetByName(this.name);
    if (!sheet) {
      // insertSheet activates the new sheet: give the user their sheet back.
      const active = this.spreadsheet.getActiveSheet();
      sheet = this.spreadsheet.insertSheet(this.name, this.spreadsheet.getSheets().length);
      sheet.getRange(1, 1, 1, this.headers.length).setValues([this.headers]);
      sheet.hideSheet();
      if (active) this.spreadsheet.setActiveSheet(active);
      // Google makes it 1,000 x 26: keep only the header row's cells (every cell counts toward the 10 million).
      HiddenTable.trim(sheet, this.headers.length);
    }
    this.sheetRef = sheet;
    return sheet;
  }

  /** Shrinks a sheet to `width` columns and to its last row with content. */
  private static trim(sheet: Sheet, width: number): void {
    const columns = sheet.getMaxColumns();
    if (columns > width) sheet.deleteColumns(width + 1, columns - width);
    const rows = Math.max(sheet.getLastRow(), 1);
    if (sheet.getMaxRows() > rows) sheet.deleteRows(rows + 1, sheet.getMaxRows() - rows);
  }

  /** Whether the table's sheet exists (without creating it). */
  exists(): boolean {
    return this.sheetRef !== null || this.spreadsheet.getSheetByName(this.name) !== null;
  }

  /** The header and data rows of `count` columns from `first` (every column with content when `count` is null). */
  private read(first: number, count: number | null): TableRead {
    if (!this.exists()) return { header: [], rows: [] };
    const sheet = this.sheet();
    const last = sheet.getLastRow();
    const columns = Math.min(count ?? Infinity, sheet.getLastColumn() - first + 1);
    if (last < 1 || columns < 1) return { header: [], rows: [] };
    const values = sheet.getRange(1, first, last, columns).getValues();
    return { header: values[0], rows: values.slice(1) };
  }

  readAll(): TableRead {
    return this.read(1, null);
  }

  readColumns(first: number, count: number): TableRead {
    return this.read(first, count);
  }

  readKeys(): string[] {
    if (!this.exists()) return [];
    const sheet = this.sheet();
    const last = sheet.getLastRow();
    if (last < 2) return [];
    return sheet
      .getRange(2, 1, last - 1, 1)
      .getValues()
      .map((row) => String(row[0] ?? ''));
  }

  readRow(index: number): unknown[] {
    return this.readRows([index])[0];
  }

  readRows(indices: number[]): unknown[][] {
    if (indices.length === 0 || !this.exists()) return indices.map(() => []);
    const sheet = this.sheet();
    const width = sheet.getLastColumn();
    const lastIndex = sheet.getLastRow() - 2;
    const wanted = [...new Set(indices)].filter((index) => index >= 0 && index <= lastIndex).sort((a, b) => a - b);
    const byIndex = new Map<number, unknown[]>();
    if (width > 0) {
      // Rows a few apart are read in one range: a read costs more than the cells between them.
      for (const run of runs(wanted, READ_GAP)) {
        const first = run[0];
        const values = sheet.getRange(first + 2, 1, run[run.length - 1] - first + 1, width).getValues();
        for (const index of run) byIndex.set(index, values[index - first]);
      }
    }
    return indices.map((index) => byIndex.get(index) ?? []);
  }

  writeHeader(values: string[]): void {
    this.sheet()
      .getRange(1, 1, 1, values.length)
      .setValues([values.map(HiddenTable.cell)]);
  }

  deleteRows(indices: number[]): void {
    if (indices.length === 0 || !this.exists()) return;
    const sheet = this.sheet();
    // From the bottom up, so the indices of the rows still to delete do not move.
    for (const run of runs([...new Set(indices)].sort((a, b) => a - b)).reverse())
      sheet.deleteRows(run[0] + 2, run.length);
  }

  fitGrid(width: number): void {
    if (this.exists()) HiddenTable.trim(this.sheet(), Math.max(width, this.headers.length));
  }

  private fit(sheet: Sheet, lastRow: number, width: number): void {
    if (lastRow > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), lastRow - sheet.getMaxRows());
    if (width > sheet.getMaxColumns()) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  }

  private static cell(value: string | number): string | number {
    return typeof value === 'string' ? safeText(value) : value;
  }

  writeRows(rows: Array<{ index: number; values: Array<string | number> }>): void {
    if (rows.length === 0) return;
    const sheet = this.sheet();
    const byIndex = new Map(rows.map((row) => [row.index, row.values]));
    for (const run of runs([...byIndex.keys()].sort((a, b) => a - b))) {
      const width = Math.max(...run.map((index) => byIndex.get(index)!.length), sheet.getLastColumn());
      this.fit(sheet, run[run.length - 1] + 2, width);
      const grid = run.map((index) => {
        const values = byIndex.get(index)!.map(HiddenTable.cell);
        return [...values, ...new Array<string>(width - values.length).fill('')];
      });
      sheet.getRange(run[0] + 2, 1, run.length, width).setValues(grid);
    }
  }

  appendRows(rows: Array<Array<string | number>>): void {
    if (rows.length === 0) return;
    const sheet = this.sheet();
    const start = Math.max(sheet.getLastRow(), 1) + 1;
    const width = Math.max(...rows.map((row) => row.length));
    this.fit(sheet, start + rows.length - 1, width);
    const grid = rows.map((row) => [...row.map(HiddenTable.cell), ...new Array<string>(width - row.length).fill('')]);
    sheet.getRange(start, 1, rows.length, width).setValues(grid);
  }
}
