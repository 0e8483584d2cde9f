// The shared scope of the emulator's SpreadsheetApp classes (one per execution): the model and execution, the counted
// reads and writes, the enums, cell and range helpers, the active sheet and selection, and a registry of the facade
// classes (filled as each is defined; the helpers reach them only when called, after every class exists).
import { GasError, Msg } from '../errors';
import type { Capability } from '../execution';
import { enumName, type FacadeClass, makeEnum } from '../realm';
import type { ServiceContext } from '../state/env';
import { type A1Reference, type GridRect, parseA1, resolveA1 } from './a1';
import {
  type Cell,
  clearContent,
  type DeveloperMetadataRecord,
  type MetadataVisibility,
  type SheetModel,
  type SortSpec,
  type SpreadsheetModel,
  writeInput,
} from './model';
import { defineRichText } from './rich-text';
import { type CellValue, DEFAULT_DATETIME_FORMAT } from './values';
import { SHEET } from '../costs';

export const CELL_CHARACTER_LIMIT = 50_000;

/** What the execution gives SpreadsheetApp (service.ts) beyond its context. */
export interface SpreadsheetAppOptions {
  /** For custom-function executions: the cell whose formula is being evaluated. */
  formulaCell?: { sheet: SheetModel; row: number; column: number };
  ui: () => Record<string, unknown>;
}

export interface RangeImpl {
  sheet: SheetModel;
  rect: GridRect;
  /** Created from "A:C" / "2:5" notation or a row/column location: printed that way by getA1Notation. */
  wholeColumns?: boolean;
  wholeRows?: boolean;
}

export interface SheetImpl {
  sheet: SheetModel;
}

export interface FinderImpl {
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
export function signatureError(className: string, method: string, args: unknown[]): GasError {
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

export const isDate = (v: unknown): v is Date =>
  v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object Date]';

export function intArgs(className: string, method: string, args: unknown[], count: number): number[] {
  const out = args.slice(0, count).map(Number);
  if (args.length < count || args.slice(0, count).some((a) => typeof a !== 'number' || !Number.isFinite(a))) {
    throw signatureError(className, method, args);
  }
  return out.map((n) => Math.trunc(n));
}

/** Checks a 2-D array against a range's size, with Google's messages. */
export function checkGrid(className: string, method: string, values: unknown, rect: GridRect): unknown[][] {
  if (!Array.isArray(values) || !values.every((line) => Array.isArray(line)))
    throw signatureError(className, method, [values]);
  if (values.length !== rect.numRows) throw new GasError(Msg.rowsMismatch(values.length, rect.numRows));
  for (const line of values as unknown[][]) {
    if (line.length !== rect.numColumns) throw new GasError(Msg.columnsMismatch(line.length, rect.numColumns));
  }
  return values as unknown[][];
}

export function checkCellLength(value: unknown): void {
  if (typeof value === 'string' && value.length > CELL_CHARACTER_LIMIT) throw new GasError(Msg.cellTooLong);
}

/** Writes one script value into a cell the way setValue does. */
export function writeScriptValue(cell: Cell, value: unknown, timeZone: string): void {
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

export function metadataInScope(
  record: DeveloperMetadataRecord,
  scope: FinderImpl['scope'],
  intersecting: boolean,
): boolean {
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

/** The facade classes, by name. */
export interface Classes {
  Range: FacadeClass<RangeImpl>;
  Sheet: FacadeClass<SheetImpl>;
  Spreadsheet: FacadeClass<{ model: SpreadsheetModel }>;
  Metadata: FacadeClass<{ record: DeveloperMetadataRecord }>;
  Location: FacadeClass<{ record: DeveloperMetadataRecord }>;
  Finder: FacadeClass<FinderImpl>;
  RangeList: FacadeClass<object>;
  Selection: FacadeClass<object>;
  User: FacadeClass<{ email: string }>;
}

export function createScope(context: ServiceContext, options: SpreadsheetAppOptions) {
  const classes = {} as Classes;
  const { env, exec } = context;
  const { realm } = exec;
  const model = env.spreadsheet;
  const tz = () => model.timeZone;
  const io = (capability: Capability, className: string, method: string) => {
    exec.require(capability, className, method);
    if (capability === 'sheet.read') {
      env.counters.sheet.reads++;
      // A read commits the buffered writes first (costs.ts).
      exec.commitSheetWrites();
      exec.charge(SHEET.read.ms, 'sheet.read');
    } else if (capability === 'sheet.write') {
      env.counters.sheet.writes++;
      exec.sheetWritesPending = true;
      exec.charge(SHEET.write.ms, 'sheet.write');
    }
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
  const wrapRange = (impl: RangeImpl) => classes.Range.wrap(impl);
  const wrapSheet = (sheet: SheetModel) => classes.Sheet.wrap({ sheet });
  const wrapSpreadsheet = () => classes.Spreadsheet.wrap({ model });

  const cells = (impl: RangeImpl, fn: (cell: Cell, row: number, column: number) => void) => {
    const { rect, sheet } = impl;
    for (let r = 0; r < rect.numRows; r++)
      for (let c = 0; c < rect.numColumns; c++)
        fn(sheet.ensureCell(rect.row + r, rect.column + c), rect.row + r, rect.column + c);
    exec.charge(rect.numRows * rect.numColumns * SHEET.writePerCell.ms, 'sheet.cells');
    exec.pendingWriteCells += rect.numRows * rect.numColumns;
    const written = env.counters.sheet.cellsWrittenBySheet;
    written[sheet.name] = (written[sheet.name] ?? 0) + rect.numRows * rect.numColumns;
    model.recordEdit(sheet, rect);
  };
  const top = (impl: RangeImpl) => impl.sheet.cell(impl.rect.row, impl.rect.column);
  /** A range's cells as a 2-D array (each a cell read: counted in `counters.sheet.cells`, and per sheet). */
  const grid = <T>(impl: RangeImpl, fn: (cell: Cell | undefined) => T) => {
    const cells = impl.rect.numRows * impl.rect.numColumns;
    const { sheet } = env.counters;
    exec.charge(cells * SHEET.readPerCell.ms, 'sheet.cells');
    sheet.cells += cells;
    sheet.cellsBySheet[impl.sheet.name] = (sheet.cellsBySheet[impl.sheet.name] ?? 0) + cells;
    return impl.sheet.mapRect(impl.rect, fn);
  };
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
    const impl = classes.Range.unwrap(range);
    if (!impl) throw signatureError('Spreadsheet', 'setActiveRange', [range]);
    model.activeSheet = impl.sheet;
    model.selection = { sheet: impl.sheet, rect: { ...impl.rect } };
    return wrapRange(impl);
  };
  const currentCell = () => {
    const range = classes.Range.unwrap(activeRange())!;
    return wrapRange({
      sheet: range.sheet,
      rect: { row: range.rect.row, column: range.rect.column, numRows: 1, numColumns: 1 },
    });
  };
  const wrapMetadata = (record: DeveloperMetadataRecord): Record<string, unknown> => classes.Metadata.wrap({ record });
  const newFinder = (scope: FinderImpl['scope']) => {
    const impl: FinderImpl = { scope, intersecting: false };
    impl.facade = classes.Finder.wrap(impl);
    return impl.facade;
  };
  return {
    env,
    exec,
    realm,
    model,
    tz,
    read,
    write,
    Visibility,
    LocationType,
    Dimension,
    WrapStrategy,
    BorderStyle,
    richText,
    wrapRange,
    wrapSheet,
    wrapSpreadsheet,
    cells,
    top,
    grid,
    richOf,
    rangeFromRect,
    rangeFromA1,
    visibilityArg,
    metadataArgs,
    sortSpecs,
    wrapMetadata,
    newFinder,
    activeSheet,
    activeRange,
    setActiveRange,
    currentCell,
    classes,
    options,
  };
}

export type Scope = ReturnType<typeof createScope>;
