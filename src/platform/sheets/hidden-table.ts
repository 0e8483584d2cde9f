// The grid of a hidden sheet of the spreadsheet (TableStorage: created with its header row on first use, cut to its
// table): the add-in's own storage in the document, too large or too many for its 500 KB of properties (the research
// ledger and report store, the records sheet, the enrichment dates, the refresh changes, the digest's outbox). Every
// store reaches it through a sealed table (src/shared/storage/sealed-table.ts, made by appContext().hiddenTable), and
// an earlier version's table is sealed here as it is (sealLegacyTable). Reads and writes go in runs of neighbouring rows. The table's extent (last row
// and column with content) is read once and then kept up to date by its own writes: asking Sheets for it is a read,
// and a read after a write makes Sheets commit the write first (slow: Google's best practices), which a loop of
// write-then-extent would do every round. Its writers hold the document lock, so no other execution moves it.
// A sheet is made hidden, and the user's sheet given back (insertSheet activates the new one), before anything else is
// written to it; until then a note in the document's properties names both, so that an execution cut short in between
// (the six-minute limit) leaves a note the next one heals (healSheetMaking): no internal sheet is ever left shown.
import type { KeyValueStore, TableRead, TableStorage } from '../../ports';
import { safeText } from '../../shared/cell-values';
import { SEAL_HEADER } from '../../shared/storage/seal';
import { DOCUMENT_STORE_FULL_MESSAGE } from '../properties-store';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Splits sorted numbers into runs of values at most `gap` apart (consecutive ones by default). */
export function runs(sorted: number[], gap = 1): number[][] {
  const out: number[][] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n - last[last.length - 1] <= gap) last.push(n);
    else out.push([n]);
  }
  return out;
}

/** The document's note of a hidden sheet being made: its name and the sheet that was active (see the file's header). */
const MAKING_KEY = 'sheetscout.makingSheet';

/**
 * Finishes the making of a hidden sheet that an execution cut short (its note left in `notes`): the sheet hidden, and
 * the sheet that was active given back if the new one is still active.
 */
export function healSheetMaking(notes: KeyValueStore, spreadsheet: Spreadsheet): void {
  const note = notes.get(MAKING_KEY);
  if (note === null) return;
  const [name, active] = JSON.parse(note) as [string, string?];
  const sheet = spreadsheet.getSheetByName(name);
  const back = active ? spreadsheet.getSheetByName(active) : null;
  if (sheet && back && spreadsheet.getActiveSheet().getName() === name) spreadsheet.setActiveSheet(back);
  sheet?.hideSheet();
  notes.remove(MAKING_KEY);
}

/**
 * Notes a sheet's making (false when the document's storage is full: the sheet is then made without the note, as
 * before it existed, rather than not at all, so that collecting paid research never waits for room in the properties).
 */
function noteMaking(notes: KeyValueStore, making: [string, string?]): boolean {
  try {
    notes.set(MAKING_KEY, JSON.stringify(making));
    return true;
  } catch (error) {
    if (String(error).includes(DOCUMENT_STORE_FULL_MESSAGE)) return false;
    throw error;
  }
}

/** Wanted hidden-table rows at most this far apart are read in one range. */
const READ_GAP = 8;

/** A hidden sheet used as a table (created with its header row on first use). */
export class HiddenTable implements TableStorage {
  private sheetRef: Sheet | null = null;
  /** Last row and column with content, once read (kept by this table's writes). */
  private known: { lastRow: number; lastColumn: number } | null = null;

  constructor(
    private readonly spreadsheet: Spreadsheet,
    private readonly name: string,
    private readonly headers: string[],
    private readonly notes: KeyValueStore,
    /** Called before the sheet is looked for (healSheetMaking, once an execution: sealing.ts). */
    private readonly beforeUse: () => void,
  ) {}

  private sheet(): Sheet {
    if (this.sheetRef) return this.sheetRef;
    this.beforeUse();
    let sheet = this.spreadsheet.getSheetByName(this.name);
    if (!sheet) {
      // insertSheet activates the new sheet: give the user their sheet back (see the file's header).
      const active = this.spreadsheet.getActiveSheet();
      const noted = noteMaking(this.notes, [this.name, active?.getName()]);
      sheet = this.spreadsheet.insertSheet(this.name, this.spreadsheet.getSheets().length);
      if (active) this.spreadsheet.setActiveSheet(active);
      sheet.hideSheet();
      if (noted) this.notes.remove(MAKING_KEY);
      sheet.getRange(1, 1, 1, this.headers.length).setValues([this.headers]);
      this.known = { lastRow: 1, lastColumn: this.headers.length };
      // Google makes it 1,000 x 26: keep only the header row's cells (every cell counts toward the 10 million).
      this.trim(sheet, this.headers.length);
    }
    this.sheetRef = sheet;
    return sheet;
  }

  /** The last row and column with content (read once, in one call). */
  private extent(sheet: Sheet): { lastRow: number; lastColumn: number } {
    if (!this.known) {
      const data = sheet.getDataRange();
      // An empty sheet's data range is A1: its last row and column with content are 0.
      const empty = data.getNumRows() === 1 && data.getNumColumns() === 1 && data.getValue() === '';
      this.known = empty
        ? { lastRow: 0, lastColumn: 0 }
        : { lastRow: data.getLastRow(), lastColumn: data.getLastColumn() };
    }
    return this.known;
  }

  /** Notes what a write covered: rows up to `lastRow`, columns up to `lastColumn`. */
  private grow(sheet: Sheet, lastRow: number, lastColumn: number): void {
    const extent = this.extent(sheet);
    extent.lastRow = Math.max(extent.lastRow, lastRow);
    extent.lastColumn = Math.max(extent.lastColumn, lastColumn);
  }

  /** Shrinks a sheet to `width` columns and to its last row with content. */
  private trim(sheet: Sheet, width: number): void {
    const columns = sheet.getMaxColumns();
    if (columns > width) sheet.deleteColumns(width + 1, columns - width);
    const extent = this.extent(sheet);
    extent.lastColumn = Math.min(extent.lastColumn, width);
    const rows = Math.max(extent.lastRow, 1);
    if (sheet.getMaxRows() > rows) sheet.deleteRows(rows + 1, sheet.getMaxRows() - rows);
  }

  /** Whether the table's sheet exists (without creating it). */
  exists(): boolean {
    if (this.sheetRef) return true;
    this.beforeUse();
    return this.spreadsheet.getSheetByName(this.name) !== null;
  }

  /** The header and data rows of `count` columns from `first` (every column with content when `count` is null). */
  private read(first: number, count: number | null): TableRead {
    if (!this.exists()) return { header: [], rows: [] };
    const sheet = this.sheet();
    const { lastRow: last, lastColumn } = this.extent(sheet);
    const columns = Math.min(count ?? Infinity, lastColumn - first + 1);
    if (last < 1 || columns < 1) return { header: [], rows: [] };
    const values = sheet.getRange(1, first, last, columns).getValues();
    return { header: values[0], rows: values.slice(1) };
  }

  readAll(): TableRead {
    return this.read(1, null);
  }

  rowCount(): number {
    return this.exists() ? Math.max(0, this.extent(this.sheet()).lastRow - 1) : 0;
  }

  readHeader(): unknown[] {
    if (!this.exists()) return [];
    const sheet = this.sheet();
    const { lastRow, lastColumn } = this.extent(sheet);
    return lastRow < 1 || lastColumn < 1 ? [] : sheet.getRange(1, 1, 1, lastColumn).getValues()[0];
  }

  forget(): void {
    this.known = null;
  }

  readColumns(first: number, count: number): TableRead {
    return this.read(first, count);
  }

  readKeys(): string[] {
    if (!this.exists()) return [];
    const sheet = this.sheet();
    const last = this.extent(sheet).lastRow;
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
    const { lastRow, lastColumn: width } = this.extent(sheet);
    const lastIndex = lastRow - 2;
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
    const sheet = this.sheet();
    sheet.getRange(1, 1, 1, values.length).setValues([values.map(HiddenTable.cell)]);
    this.grow(sheet, 1, values.length);
  }

  deleteRows(indices: number[]): void {
    if (indices.length === 0 || !this.exists()) return;
    const sheet = this.sheet();
    const extent = this.extent(sheet);
    // From the bottom up, so the indices of the rows still to delete do not move.
    for (const run of runs([...new Set(indices)].sort((a, b) => a - b)).reverse()) {
      const removed = Math.max(0, Math.min(run.length, extent.lastRow - (run[0] + 1)));
      sheet.deleteRows(run[0] + 2, run.length);
      extent.lastRow -= removed;
    }
  }

  fitGrid(width: number): void {
    if (this.exists()) this.trim(this.sheet(), Math.max(width, this.headers.length));
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
      const width = Math.max(...run.map((index) => byIndex.get(index)!.length), this.extent(sheet).lastColumn);
      this.fit(sheet, run[run.length - 1] + 2, width);
      const grid = run.map((index) => {
        const values = byIndex.get(index)!.map(HiddenTable.cell);
        return [...values, ...new Array<string>(width - values.length).fill('')];
      });
      sheet.getRange(run[0] + 2, 1, run.length, width).setValues(grid);
      this.grow(sheet, run[run.length - 1] + 2, width);
    }
  }

  appendRows(rows: Array<Array<string | number>>): void {
    if (rows.length === 0) return;
    const sheet = this.sheet();
    const start = Math.max(this.extent(sheet).lastRow, 1) + 1;
    const width = Math.max(...rows.map((row) => row.length));
    this.fit(sheet, start + rows.length - 1, width);
    const grid = rows.map((row) => [...row.map(HiddenTable.cell), ...new Array<string>(width - row.length).fill('')]);
    sheet.getRange(start, 1, rows.length, width).setValues(grid);
    this.grow(sheet, start + rows.length - 1, width);
  }
}

/**
 * Seals a table an earlier version wrote (no seal column): its header and rows, as they are, shifted right by one
 * column whose cells are the rows' seals, in one write (a reader never sees half of it).
 */
export function sealLegacyTable(
  spreadsheet: Spreadsheet,
  name: string,
  sealRow: (cells: readonly unknown[]) => string,
): void {
  const sheet = spreadsheet.getSheetByName(name);
  if (!sheet || sheet.getLastRow() < 1) return;
  const values = sheet.getDataRange().getValues();
  if (String(values[0][0] ?? '') === SEAL_HEADER) return;
  const width = values[0].length + 1;
  if (sheet.getMaxColumns() < width) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  const cell = (value: unknown) => (typeof value === 'string' ? safeText(value) : (value as string | number));
  const sealed = values.map((row, at) => [at === 0 ? SEAL_HEADER : sealRow(row), ...row.map(cell)]);
  sheet.getRange(1, 1, sealed.length, width).setValues(sealed);
}
