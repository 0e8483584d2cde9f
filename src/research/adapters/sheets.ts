// Apps Script adapter of the research grid port: GridPort over the user's sheets (display values, row tags as
// developer metadata, cell writes merged into rectangles). The ledger and report store use HiddenTable.
// Thin on purpose: the logic lives in jobs.ts and is unit-tested over fakes.
import { targetSheetProblem } from '../../shared/storage/internal-sheets';
import type { CellValue } from '../../shared/cell-values';
import { safeText } from '../../shared/cell-values';
import type { CellWrite, GridPort } from '../ports';
import { runs } from '../../platform/sheets/hidden-table';
import { ROW_TAG_KEY } from '../rows/row-tags';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function sheetById(spreadsheet: Spreadsheet, sheetId: number): Sheet | null {
  return spreadsheet.getSheets().find((sheet) => sheet.getSheetId() === sheetId) ?? null;
}

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

/** What one execution read of a sheet (see SheetGrid): each part dropped when the port's own writes change it. */
interface SheetReads {
  extent?: { lastRow: number; lastColumn: number };
  headers?: string[];
  /** Column reads by their columns ("2,5"). */
  columns: Record<string, { columns: number[]; values: string[][] } | undefined>;
  /** Row tags: tag id -> row. */
  tags?: Map<string, number>;
}

export class SheetGrid implements GridPort {
  constructor(private readonly spreadsheet: Spreadsheet) {}

  private sheet(sheetId: number): Sheet {
    const sheet = sheetById(this.spreadsheet, sheetId);
    if (!sheet) throw new Error('The sheet of these rows no longer exists');
    return sheet;
  }

  targetProblem(sheetId: number): string | null {
    const sheet = this.sheet(sheetId);
    return targetSheetProblem({ name: sheet.getName(), hidden: sheet.isSheetHidden() });
  }

  /**
   * What this execution read of each sheet, kept until its own writes change it: the extent (grown by writes), the
   * header row, column reads and row tags. A tick locates its rows and the poll that ran it shows them without
   * reading the sheet again: a read after writes waits for them to be committed (costs.ts in the emulator).
   */
  private readonly reads: Record<number, SheetReads | undefined> = {};

  private readsOf(sheetId: number): SheetReads {
    return (this.reads[sheetId] ??= { columns: {} });
  }

  /** Keeps what was read true after this port writes `cells`: the extent grows, reads of those columns are dropped. */
  private noteWrite(sheetId: number, cells: CellWrite[]): void {
    const reads = this.readsOf(sheetId);
    const extent = reads.extent;
    const written = new Set(cells.map((cell) => cell.column));
    if (extent) {
      extent.lastRow = Math.max(extent.lastRow, ...cells.map((cell) => cell.row));
      extent.lastColumn = Math.max(extent.lastColumn, ...written);
    }
    if (cells.some((cell) => cell.row === 1)) reads.headers = undefined;
    for (const [key, read] of Object.entries(reads.columns))
      if (read?.columns.some((column) => written.has(column))) reads.columns[key] = undefined;
  }

  private extent(sheetId: number, sheet: Sheet): { lastRow: number; lastColumn: number } {
    const reads = this.readsOf(sheetId);
    let extent = reads.extent;
    if (!extent) {
      const data = sheet.getDataRange();
      const empty = data.getNumRows() === 1 && data.getNumColumns() === 1 && data.getValue() === '';
      extent = empty ? { lastRow: 0, lastColumn: 0 } : { lastRow: data.getLastRow(), lastColumn: data.getLastColumn() };
      reads.extent = extent;
    }
    return extent;
  }

  headers(sheetId: number): string[] | null {
    const sheet = sheetById(this.spreadsheet, sheetId);
    if (!sheet) return null;
    const reads = this.readsOf(sheetId);
    if (reads.headers) return reads.headers.slice();
    const width = this.extent(sheetId, sheet).lastColumn;
    const headers = width === 0 ? [] : sheet.getRange(1, 1, 1, width).getDisplayValues()[0];
    reads.headers = headers;
    return headers.slice();
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
    this.reads[sheetId] = { ...this.readsOf(sheetId), extent: undefined, headers: undefined };
    return [...headers, ...missing];
  }

  readColumns(sheetId: number, columns: number[]): string[][] {
    const sheet = this.sheet(sheetId);
    const reads = this.readsOf(sheetId);
    const key = columns.join(',');
    const known = reads.columns[key];
    if (known) return known.values.map((row) => row.slice());
    const last = this.extent(sheetId, sheet).lastRow;
    if (last < 2 || columns.length === 0) return [];
    const first = Math.min(...columns);
    const width = Math.max(...columns) - first + 1;
    const values = sheet.getRange(2, first, last - 1, width).getDisplayValues();
    const picked = values.map((row) => columns.map((column) => row[column - first] ?? ''));
    reads.columns[key] = { columns, values: picked };
    return picked.map((row) => row.slice());
  }

  readRows(sheetId: number, rows: number[]): string[][] {
    const sheet = this.sheet(sheetId);
    const { lastRow, lastColumn: width } = this.extent(sheetId, sheet);
    if (rows.length === 0 || width === 0) return rows.map(() => []);
    const first = Math.min(...rows);
    const last = Math.min(Math.max(...rows), Math.max(lastRow, first));
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
    const reads = this.readsOf(sheetId);
    if (reads.tags) return new Map(reads.tags);
    const ids = new Map<string, number>();
    for (const metadata of this.tags(sheetId)) {
      const value = metadata.getValue();
      const range = metadata.getLocation().getRow();
      if (value && range && !ids.has(value)) ids.set(value, range.getRow());
    }
    reads.tags = ids;
    return new Map(ids);
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
        this.readsOf(sheetId).tags?.set(id, row);
        byRow.set(row, id);
      }
      result.set(row, id);
    }
    return result;
  }

  untagRows(sheetId: number, ids: ReadonlySet<string>): void {
    if (ids.size === 0 || !sheetById(this.spreadsheet, sheetId)) return;
    this.readsOf(sheetId).tags = undefined;
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
    this.noteWrite(sheetId, cells);
    const maxRow = Math.max(...cells.map((cell) => cell.row));
    if (maxRow > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), maxRow - sheet.getMaxRows());
    // The blocks of values and of notes, then each block's runs of rows: values first, one range each.
    const values = blocks(cells, (cell) => cell.value !== undefined);
    const notes = blocks(cells, (cell) => cell.note !== undefined);
    for (const block of values.blocks) {
      for (const run of runs(block.rows)) {
        const grid = run.map((row) =>
          block.columns.map((column) => values.at.get(`${row}:${column}`)?.value as CellValue),
        );
        sheet.getRange(run[0], block.columns[0], run.length, block.columns.length).setValues(grid);
      }
    }
    for (const block of notes.blocks) {
      for (const run of runs(block.rows)) {
        const grid = run.map((row) => block.columns.map((column) => notes.at.get(`${row}:${column}`)?.note ?? ''));
        sheet.getRange(run[0], block.columns[0], run.length, block.columns.length).setNotes(grid);
      }
    }
  }
}
