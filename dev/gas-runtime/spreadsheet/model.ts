// The in-memory spreadsheet behind the emulated SpreadsheetApp, and the host-side view of it that
// tests, benchmarks and the playground use: sheets of sparse cells (value, formula, note, rich text,
// number format, spill links of array results), developer metadata on the spreadsheet, sheets, rows
// and columns (moving with inserted/deleted rows and columns; Google's storage limit of 30,000 characters of keys
// and values per sheet and per spreadsheet), the selection, and a log of edited rectangles that the runtime drains
// to recalculate custom-function formulas.
import { A1Reference, GridRect, parseA1, resolveA1 } from './a1';
import { GasError, Msg } from '../errors';
import { adjustFormula, DimensionChange, shiftSpan } from './formulas';
import { CellValue, displayValue, GENERAL_FORMAT, parseUserInput } from './values';

export interface RichTextRun {
  start: number;
  end: number;
  linkUrl: string | null;
  style?: Record<string, unknown>;
}

export interface RichTextData {
  text: string;
  runs: RichTextRun[];
}

export interface Cell {
  value: CellValue;
  formula?: string;
  note?: string;
  richText?: RichTextData;
  numberFormat?: string;
  /** Hover text of an error value (#ERROR!, #REF!, #NAME?). */
  error?: string;
  /** On cells filled by an array result: the formula cell that spilled here. */
  spilledFrom?: Cell;
  /** On a formula cell whose array result spilled: the size of the spill area. */
  spill?: { rows: number; columns: number };
}

export type MetadataVisibility = 'DOCUMENT' | 'PROJECT';

export type MetadataLocation =
  | { type: 'SPREADSHEET' }
  | { type: 'SHEET'; sheet: SheetModel }
  | { type: 'ROW' | 'COLUMN'; sheet: SheetModel; start: number; end: number };

export interface DeveloperMetadataRecord {
  id: number;
  key: string;
  value: string | null;
  visibility: MetadataVisibility;
  location: MetadataLocation;
}

export interface SortSpec {
  /** Absolute 1-based sheet column. */
  column: number;
  ascending: boolean;
}

/**
 * Developer metadata storage per sheet and per spreadsheet, in characters of keys plus values (Sheets API guide
 * "Read & write developer metadata", "Metadata storage limits").
 */
export const METADATA_CHAR_LIMIT = 30_000;

/**
 * Cells (rows x columns of every sheet, filled or not) a spreadsheet may hold (Google Drive help "Files you can
 * store in Google Drive": 10 million cells since March 2022).
 */
export const CELL_LIMIT = 10_000_000;

const metadataCharsOf = (record: { key: string; value: string | null }): number =>
  record.key.length + (record.value?.length ?? 0);

const hasContent = (cell: Cell | undefined): boolean => !!cell && (cell.value !== '' || cell.formula !== undefined);

export class SheetModel {
  name: string;
  hidden = false;
  frozenRows = 0;
  frozenColumns = 0;
  /** Grid of rows (index = row - 1) of cells (index = column - 1); holes are empty cells. */
  private rows: Array<Array<Cell | undefined> | undefined> = [];

  constructor(
    readonly spreadsheet: SpreadsheetModel,
    readonly sheetId: number,
    name: string,
    public maxRows = 1000,
    public maxColumns = 26,
  ) {
    this.name = name;
  }

  get index(): number {
    return this.spreadsheet.sheets.indexOf(this) + 1;
  }

  cell(row: number, column: number): Cell | undefined {
    return this.rows[row - 1]?.[column - 1];
  }

  ensureCell(row: number, column: number): Cell {
    const r = (this.rows[row - 1] ??= []);
    return (r[column - 1] ??= { value: '' });
  }

  /** Replaces a cell (used by sorting and spills); `undefined` empties it. */
  putCell(row: number, column: number, cell: Cell | undefined): void {
    if (cell === undefined) {
      const r = this.rows[row - 1];
      if (r) r[column - 1] = undefined;
      return;
    }
    (this.rows[row - 1] ??= [])[column - 1] = cell;
  }

  /** Resolves A1 notation (no sheet prefix) or a rectangle, checking it lies on the sheet. */
  rect(a1OrRect?: string | GridRect): GridRect {
    if (a1OrRect === undefined) return this.dataRect();
    let rect: GridRect;
    if (typeof a1OrRect === 'string') {
      const ref: A1Reference = parseA1(a1OrRect);
      rect = resolveA1(ref, this.maxRows, this.maxColumns);
    } else {
      rect = a1OrRect;
    }
    this.checkRect(rect);
    return rect;
  }

  checkRect(rect: GridRect): void {
    if (rect.row < 1) throw new GasError(Msg.startRowTooSmall);
    if (rect.column < 1) throw new GasError(Msg.startColumnTooSmall);
    if (rect.numRows < 1) throw new GasError(Msg.rowsAtLeastOne);
    if (rect.numColumns < 1) throw new GasError(Msg.columnsAtLeastOne);
    if (rect.row + rect.numRows - 1 > this.maxRows || rect.column + rect.numColumns - 1 > this.maxColumns) {
      throw new GasError(Msg.outsideSheet);
    }
  }

  /** Maps every cell of a rectangle (row-major) to a value. */
  mapRect<T>(rect: GridRect, fn: (cell: Cell | undefined, row: number, column: number) => T): T[][] {
    const out: T[][] = [];
    for (let r = 0; r < rect.numRows; r++) {
      const source = this.rows[rect.row - 1 + r];
      const line: T[] = new Array(rect.numColumns);
      for (let c = 0; c < rect.numColumns; c++)
        line[c] = fn(source?.[rect.column - 1 + c], rect.row + r, rect.column + c);
      out.push(line);
    }
    return out;
  }

  /** Visits every stored (possibly non-empty) cell with its coordinates. */
  forEachCell(fn: (cell: Cell, row: number, column: number) => void): void {
    this.rows.forEach((line, r) => line?.forEach((cell, c) => cell && fn(cell, r + 1, c + 1)));
  }

  lastRow(): number {
    for (let r = this.rows.length; r >= 1; r--) if (this.rows[r - 1]?.some(hasContent)) return r;
    return 0;
  }

  lastColumn(): number {
    let last = 0;
    for (const row of this.rows) {
      if (!row) continue;
      for (let c = row.length; c > last; c--) {
        if (hasContent(row[c - 1])) {
          last = c;
          break;
        }
      }
    }
    return last;
  }

  /** A1 to the last row and column with content (A1 alone when the sheet is empty). */
  dataRect(): GridRect {
    return { row: 1, column: 1, numRows: Math.max(1, this.lastRow()), numColumns: Math.max(1, this.lastColumn()) };
  }

  // ---- host-side conveniences (no service-call accounting, no permissions) ----

  /** Values of a range (default: the data range). */
  getValues(a1?: string): CellValue[][] {
    return this.mapRect(this.rect(a1), (cell) => cell?.value ?? '');
  }

  getDisplayValues(a1?: string): string[][] {
    return this.mapRect(this.rect(a1), (cell) =>
      cell ? displayValue(cell.value, cell.numberFormat, this.spreadsheet.timeZone) : '',
    );
  }

  getFormulas(a1?: string): string[][] {
    return this.mapRect(this.rect(a1), (cell) => cell?.formula ?? '');
  }

  getNotes(a1?: string): string[][] {
    return this.mapRect(this.rect(a1), (cell) => cell?.note ?? '');
  }

  /** Hover text of error values (#ERROR!, #REF!, #NAME?), '' elsewhere. */
  getErrors(a1?: string): string[][] {
    return this.mapRect(this.rect(a1), (cell) => cell?.error ?? '');
  }

  getNumberFormats(a1?: string): string[][] {
    return this.mapRect(this.rect(a1), (cell) => cell?.numberFormat ?? GENERAL_FORMAT);
  }

  /** Link URL of a cell's rich text when the whole text carries one link. */
  getLinkUrl(a1: string): string | null {
    const rect = this.rect(a1);
    const runs = this.cell(rect.row, rect.column)?.richText?.runs ?? [];
    const links = new Set(runs.map((r) => r.linkUrl));
    return links.size === 1 ? [...links][0] : null;
  }

  /** Writes raw values (no typed-input parsing; strings stay strings). Records the edit. */
  setValues(a1: string, values: CellValue[][]): void {
    const rect = this.rect(a1);
    if (values.length !== rect.numRows) throw new GasError(Msg.rowsMismatch(values.length, rect.numRows));
    values.forEach((line, r) => {
      if (line.length !== rect.numColumns) throw new GasError(Msg.columnsMismatch(line.length, rect.numColumns));
      line.forEach((value, c) => {
        const cell = this.ensureCell(rect.row + r, rect.column + c);
        this.clearOwnSpill(rect.row + r, rect.column + c, cell);
        clearContent(cell);
        cell.value = value;
      });
    });
    this.spreadsheet.recordEdit(this, rect);
  }

  /**
   * New content in a formula's cell replaces the formula's spill, as in Sheets: the cells its array result filled are
   * emptied (so a formula entered again, e.g. with a range, can spill where the old one did).
   */
  private clearOwnSpill(row: number, column: number, cell: Cell): void {
    const area = cell.spill;
    if (!area) return;
    for (let r = 0; r < area.rows; r++)
      for (let c = 0; c < area.columns; c++) {
        const other = this.cell(row + r, column + c);
        if ((r > 0 || c > 0) && other?.spilledFrom === cell) {
          other.value = '';
          delete other.spilledFrom;
        }
      }
  }

  /** Writes one cell the way a user typing into it would (formulas, numbers, dates are parsed). */
  typeInto(a1: string | GridRect, text: string): void {
    const rect = this.rect(a1);
    const cell = this.ensureCell(rect.row, rect.column);
    this.clearOwnSpill(rect.row, rect.column, cell);
    writeInput(cell, text, this.spreadsheet.timeZone);
    this.spreadsheet.recordEdit(this, { row: rect.row, column: rect.column, numRows: 1, numColumns: 1 });
  }

  // ---- structure ----

  insertRows(before: number, count: number): void {
    if (count < 1) return;
    this.spreadsheet.checkGrowth(count * this.maxColumns);
    this.rows.splice(before - 1, 0, ...new Array<undefined>(count));
    this.maxRows += count;
    this.spreadsheet.applyDimensionChange(this, {
      sheetName: this.name,
      dimension: 'ROWS',
      op: 'insert',
      at: before,
      count,
    });
  }

  deleteRows(start: number, count: number): void {
    if (count < 1) return;
    if (start < 1 || start + count - 1 > this.maxRows) throw new GasError(Msg.outsideSheet);
    if (count >= this.maxRows - this.frozenRows && start > this.frozenRows) throw new GasError(Msg.deleteAllRows);
    this.rows.splice(start - 1, count);
    this.maxRows -= count;
    this.spreadsheet.applyDimensionChange(this, {
      sheetName: this.name,
      dimension: 'ROWS',
      op: 'delete',
      at: start,
      count,
    });
  }

  insertColumns(before: number, count: number): void {
    if (count < 1) return;
    this.spreadsheet.checkGrowth(count * this.maxRows);
    for (const row of this.rows)
      if (row && row.length >= before) row.splice(before - 1, 0, ...new Array<undefined>(count));
    this.maxColumns += count;
    this.spreadsheet.applyDimensionChange(this, {
      sheetName: this.name,
      dimension: 'COLUMNS',
      op: 'insert',
      at: before,
      count,
    });
  }

  deleteColumns(start: number, count: number): void {
    if (count < 1) return;
    if (start < 1 || start + count - 1 > this.maxColumns) throw new GasError(Msg.outsideSheet);
    if (count >= this.maxColumns - this.frozenColumns && start > this.frozenColumns)
      throw new GasError(Msg.deleteAllColumns);
    for (const row of this.rows) if (row) row.splice(start - 1, count);
    this.maxColumns -= count;
    this.spreadsheet.applyDimensionChange(this, {
      sheetName: this.name,
      dimension: 'COLUMNS',
      op: 'delete',
      at: start,
      count,
    });
  }

  /**
   * Sorts the rows of a rectangle by the given columns, as Range.sort does: cell contents (values,
   * formulas, notes, formats) move; row developer metadata stays on its row positions unless the
   * spreadsheet was created with `metadataFollowsSort`.
   */
  sortRows(rect: GridRect, specs: SortSpec[]): void {
    const lines = [];
    for (let r = 0; r < rect.numRows; r++) {
      const cells: Array<Cell | undefined> = [];
      for (let c = 0; c < rect.numColumns; c++) cells.push(this.cell(rect.row + r, rect.column + c));
      lines.push({ originalRow: rect.row + r, cells });
    }
    lines.sort((a, b) => {
      for (const spec of specs) {
        const idx = spec.column - rect.column;
        const order = compareForSort(a.cells[idx]?.value ?? '', b.cells[idx]?.value ?? '', spec.ascending);
        if (order !== 0) return order;
      }
      return 0;
    });
    lines.forEach((line, r) => line.cells.forEach((cell, c) => this.putCell(rect.row + r, rect.column + c, cell)));
    if (this.spreadsheet.metadataFollowsSort) {
      const newRowOf = new Map(lines.map((line, r) => [line.originalRow, rect.row + r]));
      const fullWidth = rect.column === 1 && rect.numColumns === this.maxColumns;
      for (const md of this.spreadsheet.metadata) {
        const loc = md.location;
        if (fullWidth && loc.type === 'ROW' && loc.sheet === this && loc.start === loc.end && newRowOf.has(loc.start)) {
          loc.start = loc.end = newRowOf.get(loc.start)!;
        }
      }
    }
    this.spreadsheet.recordEdit(this, rect);
  }
}

/** Sheets' sort order: numbers (and dates) before text before booleans; blanks always last. */
export function compareForSort(a: CellValue, b: CellValue, ascending: boolean): number {
  const blankA = a === '';
  const blankB = b === '';
  if (blankA || blankB) return blankA === blankB ? 0 : blankA ? 1 : -1;
  const rank = (v: CellValue) => (typeof v === 'number' || v instanceof Date ? 0 : typeof v === 'string' ? 1 : 2);
  let order = rank(a) - rank(b);
  if (order === 0) {
    if (typeof a === 'string' && typeof b === 'string') order = a.localeCompare(b, 'en', { sensitivity: 'base' });
    else order = Number(a) - Number(b);
  }
  return ascending ? order : -order;
}

/** Empties a cell's content (value, formula, rich text, error, spill) but keeps note and format. */
export function clearContent(cell: Cell): void {
  cell.value = '';
  delete cell.formula;
  delete cell.richText;
  delete cell.error;
  delete cell.spill;
  delete cell.spilledFrom;
}

/** Applies typed input to a cell (formula, number, date... or text). */
export function writeInput(cell: Cell, text: string, timeZone: string): void {
  const parsed = parseUserInput(text, cell.numberFormat, timeZone);
  clearContent(cell);
  cell.value = parsed.value;
  if (parsed.formula !== undefined) {
    cell.formula = parsed.formula;
    cell.value = '#NAME?';
    cell.error = 'This formula has not been evaluated yet.';
  }
  if (parsed.autoFormat && (cell.numberFormat === undefined || cell.numberFormat === GENERAL_FORMAT))
    cell.numberFormat = parsed.autoFormat;
}

export interface SpreadsheetModelOptions {
  id?: string;
  name?: string;
  timeZone?: string;
  locale?: string;
  /** Names of the initial sheets (default ['Sheet1']). */
  sheetNames?: string[];
  rows?: number;
  columns?: number;
  /** Whether row metadata follows its row when a range is sorted (unconfirmed in Google's docs; default false). */
  metadataFollowsSort?: boolean;
}

export interface EditRecord {
  sheet: SheetModel;
  rect: GridRect;
}

export class SpreadsheetModel {
  readonly id: string;
  name: string;
  timeZone: string;
  locale: string;
  readonly metadataFollowsSort: boolean;
  readonly sheets: SheetModel[] = [];
  readonly metadata: DeveloperMetadataRecord[] = [];
  activeSheet: SheetModel;
  /** The user's selection, when one was made (`undefined` means A1 of the active sheet). */
  selection: { sheet: SheetModel; rect: GridRect } | undefined;
  /** Rectangles written since the runtime last drained them (for custom-formula recalculation). */
  private edits: EditRecord[] = [];
  private nextSheetId = 0;
  private nextMetadataId = 1;
  private readonly defaultRows: number;
  private readonly defaultColumns: number;

  constructor(options: SpreadsheetModelOptions = {}) {
    this.id = options.id ?? 'spreadsheet-1';
    this.name = options.name ?? 'Untitled spreadsheet';
    this.timeZone = options.timeZone ?? 'America/New_York';
    this.locale = options.locale ?? 'en_US';
    this.metadataFollowsSort = options.metadataFollowsSort ?? false;
    this.defaultRows = options.rows ?? 1000;
    this.defaultColumns = options.columns ?? 26;
    for (const name of options.sheetNames ?? ['Sheet1']) this.insertSheet(name);
    this.activeSheet = this.sheets[0];
  }

  get url(): string {
    return `https://docs.google.com/spreadsheets/d/${this.id}/edit`;
  }

  getSheet(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  /** The named sheet; throws when there is none. */
  sheet(name: string = this.sheets[0].name): SheetModel {
    const sheet = this.getSheet(name);
    if (!sheet) throw new Error(`No sheet named ${name}`);
    return sheet;
  }

  /**
   * Adds a sheet of `size` (default: the size given to the model's initial sheets; a script's insertSheet makes
   * Google's 1,000 rows x 26 columns).
   */
  insertSheet(
    name?: string,
    index?: number,
    size: { rows: number; columns: number } = { rows: this.defaultRows, columns: this.defaultColumns },
  ): SheetModel {
    let sheetName = name;
    if (sheetName === undefined) {
      let n = this.sheets.length + 1;
      while (this.getSheet(`Sheet${n}`)) n++;
      sheetName = `Sheet${n}`;
    }
    if (this.sheets.some((s) => s.name.toLowerCase() === sheetName!.toLowerCase()))
      throw new GasError(Msg.sheetNameExists(sheetName));
    if (this.sheets.length > 0) this.checkGrowth(size.rows * size.columns);
    const sheet = new SheetModel(
      this,
      this.nextSheetId === 0 ? 0 : 100000 + this.nextSheetId * 7919,
      sheetName,
      size.rows,
      size.columns,
    );
    this.nextSheetId++;
    const at = index === undefined ? this.sheets.length : Math.max(0, Math.min(index, this.sheets.length));
    this.sheets.splice(at, 0, sheet);
    return sheet;
  }

  /** Cells of every sheet (rows x columns, filled or not): what counts toward CELL_LIMIT. */
  cellCount(): number {
    return this.sheets.reduce((sum, sheet) => sum + sheet.maxRows * sheet.maxColumns, 0);
  }

  /** Throws Google's refusal when adding `cells` would take the spreadsheet past CELL_LIMIT. */
  checkGrowth(cells: number): void {
    if (this.cellCount() + cells > CELL_LIMIT) throw new GasError(Msg.cellLimit(CELL_LIMIT));
  }

  deleteSheet(sheet: SheetModel): void {
    if (this.sheets.length === 1) throw new GasError(Msg.deleteOnlySheet);
    this.sheets.splice(this.sheets.indexOf(sheet), 1);
    for (let i = this.metadata.length - 1; i >= 0; i--) {
      const loc = this.metadata[i].location;
      if (loc.type !== 'SPREADSHEET' && loc.sheet === sheet) this.metadata.splice(i, 1);
    }
    if (this.activeSheet === sheet) this.activeSheet = this.sheets[0];
    if (this.selection?.sheet === sheet) this.selection = undefined;
  }

  /** Resolves "Sheet!A1:B2" (or a bare range on the active sheet). */
  resolve(a1: string): { sheet: SheetModel; rect: GridRect } {
    const ref = parseA1(a1);
    const sheet = ref.sheetName !== undefined ? this.getSheet(ref.sheetName) : this.activeSheet;
    if (!sheet) throw new GasError(Msg.rangeNotFound);
    const rect = resolveA1(ref, sheet.maxRows, sheet.maxColumns);
    sheet.checkRect(rect);
    return { sheet, rect };
  }

  /** Adds a metadata record; throws (adding nothing) when it would pass the sheet's or the spreadsheet's limit. */
  addMetadata(
    key: string,
    value: string | null,
    visibility: MetadataVisibility,
    location: MetadataLocation,
  ): DeveloperMetadataRecord {
    const record = { id: this.nextMetadataId, key, value, visibility, location };
    this.checkMetadataBudget(location, metadataCharsOf(record));
    this.nextMetadataId++;
    this.metadata.push(record);
    return record;
  }

  /** Changes a record's key or value; throws (changing nothing) when that would pass a limit. */
  updateMetadata(record: DeveloperMetadataRecord, change: { key?: string; value?: string | null }): void {
    const next = { key: change.key ?? record.key, value: change.value === undefined ? record.value : change.value };
    this.checkMetadataBudget(record.location, metadataCharsOf(next) - metadataCharsOf(record));
    record.key = next.key;
    record.value = next.value;
  }

  removeMetadata(record: DeveloperMetadataRecord): void {
    const i = this.metadata.indexOf(record);
    if (i >= 0) this.metadata.splice(i, 1);
  }

  /**
   * Characters (keys plus values) of developer metadata: of the whole spreadsheet, or with a sheet name, of the
   * metadata on that sheet and its rows and columns.
   */
  metadataChars(sheetName?: string): number {
    let total = 0;
    for (const record of this.metadata) {
      const loc = record.location;
      if (sheetName === undefined || (loc.type !== 'SPREADSHEET' && loc.sheet.name === sheetName))
        total += metadataCharsOf(record);
    }
    return total;
  }

  private checkMetadataBudget(location: MetadataLocation, addedChars: number): void {
    if (addedChars <= 0) return;
    if (location.type !== 'SPREADSHEET' && this.metadataChars(location.sheet.name) + addedChars > METADATA_CHAR_LIMIT) {
      throw new GasError(Msg.metadataSheetLimit(location.sheet.name, METADATA_CHAR_LIMIT));
    }
    if (this.metadataChars() + addedChars > METADATA_CHAR_LIMIT)
      throw new GasError(Msg.metadataSpreadsheetLimit(METADATA_CHAR_LIMIT));
  }

  /** Row metadata for host inspection: key, value and current 1-based row span. */
  rowMetadata(
    sheetName?: string,
  ): Array<{ id: number; key: string; value: string | null; sheet: string; startRow: number; endRow: number }> {
    return this.metadata
      .filter(
        (
          m,
        ): m is DeveloperMetadataRecord & {
          location: { type: 'ROW'; sheet: SheetModel; start: number; end: number };
        } => m.location.type === 'ROW',
      )
      .filter((m) => sheetName === undefined || m.location.sheet.name === sheetName)
      .map((m) => ({
        id: m.id,
        key: m.key,
        value: m.value,
        sheet: m.location.sheet.name,
        startRow: m.location.start,
        endRow: m.location.end,
      }));
  }

  recordEdit(sheet: SheetModel, rect: GridRect): void {
    this.edits.push({ sheet, rect });
  }

  /** Returns and forgets the edits recorded since the last call. */
  drainEdits(): EditRecord[] {
    const out = this.edits;
    this.edits = [];
    return out;
  }

  /** Moves metadata and rewrites formula references after rows/columns were inserted or deleted. */
  applyDimensionChange(sheet: SheetModel, change: DimensionChange): void {
    const type = change.dimension === 'ROWS' ? 'ROW' : 'COLUMN';
    for (let i = this.metadata.length - 1; i >= 0; i--) {
      const loc = this.metadata[i].location;
      if (loc.type !== type || loc.sheet !== sheet) continue;
      const moved = shiftSpan(loc.start, loc.end, change);
      if (moved === null) this.metadata.splice(i, 1);
      else [loc.start, loc.end] = moved;
    }
    for (const other of this.sheets) {
      other.forEachCell((cell) => {
        if (cell.formula) cell.formula = adjustFormula(cell.formula, other.name, change);
      });
    }
    const whole: GridRect =
      change.dimension === 'ROWS'
        ? {
            row: change.at,
            column: 1,
            numRows: Math.max(1, sheet.maxRows - change.at + 1),
            numColumns: sheet.maxColumns,
          }
        : {
            row: 1,
            column: change.at,
            numRows: sheet.maxRows,
            numColumns: Math.max(1, sheet.maxColumns - change.at + 1),
          };
    if (whole.row <= sheet.maxRows && whole.column <= sheet.maxColumns) this.recordEdit(sheet, whole);
  }
}
