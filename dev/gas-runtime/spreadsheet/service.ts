// SpreadsheetApp over the in-memory SpreadsheetModel: Spreadsheet, Sheet, Range, Selection, developer
// metadata and its finder, rich text, number formats, notes, sorting, row/column insertion and deletion.
// Writes parse strings like typed input (so "=..." becomes a formula), enforce the 50,000-character cell
// limit and Google's dimension-mismatch messages, and every data read or write is counted for benchmarks.
// Custom-function executions may only read; simple triggers in AuthMode.NONE may not touch data.
import { GasError, Msg } from '../errors';
import type { Capability } from '../execution';
import { enumName, FacadeClass, makeEnum } from '../realm';
import type { ServiceContext } from '../state';
import { A1Reference, GridRect, parseA1, rectA1, resolveA1 } from './a1';
import {
  Cell,
  clearContent,
  DeveloperMetadataRecord,
  MetadataLocation,
  MetadataVisibility,
  SheetModel,
  SortSpec,
  SpreadsheetModel,
  writeInput,
} from './model';
import { defineRichText } from './rich-text';
import { recordToast } from './ui';
import { CellValue, DEFAULT_DATETIME_FORMAT, GENERAL_FORMAT, displayValue } from './values';

export const CELL_CHARACTER_LIMIT = 50_000;

interface RangeImpl {
  sheet: SheetModel;
  rect: GridRect;
  /** Created from "A:C" / "2:5" notation or a row/column location: printed that way by getA1Notation. */
  wholeColumns?: boolean;
  wholeRows?: boolean;
}

interface SheetImpl {
  sheet: SheetModel;
}

interface FinderImpl {
  scope: { sheet?: SheetModel; rect?: GridRect };
  key?: string;
  value?: string;
  id?: number;
  locationType?: string;
  visibility?: string;
  intersecting: boolean;
  facade?: object;
}

/** Google's message when arguments do not fit any overload. */
function signatureError(className: string, method: string, args: unknown[]): GasError {
  const typeName = (a: unknown): string => {
    if (a === null || a === undefined) return 'null';
    if (typeof a === 'number') return 'number';
    if (typeof a === 'string') return 'String';
    if (typeof a === 'boolean') return 'Boolean';
    if (Array.isArray(a)) return `${a.length ? typeName(a[0]) : 'Object'}[]`;
    return 'Object';
  };
  return new GasError(
    `The parameters (${args.map(typeName).join(',')}) don't match the method signature for SpreadsheetApp.${className}.${method}.`,
  );
}

const isDate = (v: unknown): v is Date =>
  v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object Date]';

function intArgs(className: string, method: string, args: unknown[], count: number): number[] {
  const out = args.slice(0, count).map(Number);
  if (args.length < count || args.slice(0, count).some((a) => typeof a !== 'number' || !Number.isFinite(a))) {
    throw signatureError(className, method, args);
  }
  return out.map((n) => Math.trunc(n));
}

/** Checks a 2-D array against a range's size, with Google's messages. */
function checkGrid(className: string, method: string, values: unknown, rect: GridRect): unknown[][] {
  if (!Array.isArray(values) || !values.every((line) => Array.isArray(line)))
    throw signatureError(className, method, [values]);
  if (values.length !== rect.numRows) throw new GasError(Msg.rowsMismatch(values.length, rect.numRows));
  for (const line of values as unknown[][]) {
    if (line.length !== rect.numColumns) throw new GasError(Msg.columnsMismatch(line.length, rect.numColumns));
  }
  return values as unknown[][];
}

function checkCellLength(value: unknown): void {
  if (typeof value === 'string' && value.length > CELL_CHARACTER_LIMIT) throw new GasError(Msg.cellTooLong);
}

/** Writes one script value into a cell the way setValue does. */
function writeScriptValue(cell: Cell, value: unknown, timeZone: string): void {
  if (value === null || value === undefined) {
    clearContent(cell);
    return;
  }
  if (typeof value === 'string') {
    writeInput(cell, value, timeZone);
    return;
  }
  clearContent(cell);
  if (typeof value === 'number' || typeof value === 'boolean') cell.value = value;
  else if (isDate(value)) {
    cell.value = new Date(value.getTime());
    if (cell.numberFormat === undefined) cell.numberFormat = DEFAULT_DATETIME_FORMAT;
  } else cell.value = String(value);
}

function metadataInScope(record: DeveloperMetadataRecord, scope: FinderImpl['scope'], intersecting: boolean): boolean {
  const loc = record.location;
  if (!scope.sheet) return true;
  if (loc.type === 'SPREADSHEET') return false;
  if (loc.sheet !== scope.sheet) return false;
  if (!scope.rect) return true;
  if (loc.type === 'SHEET') return false;
  const r = scope.rect;
  const [lo, hi] = loc.type === 'ROW' ? [r.row, r.row + r.numRows - 1] : [r.column, r.column + r.numColumns - 1];
  const fullOther =
    loc.type === 'ROW'
      ? r.column === 1 && r.numColumns === loc.sheet.maxColumns
      : r.row === 1 && r.numRows === loc.sheet.maxRows;
  if (intersecting) return loc.start <= hi && loc.end >= lo;
  return fullOther && loc.start >= lo && loc.end <= hi;
}

export interface SpreadsheetAppOptions {
  /** For custom-function executions: the cell whose formula is being evaluated. */
  formulaCell?: { sheet: SheetModel; row: number; column: number };
  ui: () => Record<string, unknown>;
}

export interface SpreadsheetAppParts {
  app: Record<string, unknown>;
  /** Spreadsheet and Range objects for event objects (no service call is counted). */
  spreadsheet(): Record<string, unknown>;
  range(sheet: SheetModel, rect: GridRect): Record<string, unknown>;
}

export function createSpreadsheetApp(context: ServiceContext, options: SpreadsheetAppOptions): SpreadsheetAppParts {
  const { env, exec } = context;
  const { realm } = exec;
  const model = env.spreadsheet;
  const tz = () => model.timeZone;
  const io = (capability: Capability, className: string, method: string) => {
    exec.require(capability, className, method);
    if (capability === 'sheet.read') env.counters.sheet.reads++;
    else if (capability === 'sheet.write') env.counters.sheet.writes++;
  };
  const read = (className: string, method: string) => io('sheet.read', className, method);
  const write = (className: string, method: string) => io('sheet.write', className, method);

  const Visibility = makeEnum(realm, ['DOCUMENT', 'PROJECT']);
  const LocationType = makeEnum(realm, ['SPREADSHEET', 'SHEET', 'ROW', 'COLUMN', 'OBJECT']);
  const Dimension = makeEnum(realm, ['COLUMNS', 'ROWS']);
  const WrapStrategy = makeEnum(realm, ['WRAP', 'OVERFLOW', 'CLIP']);
  const BorderStyle = makeEnum(realm, ['DOTTED', 'DASHED', 'SOLID', 'SOLID_MEDIUM', 'SOLID_THICK', 'DOUBLE']);
  const richText = defineRichText(exec);

  // ---------- Range ----------
  const wrapRange = (impl: RangeImpl) => Range.wrap(impl);
  const wrapSheet = (sheet: SheetModel) => Sheet.wrap({ sheet });
  const wrapSpreadsheet = () => Spreadsheet.wrap({ model });

  const cells = (impl: RangeImpl, fn: (cell: Cell, row: number, column: number) => void) => {
    const { rect, sheet } = impl;
    for (let r = 0; r < rect.numRows; r++)
      for (let c = 0; c < rect.numColumns; c++)
        fn(sheet.ensureCell(rect.row + r, rect.column + c), rect.row + r, rect.column + c);
    model.recordEdit(sheet, rect);
  };
  const top = (impl: RangeImpl) => impl.sheet.cell(impl.rect.row, impl.rect.column);
  const grid = <T>(impl: RangeImpl, fn: (cell: Cell | undefined) => T) => impl.sheet.mapRect(impl.rect, fn);
  const richOf = (cell: Cell | undefined) => {
    const value: CellValue = cell?.value ?? '';
    if (typeof value !== 'string') return null;
    return richText.wrap(cell?.richText ?? { text: value, runs: [{ start: 0, end: value.length, linkUrl: null }] });
  };
  const rangeFromRect = (sheet: SheetModel, rect: GridRect, flags: Partial<RangeImpl> = {}) => {
    sheet.checkRect(rect);
    return wrapRange({ sheet, rect, ...flags });
  };
  const rangeFromA1 = (sheet: SheetModel, a1: string) => {
    const ref: A1Reference = parseA1(a1);
    const target = ref.sheetName !== undefined ? model.getSheet(ref.sheetName) : sheet;
    if (!target) throw new GasError(Msg.rangeNotFound);
    const rect = resolveA1(ref, target.maxRows, target.maxColumns);
    return rangeFromRect(target, rect, {
      wholeColumns: ref.startRow === undefined,
      wholeRows: ref.startColumn === undefined,
    });
  };
  const visibilityArg = (v: unknown): MetadataVisibility => (enumName(v) === 'PROJECT' ? 'PROJECT' : 'DOCUMENT');
  /** addDeveloperMetadata overloads: (key), (key, visibility), (key, value), (key, value, visibility). */
  const metadataArgs = (args: unknown[]): { key: string; value: string | null; visibility: MetadataVisibility } => {
    const key = String(args[0]);
    if (args.length >= 3)
      return { key, value: args[1] === null ? null : String(args[1]), visibility: visibilityArg(args[2]) };
    if (args.length === 2 && args[1] !== null && typeof args[1] === 'object')
      return { key, value: null, visibility: visibilityArg(args[1]) };
    if (args.length === 2) return { key, value: args[1] === null ? null : String(args[1]), visibility: 'DOCUMENT' };
    return { key, value: null, visibility: 'DOCUMENT' };
  };

  const sortSpecs = (impl: RangeImpl, spec: unknown): SortSpec[] => {
    const list = Array.isArray(spec) ? spec : [spec];
    return list.map((item) => {
      const s =
        typeof item === 'number'
          ? { column: item, ascending: true }
          : {
              column: Number((item as { column: unknown }).column),
              ascending: (item as { ascending?: unknown }).ascending !== false,
            };
      if (s.column < impl.rect.column || s.column >= impl.rect.column + impl.rect.numColumns)
        throw new GasError(Msg.sortColumnOutside);
      return s;
    });
  };

  const Range: FacadeClass<RangeImpl> = exec.define<RangeImpl>('Range', {
    getRow() {
      return this.rect.row;
    },
    getRowIndex() {
      return this.rect.row;
    },
    getColumn() {
      return this.rect.column;
    },
    getNumRows() {
      return this.rect.numRows;
    },
    getNumColumns() {
      return this.rect.numColumns;
    },
    getHeight() {
      return this.rect.numRows;
    },
    getWidth() {
      return this.rect.numColumns;
    },
    getLastRow() {
      return this.rect.row + this.rect.numRows - 1;
    },
    getLastColumn() {
      return this.rect.column + this.rect.numColumns - 1;
    },
    getGridId() {
      return this.sheet.sheetId;
    },
    getA1Notation() {
      const r = this.rect;
      if (this.wholeRows && !this.wholeColumns) return `${r.row}:${r.row + r.numRows - 1}`;
      if (this.wholeColumns && !this.wholeRows) return rectA1(r).replace(/\d+/g, '');
      return rectA1(r);
    },
    getSheet() {
      return wrapSheet(this.sheet);
    },
    getCell(row: number, column: number) {
      const [r, c] = intArgs('Range', 'getCell', [row, column], 2);
      if (r < 1 || c < 1 || r > this.rect.numRows || c > this.rect.numColumns) throw new GasError(Msg.outsideSheet);
      return rangeFromRect(this.sheet, {
        row: this.rect.row + r - 1,
        column: this.rect.column + c - 1,
        numRows: 1,
        numColumns: 1,
      });
    },
    offset(...args: unknown[]) {
      const [dr, dc] = intArgs('Range', 'offset', args, 2);
      const numRows = args.length >= 3 ? Number(args[2]) : this.rect.numRows;
      const numColumns = args.length >= 4 ? Number(args[3]) : this.rect.numColumns;
      return rangeFromRect(this.sheet, { row: this.rect.row + dr, column: this.rect.column + dc, numRows, numColumns });
    },
    activate() {
      model.activeSheet = this.sheet;
      model.selection = { sheet: this.sheet, rect: { ...this.rect } };
      return wrapRange(this);
    },
    // reads
    getValue() {
      read('Range', 'getValue');
      return top(this)?.value ?? '';
    },
    getValues() {
      read('Range', 'getValues');
      return grid(this, (cell) => cell?.value ?? '');
    },
    getDisplayValue() {
      read('Range', 'getDisplayValue');
      const cell = top(this);
      return cell ? displayValue(cell.value, cell.numberFormat, tz()) : '';
    },
    getDisplayValues() {
      read('Range', 'getDisplayValues');
      return grid(this, (cell) => (cell ? displayValue(cell.value, cell.numberFormat, tz()) : ''));
    },
    getFormula() {
      read('Range', 'getFormula');
      return top(this)?.formula ?? '';
    },
    getFormulas() {
      read('Range', 'getFormulas');
      return grid(this, (cell) => cell?.formula ?? '');
    },
    getNote() {
      read('Range', 'getNote');
      return top(this)?.note ?? '';
    },
    getNotes() {
      read('Range', 'getNotes');
      return grid(this, (cell) => cell?.note ?? '');
    },
    getRichTextValue() {
      read('Range', 'getRichTextValue');
      return richOf(top(this));
    },
    getRichTextValues() {
      read('Range', 'getRichTextValues');
      return grid(this, richOf);
    },
    getNumberFormat() {
      read('Range', 'getNumberFormat');
      return top(this)?.numberFormat ?? GENERAL_FORMAT;
    },
    getNumberFormats() {
      read('Range', 'getNumberFormats');
      return grid(this, (cell) => cell?.numberFormat ?? GENERAL_FORMAT);
    },
    isBlank() {
      read('Range', 'isBlank');
      return grid(this, (cell) => !cell || (cell.value === '' && cell.formula === undefined)).every((line) =>
        line.every(Boolean),
      );
    },
    getBackground() {
      read('Range', 'getBackground');
      return '#ffffff';
    },
    getDeveloperMetadata() {
      read('Range', 'getDeveloperMetadata');
      return model.metadata
        .filter((m) => metadataInScope(m, { sheet: this.sheet, rect: this.rect }, false))
        .map(wrapMetadata);
    },
    createDeveloperMetadataFinder() {
      return newFinder({ sheet: this.sheet, rect: this.rect });
    },
    // writes
    setValue(value: unknown) {
      write('Range', 'setValue');
      checkCellLength(value);
      cells(this, (cell) => writeScriptValue(cell, value, tz()));
      return wrapRange(this);
    },
    setValues(values: unknown) {
      write('Range', 'setValues');
      const rows = checkGrid('Range', 'setValues', values, this.rect);
      rows.forEach((line) => line.forEach(checkCellLength));
      cells(this, (cell, r, c) => writeScriptValue(cell, rows[r - this.rect.row][c - this.rect.column], tz()));
      return wrapRange(this);
    },
    setFormula(formula: string) {
      write('Range', 'setFormula');
      const text = String(formula);
      checkCellLength(text);
      cells(this, (cell) => writeScriptValue(cell, text.startsWith('=') ? text : `=${text}`, tz()));
      return wrapRange(this);
    },
    setFormulas(formulas: unknown) {
      write('Range', 'setFormulas');
      const rows = checkGrid('Range', 'setFormulas', formulas, this.rect);
      rows.forEach((line) => line.forEach(checkCellLength));
      cells(this, (cell, r, c) => {
        const f = String(rows[r - this.rect.row][c - this.rect.column] ?? '');
        writeScriptValue(cell, f === '' ? '' : f.startsWith('=') ? f : `=${f}`, tz());
      });
      return wrapRange(this);
    },
    setNote(note: unknown) {
      write('Range', 'setNote');
      cells(this, (cell) => {
        if (note === null || note === undefined || note === '') delete cell.note;
        else cell.note = String(note);
      });
      return wrapRange(this);
    },
    setNotes(notes: unknown) {
      write('Range', 'setNotes');
      const rows = checkGrid('Range', 'setNotes', notes, this.rect);
      cells(this, (cell, r, c) => {
        const note = rows[r - this.rect.row][c - this.rect.column];
        if (note === null || note === undefined || note === '') delete cell.note;
        else cell.note = String(note);
      });
      return wrapRange(this);
    },
    clearNote() {
      write('Range', 'clearNote');
      cells(this, (cell) => delete cell.note);
      return wrapRange(this);
    },
    setRichTextValue(value: unknown) {
      write('Range', 'setRichTextValue');
      const data = richText.dataOf(value);
      if (!data) throw signatureError('Range', 'setRichTextValue', [value]);
      checkCellLength(data.text);
      cells(this, (cell) => {
        clearContent(cell);
        cell.value = data.text;
        cell.richText = { text: data.text, runs: data.runs.map((r) => ({ ...r })) };
      });
      return wrapRange(this);
    },
    setRichTextValues(values: unknown) {
      write('Range', 'setRichTextValues');
      const rows = checkGrid('Range', 'setRichTextValues', values, this.rect);
      const datas = rows.map((line) => line.map((v) => (v === null ? null : richText.dataOf(v))));
      datas.forEach((line, r) =>
        line.forEach((d, c) => {
          if (d === undefined) throw signatureError('Range', 'setRichTextValues', [rows[r][c]]);
          if (d) checkCellLength(d.text);
        }),
      );
      cells(this, (cell, r, c) => {
        const data = datas[r - this.rect.row][c - this.rect.column];
        clearContent(cell);
        if (data) {
          cell.value = data.text;
          cell.richText = { text: data.text, runs: data.runs.map((run) => ({ ...run })) };
        }
      });
      return wrapRange(this);
    },
    setNumberFormat(format: string) {
      write('Range', 'setNumberFormat');
      cells(this, (cell) => (cell.numberFormat = String(format)));
      return wrapRange(this);
    },
    setNumberFormats(formats: unknown) {
      write('Range', 'setNumberFormats');
      const rows = checkGrid('Range', 'setNumberFormats', formats, this.rect);
      cells(this, (cell, r, c) => (cell.numberFormat = String(rows[r - this.rect.row][c - this.rect.column])));
      return wrapRange(this);
    },
    clear(options?: { contentsOnly?: boolean; formatOnly?: boolean }) {
      write('Range', 'clear');
      cells(this, (cell) => {
        if (!options?.formatOnly) clearContent(cell);
        if (!options?.contentsOnly) delete cell.numberFormat;
      });
      return wrapRange(this);
    },
    clearContent() {
      write('Range', 'clearContent');
      cells(this, clearContent);
      return wrapRange(this);
    },
    clearFormat() {
      write('Range', 'clearFormat');
      cells(this, (cell) => delete cell.numberFormat);
      return wrapRange(this);
    },
    sort(spec: unknown) {
      write('Range', 'sort');
      this.sheet.sortRows(this.rect, sortSpecs(this, spec));
      return wrapRange(this);
    },
    addDeveloperMetadata(...args: unknown[]) {
      write('Range', 'addDeveloperMetadata');
      const { key, value, visibility } = metadataArgs(args);
      const r = this.rect;
      let location: MetadataLocation;
      if (r.column === 1 && r.numColumns === this.sheet.maxColumns)
        location = { type: 'ROW', sheet: this.sheet, start: r.row, end: r.row + r.numRows - 1 };
      else if (r.row === 1 && r.numRows === this.sheet.maxRows)
        location = { type: 'COLUMN', sheet: this.sheet, start: r.column, end: r.column + r.numColumns - 1 };
      else throw new GasError(Msg.metadataArbitraryRange);
      model.addMetadata(key, value, visibility, location);
      return wrapRange(this);
    },
    copyTo(destination: unknown) {
      write('Range', 'copyTo');
      const dest = Range.unwrap(destination);
      if (!dest) throw signatureError('Range', 'copyTo', [destination]);
      const snapshot = grid(this, (cell) => (cell ? { ...cell, spilledFrom: undefined, spill: undefined } : undefined));
      const target: RangeImpl = {
        sheet: dest.sheet,
        rect: {
          row: dest.rect.row,
          column: dest.rect.column,
          numRows: this.rect.numRows,
          numColumns: this.rect.numColumns,
        },
      };
      dest.sheet.checkRect(target.rect);
      cells(target, (cell, r, c) =>
        Object.assign(cell, { value: '' }, snapshot[r - target.rect.row][c - target.rect.column] ?? {}),
      );
    },
    insertCheckboxes() {
      write('Range', 'insertCheckboxes');
      cells(this, (cell) => {
        clearContent(cell);
        cell.value = false;
      });
      return wrapRange(this);
    },
    // formatting without a visible model: counted writes, no state
    ...Object.fromEntries(
      [
        'setBackground',
        'setBackgrounds',
        'setFontWeight',
        'setFontWeights',
        'setFontColor',
        'setFontColors',
        'setFontStyle',
        'setFontSize',
        'setFontFamily',
        'setFontLine',
        'setHorizontalAlignment',
        'setVerticalAlignment',
        'setWrap',
        'setWrapStrategy',
        'setBorder',
        'setDataValidation',
        'setTextStyle',
        'merge',
        'breakApart',
      ].map((name) => [
        name,
        function (this: RangeImpl) {
          write('Range', name);
          return wrapRange(this);
        },
      ]),
    ),
  });

  // ---------- Developer metadata ----------
  const Location = exec.define<{ record: DeveloperMetadataRecord }>('DeveloperMetadataLocation', {
    getLocationType() {
      return LocationType[this.record.location.type];
    },
    getRow() {
      const loc = this.record.location;
      if (loc.type !== 'ROW') return null;
      return rangeFromRect(
        loc.sheet,
        { row: loc.start, column: 1, numRows: loc.end - loc.start + 1, numColumns: loc.sheet.maxColumns },
        { wholeRows: true },
      );
    },
    getColumn() {
      const loc = this.record.location;
      if (loc.type !== 'COLUMN') return null;
      return rangeFromRect(
        loc.sheet,
        { row: 1, column: loc.start, numRows: loc.sheet.maxRows, numColumns: loc.end - loc.start + 1 },
        { wholeColumns: true },
      );
    },
    getSheet() {
      const loc = this.record.location;
      return loc.type === 'SPREADSHEET' ? null : wrapSheet(loc.sheet);
    },
    getSpreadsheet() {
      return this.record.location.type === 'SPREADSHEET' ? wrapSpreadsheet() : null;
    },
  });
  const Metadata: FacadeClass<{ record: DeveloperMetadataRecord }> = exec.define<{ record: DeveloperMetadataRecord }>(
    'DeveloperMetadata',
    {
      getId() {
        return this.record.id;
      },
      getKey() {
        return this.record.key;
      },
      getValue() {
        return this.record.value;
      },
      getVisibility() {
        return Visibility[this.record.visibility];
      },
      getLocation() {
        return Location.wrap({ record: this.record });
      },
      setKey(key: string) {
        write('DeveloperMetadata', 'setKey');
        model.updateMetadata(this.record, { key: String(key) });
        return wrapMetadata(this.record);
      },
      setValue(value: string) {
        write('DeveloperMetadata', 'setValue');
        model.updateMetadata(this.record, { value: value === null ? null : String(value) });
        return wrapMetadata(this.record);
      },
      setVisibility(visibility: unknown) {
        write('DeveloperMetadata', 'setVisibility');
        this.record.visibility = visibilityArg(visibility);
        return wrapMetadata(this.record);
      },
      remove() {
        write('DeveloperMetadata', 'remove');
        model.removeMetadata(this.record);
      },
    },
  );
  function wrapMetadata(record: DeveloperMetadataRecord): Record<string, unknown> {
    return Metadata.wrap({ record });
  }

  const Finder = exec.define<FinderImpl>('DeveloperMetadataFinder', {
    withKey(key: string) {
      this.key = String(key);
      return this.facade;
    },
    withValue(value: string) {
      this.value = String(value);
      return this.facade;
    },
    withId(id: number) {
      this.id = Number(id);
      return this.facade;
    },
    withLocationType(type: unknown) {
      this.locationType = enumName(type);
      return this.facade;
    },
    withVisibility(visibility: unknown) {
      this.visibility = enumName(visibility);
      return this.facade;
    },
    onIntersectingLocations() {
      this.intersecting = true;
      return this.facade;
    },
    find() {
      read('DeveloperMetadataFinder', 'find');
      return model.metadata
        .filter((m) => metadataInScope(m, this.scope, this.intersecting))
        .filter((m) => this.key === undefined || m.key === this.key)
        .filter((m) => this.value === undefined || m.value === this.value)
        .filter((m) => this.id === undefined || m.id === this.id)
        .filter((m) => this.locationType === undefined || m.location.type === this.locationType)
        .filter((m) => this.visibility === undefined || m.visibility === this.visibility)
        .map(wrapMetadata);
    },
  });
  function newFinder(scope: FinderImpl['scope']) {
    const impl: FinderImpl = { scope, intersecting: false };
    impl.facade = Finder.wrap(impl);
    return impl.facade;
  }

  // ---------- Sheet ----------
  const rowsOp = (impl: SheetImpl, method: string, op: () => void) => {
    write('Sheet', method);
    op();
    return wrapSheet(impl.sheet);
  };
  const Sheet: FacadeClass<SheetImpl> = exec.define<SheetImpl>('Sheet', {
    getName() {
      return this.sheet.name;
    },
    getSheetName() {
      return this.sheet.name;
    },
    getSheetId() {
      return this.sheet.sheetId;
    },
    getIndex() {
      return this.sheet.index;
    },
    getParent() {
      return wrapSpreadsheet();
    },
    getMaxRows() {
      return this.sheet.maxRows;
    },
    getMaxColumns() {
      return this.sheet.maxColumns;
    },
    isSheetHidden() {
      return this.sheet.hidden;
    },
    getFrozenRows() {
      return this.sheet.frozenRows;
    },
    getFrozenColumns() {
      return this.sheet.frozenColumns;
    },
    getRange(...args: unknown[]) {
      if (typeof args[0] === 'string' && args.length === 1) return rangeFromA1(this.sheet, args[0]);
      if (args.length < 2 || args.length > 4) throw signatureError('Sheet', 'getRange', args);
      const [row, column, numRows = 1, numColumns = 1] = intArgs('Sheet', 'getRange', args, args.length);
      return rangeFromRect(this.sheet, { row, column, numRows, numColumns });
    },
    getLastRow() {
      read('Sheet', 'getLastRow');
      return this.sheet.lastRow();
    },
    getLastColumn() {
      read('Sheet', 'getLastColumn');
      return this.sheet.lastColumn();
    },
    getDataRange() {
      read('Sheet', 'getDataRange');
      return rangeFromRect(this.sheet, this.sheet.dataRect());
    },
    activate() {
      model.activeSheet = this.sheet;
      return wrapSheet(this.sheet);
    },
    getActiveRange() {
      return activeRange(this.sheet);
    },
    setActiveRange(range: unknown) {
      return setActiveRange(range);
    },
    getDeveloperMetadata() {
      read('Sheet', 'getDeveloperMetadata');
      return model.metadata
        .filter((m) => m.location.type === 'SHEET' && m.location.sheet === this.sheet)
        .map(wrapMetadata);
    },
    createDeveloperMetadataFinder() {
      return newFinder({ sheet: this.sheet });
    },
    addDeveloperMetadata(...args: unknown[]) {
      write('Sheet', 'addDeveloperMetadata');
      const { key, value, visibility } = metadataArgs(args);
      model.addMetadata(key, value, visibility, { type: 'SHEET', sheet: this.sheet });
      return wrapSheet(this.sheet);
    },
    setName(name: string) {
      write('Sheet', 'setName');
      const next = String(name);
      if (model.sheets.some((s) => s !== this.sheet && s.name.toLowerCase() === next.toLowerCase()))
        throw new GasError(Msg.sheetNameExists(next));
      this.sheet.name = next;
      return wrapSheet(this.sheet);
    },
    insertRowBefore(before: number) {
      const [at] = intArgs('Sheet', 'insertRowBefore', [before], 1);
      return rowsOp(this, 'insertRowBefore', () => this.sheet.insertRows(at, 1));
    },
    insertRowAfter(after: number) {
      const [at] = intArgs('Sheet', 'insertRowAfter', [after], 1);
      return rowsOp(this, 'insertRowAfter', () => this.sheet.insertRows(at + 1, 1));
    },
    insertRowsBefore(before: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertRowsBefore', [before, howMany], 2);
      return rowsOp(this, 'insertRowsBefore', () => this.sheet.insertRows(at, n));
    },
    insertRowsAfter(after: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertRowsAfter', [after, howMany], 2);
      return rowsOp(this, 'insertRowsAfter', () => this.sheet.insertRows(at + 1, n));
    },
    insertRows(rowIndex: number, numRows?: number) {
      const [at] = intArgs('Sheet', 'insertRows', [rowIndex], 1);
      write('Sheet', 'insertRows');
      this.sheet.insertRows(at, numRows === undefined ? 1 : Number(numRows));
    },
    deleteRow(row: number) {
      const [at] = intArgs('Sheet', 'deleteRow', [row], 1);
      return rowsOp(this, 'deleteRow', () => this.sheet.deleteRows(at, 1));
    },
    deleteRows(row: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'deleteRows', [row, howMany], 2);
      write('Sheet', 'deleteRows');
      this.sheet.deleteRows(at, n);
    },
    insertColumnBefore(before: number) {
      const [at] = intArgs('Sheet', 'insertColumnBefore', [before], 1);
      return rowsOp(this, 'insertColumnBefore', () => this.sheet.insertColumns(at, 1));
    },
    insertColumnAfter(after: number) {
      const [at] = intArgs('Sheet', 'insertColumnAfter', [after], 1);
      return rowsOp(this, 'insertColumnAfter', () => this.sheet.insertColumns(at + 1, 1));
    },
    insertColumnsBefore(before: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertColumnsBefore', [before, howMany], 2);
      return rowsOp(this, 'insertColumnsBefore', () => this.sheet.insertColumns(at, n));
    },
    insertColumnsAfter(after: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertColumnsAfter', [after, howMany], 2);
      return rowsOp(this, 'insertColumnsAfter', () => this.sheet.insertColumns(at + 1, n));
    },
    insertColumns(columnIndex: number, numColumns?: number) {
      const [at] = intArgs('Sheet', 'insertColumns', [columnIndex], 1);
      write('Sheet', 'insertColumns');
      this.sheet.insertColumns(at, numColumns === undefined ? 1 : Number(numColumns));
    },
    deleteColumn(column: number) {
      const [at] = intArgs('Sheet', 'deleteColumn', [column], 1);
      return rowsOp(this, 'deleteColumn', () => this.sheet.deleteColumns(at, 1));
    },
    deleteColumns(column: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'deleteColumns', [column, howMany], 2);
      write('Sheet', 'deleteColumns');
      this.sheet.deleteColumns(at, n);
    },
    appendRow(values: unknown) {
      write('Sheet', 'appendRow');
      if (!Array.isArray(values)) throw signatureError('Sheet', 'appendRow', [values]);
      values.forEach(checkCellLength);
      const row = this.sheet.lastRow() + 1;
      if (row > this.sheet.maxRows) this.sheet.insertRows(this.sheet.maxRows + 1, 1);
      if (values.length > this.sheet.maxColumns)
        this.sheet.insertColumns(this.sheet.maxColumns + 1, values.length - this.sheet.maxColumns);
      values.forEach((value, c) => writeScriptValue(this.sheet.ensureCell(row, c + 1), value, tz()));
      model.recordEdit(this.sheet, { row, column: 1, numRows: 1, numColumns: Math.max(1, values.length) });
      return wrapSheet(this.sheet);
    },
    clear() {
      write('Sheet', 'clear');
      this.sheet.forEachCell((cell) => {
        clearContent(cell);
        delete cell.numberFormat;
      });
      model.recordEdit(this.sheet, {
        row: 1,
        column: 1,
        numRows: this.sheet.maxRows,
        numColumns: this.sheet.maxColumns,
      });
      return wrapSheet(this.sheet);
    },
    clearContents() {
      write('Sheet', 'clearContents');
      this.sheet.forEachCell(clearContent);
      model.recordEdit(this.sheet, {
        row: 1,
        column: 1,
        numRows: this.sheet.maxRows,
        numColumns: this.sheet.maxColumns,
      });
      return wrapSheet(this.sheet);
    },
    clearNotes() {
      write('Sheet', 'clearNotes');
      this.sheet.forEachCell((cell) => delete cell.note);
      return wrapSheet(this.sheet);
    },
    hideSheet() {
      write('Sheet', 'hideSheet');
      this.sheet.hidden = true;
      return wrapSheet(this.sheet);
    },
    showSheet() {
      write('Sheet', 'showSheet');
      this.sheet.hidden = false;
      return wrapSheet(this.sheet);
    },
    setFrozenRows(rows: number) {
      write('Sheet', 'setFrozenRows');
      this.sheet.frozenRows = Number(rows);
    },
    setFrozenColumns(columns: number) {
      write('Sheet', 'setFrozenColumns');
      this.sheet.frozenColumns = Number(columns);
    },
    sort(columnPosition: number, ascending?: boolean) {
      write('Sheet', 'sort');
      const first = this.sheet.frozenRows + 1;
      const last = this.sheet.lastRow();
      if (last >= first) {
        this.sheet.sortRows({ row: first, column: 1, numRows: last - first + 1, numColumns: this.sheet.maxColumns }, [
          { column: Number(columnPosition), ascending: ascending !== false },
        ]);
      }
      return wrapSheet(this.sheet);
    },
    ...Object.fromEntries(
      [
        'autoResizeColumn',
        'autoResizeColumns',
        'setColumnWidth',
        'setColumnWidths',
        'setRowHeight',
        'setRowHeights',
        'hideColumns',
        'showColumns',
        'hideRows',
        'showRows',
        'setTabColor',
      ].map((name) => [
        name,
        function (this: SheetImpl) {
          write('Sheet', name);
          return wrapSheet(this.sheet);
        },
      ]),
    ),
  });

  // ---------- Selection ----------
  /** In a custom function the active sheet is the formula's sheet. */
  const activeSheet = () => options.formulaCell?.sheet ?? model.activeSheet;
  const activeRange = (sheet: SheetModel = activeSheet()) => {
    if (options.formulaCell) {
      const { sheet: fs, row, column } = options.formulaCell;
      return wrapRange({ sheet: fs, rect: { row, column, numRows: 1, numColumns: 1 } });
    }
    const sel = model.selection;
    if (sel && sel.sheet === sheet) return wrapRange({ sheet, rect: { ...sel.rect } });
    return wrapRange({ sheet, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } });
  };
  const setActiveRange = (range: unknown) => {
    const impl = Range.unwrap(range);
    if (!impl) throw signatureError('Spreadsheet', 'setActiveRange', [range]);
    model.activeSheet = impl.sheet;
    model.selection = { sheet: impl.sheet, rect: { ...impl.rect } };
    return wrapRange(impl);
  };
  const currentCell = () => {
    const range = Range.unwrap(activeRange())!;
    return wrapRange({
      sheet: range.sheet,
      rect: { row: range.rect.row, column: range.rect.column, numRows: 1, numColumns: 1 },
    });
  };
  // The user's selection as a list of ranges. The model keeps one rectangle (a Ctrl-click selection of several is
  // not modelled), so the list holds that one range.
  const RangeList = exec.define<object>('RangeList', {
    getRanges() {
      return [activeRange()];
    },
  });
  const Selection = exec.define<object>('Selection', {
    getActiveRange() {
      return activeRange();
    },
    getActiveRangeList() {
      return RangeList.wrap({});
    },
    getActiveSheet() {
      return wrapSheet(activeSheet());
    },
    getCurrentCell() {
      return currentCell();
    },
  });

  // ---------- Spreadsheet ----------
  const Spreadsheet: FacadeClass<{ model: SpreadsheetModel }> = exec.define<{ model: SpreadsheetModel }>(
    'Spreadsheet',
    {
      getId() {
        return model.id;
      },
      getName() {
        return model.name;
      },
      getUrl() {
        return model.url;
      },
      getSpreadsheetTimeZone() {
        return model.timeZone;
      },
      getSpreadsheetLocale() {
        return model.locale;
      },
      getOwner() {
        return User.wrap({ email: env.owner });
      },
      getSheets() {
        return model.sheets.map(wrapSheet);
      },
      getNumSheets() {
        return model.sheets.length;
      },
      getSheetByName(name: string) {
        const sheet = model.getSheet(String(name));
        return sheet ? wrapSheet(sheet) : null;
      },
      getSheetById(id: number) {
        const sheet = model.sheets.find((s) => s.sheetId === Number(id));
        return sheet ? wrapSheet(sheet) : null;
      },
      getActiveSheet() {
        return wrapSheet(activeSheet());
      },
      setActiveSheet(sheet: unknown) {
        const impl = Sheet.unwrap(sheet);
        if (!impl) throw signatureError('Spreadsheet', 'setActiveSheet', [sheet]);
        model.activeSheet = impl.sheet;
        return wrapSheet(impl.sheet);
      },
      getActiveRange() {
        return activeRange();
      },
      getActiveRangeList() {
        return RangeList.wrap({});
      },
      setActiveRange(range: unknown) {
        return setActiveRange(range);
      },
      getActiveCell() {
        return currentCell();
      },
      getCurrentCell() {
        return currentCell();
      },
      getSelection() {
        return Selection.wrap({});
      },
      getRange(a1: string) {
        if (typeof a1 !== 'string') throw signatureError('Spreadsheet', 'getRange', [a1]);
        return rangeFromA1(activeSheet(), a1);
      },
      getLastRow() {
        read('Spreadsheet', 'getLastRow');
        return activeSheet().lastRow();
      },
      getLastColumn() {
        read('Spreadsheet', 'getLastColumn');
        return activeSheet().lastColumn();
      },
      getDataRange() {
        read('Spreadsheet', 'getDataRange');
        return rangeFromRect(activeSheet(), activeSheet().dataRect());
      },
      getDeveloperMetadata() {
        read('Spreadsheet', 'getDeveloperMetadata');
        return model.metadata.filter((m) => m.location.type === 'SPREADSHEET').map(wrapMetadata);
      },
      createDeveloperMetadataFinder() {
        return newFinder({});
      },
      addDeveloperMetadata(...args: unknown[]) {
        write('Spreadsheet', 'addDeveloperMetadata');
        const { key, value, visibility } = metadataArgs(args);
        model.addMetadata(key, value, visibility, { type: 'SPREADSHEET' });
        return wrapSpreadsheet();
      },
      rename(name: string) {
        write('Spreadsheet', 'rename');
        model.name = String(name);
      },
      setSpreadsheetTimeZone(timeZone: string) {
        write('Spreadsheet', 'setSpreadsheetTimeZone');
        model.timeZone = String(timeZone);
      },
      insertSheet(...args: unknown[]) {
        write('Spreadsheet', 'insertSheet');
        let name: string | undefined;
        let index: number | undefined;
        if (typeof args[0] === 'string') {
          name = args[0];
          if (typeof args[1] === 'number') index = args[1];
        } else if (typeof args[0] === 'number') index = args[0];
        const sheet = model.insertSheet(name, index);
        model.activeSheet = sheet;
        return wrapSheet(sheet);
      },
      deleteSheet(sheet: unknown) {
        write('Spreadsheet', 'deleteSheet');
        const impl = Sheet.unwrap(sheet);
        if (!impl) throw signatureError('Spreadsheet', 'deleteSheet', [sheet]);
        model.deleteSheet(impl.sheet);
      },
      toast(...args: unknown[]) {
        recordToast(exec, env, args);
      },
    },
  );

  const User = exec.define<{ email: string }>('User', {
    getEmail() {
      return this.email;
    },
  });

  // ---------- SpreadsheetApp ----------
  const withData = (method: string) => exec.require('sheet.read', 'SpreadsheetApp', method);
  const App = exec.define<object>('SpreadsheetApp', {
    getActiveSpreadsheet() {
      withData('getActiveSpreadsheet');
      return wrapSpreadsheet();
    },
    getActive() {
      withData('getActive');
      return wrapSpreadsheet();
    },
    getActiveSheet() {
      withData('getActiveSheet');
      return wrapSheet(activeSheet());
    },
    setActiveSheet(sheet: unknown) {
      withData('setActiveSheet');
      const impl = Sheet.unwrap(sheet);
      if (!impl) throw signatureError('SpreadsheetApp', 'setActiveSheet', [sheet]);
      model.activeSheet = impl.sheet;
      return wrapSheet(impl.sheet);
    },
    getActiveRange() {
      withData('getActiveRange');
      return activeRange();
    },
    setActiveRange(range: unknown) {
      withData('setActiveRange');
      return setActiveRange(range);
    },
    getSelection() {
      withData('getSelection');
      return Selection.wrap({});
    },
    getCurrentCell() {
      withData('getCurrentCell');
      return currentCell();
    },
    openById(id: string) {
      if (exec.authMode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission('SpreadsheetApp.openById'));
      withData('openById');
      if (String(id) !== model.id) throw new GasError(Msg.openByIdFailed);
      return wrapSpreadsheet();
    },
    openByUrl(url: string) {
      if (exec.authMode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission('SpreadsheetApp.openByUrl'));
      withData('openByUrl');
      if (!String(url).includes(model.id)) throw new GasError(Msg.openByIdFailed);
      return wrapSpreadsheet();
    },
    getUi() {
      exec.require('ui', 'SpreadsheetApp', 'getUi');
      return options.ui();
    },
    newRichTextValue() {
      return richText.newBuilder();
    },
    newTextStyle() {
      return richText.newStyleBuilder();
    },
    flush() {
      return undefined;
    },
  });
  return {
    app: App.wrap(
      {},
      {
        DeveloperMetadataVisibility: Visibility,
        DeveloperMetadataLocationType: LocationType,
        Dimension,
        WrapStrategy,
        BorderStyle,
      },
    ),
    spreadsheet: wrapSpreadsheet,
    range: (sheet, rect) => wrapRange({ sheet, rect }),
  };
}
