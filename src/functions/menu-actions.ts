// The two menu actions for formulas. "Freeze formulas to values" replaces the selected Sheet Scout formulas and the
// results they spilled with their current values (escaped so a company called "=cmd|..." stays text), so sorting,
// reopening or sharing the sheet never re-runs them. "Refresh pending lookups" finds the formulas whose results
// still say Pending, Enriching or an error a new run can get past (service recovered, token fixed), fetches their
// lookups into the shared cache with a menu execution's longer time budget, and re-enters those formulas so Sheets
// recalculates them from the cache.
import { safeText, type CellValue } from '../shared/cell-values';
import { CELL_TEXT, isUnfinishedCellText } from './cell-text';
import type { FormulaEnv } from './ports';
import {
  callsSheetScout,
  parseSheetScoutCall,
  withRefreshMark,
  type ParsedArg,
  type ParsedCall,
} from './formula-parse';
import { formulaLookupKeys, lookupInputs, resolveLookups } from './lookup';
import { parseFieldList } from '../companies/profile-fields';
import { cellsOf, isBlank } from './arguments';
import { SEARCH_COLUMNS } from './search';

/** Cell-level access to one sheet (rows and columns are 1-based). */
export interface FormulaSheet {
  /** Formulas and values of the sheet from A1 to its last used row and column (one read each). */
  readGrid(): { formulas: string[][]; values: unknown[][] };
  /** Values of an A1 reference as a custom function receives them (a single cell gives its value), or null. */
  readReference(a1: string): unknown;
  writeValues(row: number, column: number, values: CellValue[][]): void;
  /** Clears each formula's result area, then enters the formula again so Sheets evaluates it anew. */
  reenterFormulas(cells: Array<{ area: Rect; formula: string }>): void;
}

export interface Rect {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

export interface FormulaBook {
  activeSheet(): FormulaSheet;
  /** The selected ranges of the active sheet. */
  selection(): Rect[];
  sheets(): FormulaSheet[];
}

interface Grid {
  formulas: string[][];
  values: unknown[][];
}

function cellFormula(grid: Grid, row: number, column: number): string {
  return grid.formulas[row - 1]?.[column - 1] ?? '';
}

function cellValue(grid: Grid, row: number, column: number): unknown {
  return grid.values[row - 1]?.[column - 1] ?? '';
}

function argValue(arg: ParsedArg | undefined, sheet: FormulaSheet): unknown {
  if (!arg || arg.kind === 'omitted') return undefined;
  if (arg.kind === 'literal') return arg.value;
  if (arg.kind === 'ref') return sheet.readReference(arg.a1);
  return undefined;
}

/** Rows and columns COMPANY_LOOKUP spilled, worked out from its arguments; null when they cannot be read. */
function lookupSize(call: ParsedCall, sheet: FormulaSheet): { rows: number; columns: number } | null {
  if (call.args[0]?.kind !== 'ref' && call.args[0]?.kind !== 'literal') return null;
  if (call.args.slice(1).some((arg) => arg.kind === 'other')) return null;
  const inputs = lookupInputs(argValue(call.args[0], sheet));
  const names = cellsOf(argValue(call.args[1], sheet))
    .filter((cell) => !isBlank(cell))
    .map(String)
    .join(',');
  const fields = parseFieldList(names);
  const header = argValue(call.args[2], sheet);
  const withHeader =
    header === true ||
    (typeof header === 'number' && header !== 0) ||
    (typeof header === 'string' && ['true', 'yes', '1'].includes(header.trim().toLowerCase()));
  return { rows: Math.max(1, inputs.length + (withHeader ? 1 : 0)), columns: fields.ok ? fields.fields.length : 1 };
}

/** Cells right of and below the anchor that hold values (not formulas), up to `limit`. */
function filledRun(grid: Grid, row: number, column: number, direction: 'right' | 'down', limit: number): number {
  let count = 1;
  while (count < limit) {
    const r = direction === 'down' ? row + count : row;
    const c = direction === 'right' ? column + count : column;
    if (cellFormula(grid, r, c) !== '' || isBlank(cellValue(grid, r, c))) break;
    count++;
  }
  return count;
}

/**
 * The area a Sheet Scout formula's result covers. COMPANY_LOOKUP's size follows from its arguments (its rows can
 * be blank); a search result has a full header row and a domain in every row. Never reaches into another formula.
 */
export function resultArea(grid: Grid, row: number, column: number, sheet: FormulaSheet): Rect {
  const formula = cellFormula(grid, row, column);
  const call = parseSheetScoutCall(formula);
  const maxRows = Math.max(1, grid.values.length - row + 1);
  const maxColumns = Math.max(1, (grid.values[row - 1]?.length ?? 1) - column + 1);
  let rows: number;
  let columns: number;
  const size = call?.name === 'COMPANY_LOOKUP' ? lookupSize(call, sheet) : null;
  if (size) {
    rows = Math.min(size.rows, maxRows);
    columns = Math.min(size.columns, maxColumns);
  } else {
    columns = filledRun(grid, row, column, 'right', call ? SEARCH_COLUMNS.length : maxColumns);
    rows = filledRun(grid, row, column, 'down', maxRows);
  }
  // A spill never covers another formula: stop before the first one.
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if ((r > 0 || c > 0) && cellFormula(grid, row + r, column + c) !== '') {
        if (r === 0) columns = c;
        else rows = r;
      }
    }
  }
  return { row, column, rows, columns };
}

const ERROR_VALUE = /^#(REF!|ERROR!|N\/A|VALUE!|NAME\?|DIV\/0!|NUM!|NULL!)/;

/** A value read from a cell, ready to be written back as a plain value (text that would parse is escaped). */
function frozenValue(value: unknown): CellValue {
  if (value instanceof Date) return value as unknown as CellValue;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === null || value === undefined) return '';
  return safeText(String(value));
}

export interface FreezeSummary {
  formulas: number;
  cells: number;
  /** Formulas left alone because they show an error (e.g. #REF! when their result could not spill). */
  skipped: number;
  /** Frozen cells that had no final answer yet (Pending, Enriching, or an error a later run could get past). */
  unfinishedCells: number;
}

/** Freezes the Sheet Scout formulas whose cell is in the selection, with everything they spilled. */
export function freezeSelection(book: FormulaBook): FreezeSummary {
  const sheet = book.activeSheet();
  const grid = sheet.readGrid();
  const summary: FreezeSummary = { formulas: 0, cells: 0, skipped: 0, unfinishedCells: 0 };
  const areas: Rect[] = [];
  for (const selected of book.selection()) {
    for (let row = selected.row; row < selected.row + selected.rows; row++) {
      for (let column = selected.column; column < selected.column + selected.columns; column++) {
        if (!callsSheetScout(cellFormula(grid, row, column))) continue;
        if (areas.some((area) => area.row === row && area.column === column)) continue;
        if (ERROR_VALUE.test(String(cellValue(grid, row, column)))) {
          summary.skipped++;
          continue;
        }
        areas.push(resultArea(grid, row, column, sheet));
      }
    }
  }
  for (const area of areas) {
    const values: CellValue[][] = [];
    for (let r = 0; r < area.rows; r++) {
      const line: CellValue[] = [];
      for (let c = 0; c < area.columns; c++) {
        const value = cellValue(grid, area.row + r, area.column + c);
        if (typeof value === 'string' && isUnfinishedCellText(value)) summary.unfinishedCells++;
        line.push(frozenValue(value));
      }
      values.push(line);
    }
    sheet.writeValues(area.row, area.column, values);
    summary.formulas++;
    summary.cells += area.rows * area.columns;
  }
  return summary;
}

export function freezeMessage(summary: FreezeSummary): string {
  if (summary.formulas === 0 && summary.skipped === 0) {
    return 'No Sheet Scout formulas in the selection: select the cells holding =COMPANY_LOOKUP, =SIMILAR or =COMPANY_SEARCH';
  }
  const parts = [
    `Froze ${summary.formulas} formula${summary.formulas === 1 ? '' : 's'} (${summary.cells} cells) to values`,
  ];
  if (summary.skipped > 0) parts.push(`skipped ${summary.skipped} showing an error`);
  if (summary.unfinishedCells > 0)
    parts.push(`${summary.unfinishedCells} cells had no final answer yet (pending or error)`);
  return parts.join('; ');
}

export interface RefreshSummary {
  /** Formulas re-entered. */
  formulas: number;
  /** Lookups fetched into the cache beforehand. */
  prefetched: number;
  /** Lookups the time budget did not reach (the formula then fetches or says Pending again). */
  stillPending: number;
}

/** Whether a cell of a formula's result area shows a text `matches` accepts. */
function areaShows(grid: Grid, row: number, column: number, area: Rect, matches: (text: string) => boolean): boolean {
  for (let r = 0; r < area.rows; r++)
    for (let c = 0; c < area.columns; c++) {
      const value = cellValue(grid, row + r, column + c);
      if (typeof value === 'string' && matches(value)) return true;
    }
  return false;
}

/**
 * Enters again the Sheet Scout formulas (all sheets) that showed they could not use a token, once one is shared:
 * Sheets then runs them with it. Sends nothing itself (the formulas look up as they recalculate). Returns how many.
 */
export function reenterTokenless(book: FormulaBook): number {
  let count = 0;
  for (const sheet of book.sheets()) {
    const cells = formulasShowing(sheet, (text) => text === CELL_TEXT.setup).map(({ area, formula }) => ({
      area,
      formula: withRefreshMark(formula),
    }));
    if (cells.length > 0) sheet.reenterFormulas(cells);
    count += cells.length;
  }
  return count;
}

/** The sheet's Sheet Scout formulas (with their result areas) of which a result cell shows a text `matches` accepts. */
function formulasShowing(
  sheet: FormulaSheet,
  matches: (text: string) => boolean,
): Array<{ area: Rect; formula: string }> {
  const grid = sheet.readGrid();
  const found: Array<{ area: Rect; formula: string }> = [];
  grid.formulas.forEach((line, index) =>
    line.forEach((formula, columnIndex) => {
      if (!callsSheetScout(formula)) return;
      const area = resultArea(grid, index + 1, columnIndex + 1, sheet);
      if (areaShows(grid, index + 1, columnIndex + 1, area, matches)) found.push({ area, formula });
    }),
  );
  return found;
}

/**
 * Re-runs the Sheet Scout formulas (all sheets) whose result shows Pending, Enriching or an error a new run can get
 * past (isUnfinishedCellText). The lookups of plain COMPANY_LOOKUP calls are fetched first into the shared cache, so
 * even a range too large for one 30-second formula run completes.
 */
export function refreshPending(book: FormulaBook, env: FormulaEnv): RefreshSummary {
  const summary: RefreshSummary = { formulas: 0, prefetched: 0, stillPending: 0 };
  const work: Array<{ sheet: FormulaSheet; cells: Array<{ area: Rect; formula: string }> }> = [];
  const keys: string[] = [];
  for (const sheet of book.sheets()) {
    const cells: Array<{ area: Rect; formula: string }> = [];
    for (const { area, formula } of formulasShowing(sheet, isUnfinishedCellText)) {
      cells.push({ area, formula: withRefreshMark(formula) });
      const call = parseSheetScoutCall(formula);
      if (call?.name === 'COMPANY_LOOKUP' && (call.args[0]?.kind === 'ref' || call.args[0]?.kind === 'literal')) {
        keys.push(...formulaLookupKeys(lookupInputs(argValue(call.args[0], sheet))));
      }
    }
    if (cells.length > 0) work.push({ sheet, cells });
  }
  if (keys.length > 0) {
    const run = resolveLookups(keys, env);
    summary.prefetched = run.fetched;
    summary.stillPending = run.pending;
  }
  for (const { sheet, cells } of work) {
    sheet.reenterFormulas(cells);
    summary.formulas += cells.length;
  }
  return summary;
}

export function refreshMessage(summary: RefreshSummary): string {
  if (summary.formulas === 0) return 'No pending Sheet Scout formulas';
  const fetched =
    summary.prefetched > 0 ? ` (${summary.prefetched} lookup${summary.prefetched === 1 ? '' : 's'} fetched)` : '';
  const base = `Refreshed ${summary.formulas} formula${summary.formulas === 1 ? '' : 's'}${fetched}`;
  return summary.stillPending > 0
    ? `${base}; ${summary.stillPending} lookups are still pending: run Refresh again`
    : base;
}
