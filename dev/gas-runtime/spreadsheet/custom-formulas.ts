// Custom-function formulas in cells: finds the formula cells touched by edits (the cell itself, its
// reference arguments, its spill area), evaluates `=NAME(args)` as one custom-function execution with
// literal, cell and range arguments, spills array results below/right (#REF! with Sheets' message when
// data is in the way), shows #ERROR!/#NAME? with hover text, and follows changed values to dependents.
import { GasError, GasExecutionError, Msg } from '../errors';
import { cellA1, GridRect } from './a1';
import { FormulaArg, parseFormula } from './formulas';
import { Cell, SheetModel, SpreadsheetModel } from './model';
import { CellValue } from './values';

interface FormulaCell {
  sheet: SheetModel;
  row: number;
  column: number;
  cell: Cell;
}

interface ValueChange {
  sheet: SheetModel;
  rect: GridRect;
  /** The formula cell whose evaluation produced the change (it does not depend on itself). */
  source: Cell;
}

interface FormulaState {
  /** Last array result, kept to re-spill after edits near the formula without calling the function again. */
  result: CellValue[][];
}

/** Runs one custom-function execution; throws GasExecutionError when it fails. */
export type CustomFunctionRunner = (
  name: string,
  args: unknown[],
  cell: { sheet: SheetModel; row: number; column: number },
  user: string,
) => unknown;

export class CustomFormulaEngine {
  private readonly states = new WeakMap<Cell, FormulaState>();
  private recalculating = false;
  /** Results by function and argument values, when Sheets reuses them (the behaviours option). */
  private readonly reused = new Map<string, unknown>();

  constructor(
    private readonly model: SpreadsheetModel,
    private readonly functionNames: readonly string[],
    private readonly runCustomFunction: CustomFunctionRunner,
    /** Whether a call with the same function and argument values gets the earlier result without running. */
    private readonly reuseIdenticalResults = false,
  ) {}

  /** True while a recalculation is running (its own executions must not start another). */
  get busy(): boolean {
    return this.recalculating;
  }

  /**
   * Evaluates custom-function formulas: those in edited cells, those whose arguments reference edited
   * cells or cells whose computed values changed (repeatedly, as results spill), and re-spills array
   * results whose area was edited. With `all`, every formula is evaluated again ("reopening the file").
   */
  recalculate(opts: { all?: boolean; user: string }): void {
    if (this.recalculating) return;
    this.recalculating = true;
    try {
      let edits = this.model.drainEdits();
      let changes: ValueChange[] = [];
      let everything = opts.all === true;
      for (let pass = 0; pass < 50 && (everything || edits.length > 0 || changes.length > 0); pass++) {
        const formulas = this.formulaCells();
        const toEvaluate = formulas.filter(
          (f) =>
            everything ||
            edits.some(
              (e) =>
                (e.sheet === f.sheet && CustomFormulaEngine.intersects(CustomFormulaEngine.cellRect(f), e.rect)) ||
                this.refsTouch(f, e),
            ) ||
            changes.some((c) => c.source !== f.cell && this.refsTouch(f, c)),
        );
        const toRespill = formulas.filter(
          (f) => !toEvaluate.includes(f) && edits.some((e) => e.sheet === f.sheet && this.spillTouches(f, e.rect)),
        );
        everything = false;
        const next: ValueChange[] = [];
        for (const f of toEvaluate)
          next.push(...this.evaluateFormula(f, opts.user).map((c) => ({ ...c, source: f.cell })));
        for (const f of toRespill)
          next.push(...this.spill(f, this.states.get(f.cell)?.result).map((c) => ({ ...c, source: f.cell })));
        edits = this.model.drainEdits();
        changes = next;
      }
    } finally {
      this.recalculating = false;
    }
  }

  private static cellRect(f: { row: number; column: number }): GridRect {
    return { row: f.row, column: f.column, numRows: 1, numColumns: 1 };
  }

  /** Formula cells of all sheets; also clears values left behind by formulas that were overwritten. */
  private formulaCells(): FormulaCell[] {
    const out: FormulaCell[] = [];
    for (const sheet of this.model.sheets) {
      sheet.forEachCell((cell, row, column) => {
        if (cell.formula !== undefined) out.push({ sheet, row, column, cell });
        if (cell.spilledFrom && cell.spilledFrom.formula === undefined) {
          cell.value = '';
          delete cell.spilledFrom;
        }
      });
    }
    return out;
  }

  private static intersects(a: GridRect, b: GridRect): boolean {
    return (
      a.row <= b.row + b.numRows - 1 &&
      b.row <= a.row + a.numRows - 1 &&
      a.column <= b.column + b.numColumns - 1 &&
      b.column <= a.column + a.numColumns - 1
    );
  }

  /** Whether a change on a sheet touches one of the formula's reference arguments. */
  private refsTouch(f: FormulaCell, change: { sheet: SheetModel; rect: GridRect }): boolean {
    const parsed = parseFormula(f.cell.formula!);
    if (!parsed) return false;
    const args = parsed.kind === 'call' ? parsed.args : [parsed.arg];
    return args.some((arg) => {
      if (arg.kind !== 'ref' || arg.broken) return false;
      const target = this.refTarget(arg, f.sheet);
      return (
        target !== undefined &&
        target.sheet === change.sheet &&
        CustomFormulaEngine.intersects(target.rect, change.rect)
      );
    });
  }

  private spillTouches(f: FormulaCell, rect: GridRect): boolean {
    const result = this.states.get(f.cell)?.result;
    if (!result || (result.length <= 1 && (result[0]?.length ?? 0) <= 1)) return false;
    return CustomFormulaEngine.intersects(
      { row: f.row, column: f.column, numRows: result.length, numColumns: Math.max(...result.map((r) => r.length)) },
      rect,
    );
  }

  private refTarget(
    arg: Extract<FormulaArg, { kind: 'ref' }>,
    own: SheetModel,
  ): { sheet: SheetModel; rect: GridRect } | undefined {
    const sheet = arg.sheetName === undefined ? own : this.model.getSheet(arg.sheetName);
    if (!sheet) return undefined;
    const row = arg.startRow ?? 1;
    const column = arg.startColumn ?? 1;
    const endRow = arg.endRow ?? (arg.startRow === undefined || arg.startColumn !== undefined ? sheet.maxRows : row);
    const endColumn = arg.endColumn ?? sheet.maxColumns;
    return {
      sheet,
      rect: { row, column, numRows: Math.max(1, endRow - row + 1), numColumns: Math.max(1, endColumn - column + 1) },
    };
  }

  private setError(cell: Cell, value: string, message: string): void {
    cell.value = value;
    cell.error = message;
  }

  /** Evaluates one formula cell; returns the rectangles whose values changed (for dependents). */
  private evaluateFormula(f: FormulaCell, user: string): Array<{ sheet: SheetModel; rect: GridRect }> {
    const { cell } = f;
    const parsed = parseFormula(cell.formula!);
    const own = [{ sheet: f.sheet, rect: { row: f.row, column: f.column, numRows: 1, numColumns: 1 } }];
    if (!parsed) {
      this.clearSpill(f);
      this.setError(
        cell,
        '#NAME?',
        'The emulator evaluates custom functions with literal and reference arguments only.',
      );
      return own;
    }
    const argValue = (arg: FormulaArg): unknown => {
      if (arg.kind === 'literal') return arg.value;
      if (arg.kind === 'omitted') return '';
      if (arg.broken) throw new GasError('#REF!');
      const target = this.refTarget(arg, f.sheet);
      if (!target) throw new GasError('#REF!');
      const values = target.sheet.mapRect(target.rect, (c) => c?.value ?? '');
      return arg.single ? values[0][0] : values;
    };
    let result: unknown;
    try {
      if (parsed.kind === 'value') {
        result = argValue(parsed.arg);
      } else {
        const fnName = this.functionNames.find(
          (n) => n.toUpperCase() === parsed.functionName.toUpperCase() && !n.endsWith('_'),
        );
        if (!fnName) {
          this.clearSpill(f);
          this.setError(cell, '#NAME?', `Unknown function: '${parsed.functionName}'.`);
          return own;
        }
        const args = parsed.args.map(argValue);
        const key = `${fnName.toUpperCase()}\0${JSON.stringify(args)}`;
        if (this.reuseIdenticalResults && this.reused.has(key)) result = this.reused.get(key);
        else {
          result = this.runCustomFunction(fnName, args, { sheet: f.sheet, row: f.row, column: f.column }, user);
          if (this.reuseIdenticalResults) this.reused.set(key, result);
        }
      }
    } catch (error) {
      this.clearSpill(f);
      if (error instanceof GasError && error.message === '#REF!')
        this.setError(cell, '#REF!', 'Reference does not exist.');
      else if (error instanceof GasExecutionError && error.timedOut)
        this.setError(cell, '#ERROR!', `${Msg.exceededTime} (line 0).`);
      else this.setError(cell, '#ERROR!', (error as Error).message);
      this.states.delete(cell);
      return own;
    }
    const grid = CustomFormulaEngine.toGrid(result);
    this.states.set(cell, { result: grid });
    return this.spill(f, grid);
  }

  /** Normalises a custom function's return value to a 2-D array of cell values. */
  private static toGrid(result: unknown): CellValue[][] {
    const scalar = (v: unknown): CellValue => {
      if (v === null || v === undefined) return '';
      if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v instanceof Date) return v;
      return JSON.stringify(v);
    };
    if (!Array.isArray(result)) return [[scalar(result)]];
    if (result.length === 0) return [['']];
    if (result.every((r) => !Array.isArray(r))) return result.map((v) => [scalar(v)]);
    return result.map((r) => (Array.isArray(r) ? (r.length ? r.map(scalar) : ['']) : [scalar(r)]));
  }

  private clearSpill(f: FormulaCell): Array<{ sheet: SheetModel; rect: GridRect }> {
    const area = f.cell.spill;
    if (!area) return [];
    for (let r = 0; r < area.rows; r++) {
      for (let c = 0; c < area.columns; c++) {
        if (r === 0 && c === 0) continue;
        const other = f.sheet.cell(f.row + r, f.column + c);
        if (other?.spilledFrom === f.cell) {
          other.value = '';
          delete other.spilledFrom;
        }
      }
    }
    delete f.cell.spill;
    return [{ sheet: f.sheet, rect: { row: f.row, column: f.column, numRows: area.rows, numColumns: area.columns } }];
  }

  /** Writes an array result into the formula cell and the cells below/right, unless they hold data. */
  private spill(f: FormulaCell, grid: CellValue[][] | undefined): Array<{ sheet: SheetModel; rect: GridRect }> {
    if (!grid) return [];
    const changed = this.clearSpill(f);
    const rows = grid.length;
    const columns = Math.max(...grid.map((r) => r.length));
    const { sheet, cell } = f;
    if (f.row + rows - 1 > sheet.maxRows || f.column + columns - 1 > sheet.maxColumns) {
      this.setError(cell, '#REF!', 'Array result was not expanded because it would extend past the edge of the sheet.');
      return [...changed, { sheet, rect: { row: f.row, column: f.column, numRows: 1, numColumns: 1 } }];
    }
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        if (r === 0 && c === 0) continue;
        const other = sheet.cell(f.row + r, f.column + c);
        if (other && (other.value !== '' || other.formula !== undefined)) {
          this.setError(
            cell,
            '#REF!',
            `Array result was not expanded because it would overwrite data in ${cellA1(f.row + r, f.column + c)}.`,
          );
          return [...changed, { sheet, rect: { row: f.row, column: f.column, numRows: 1, numColumns: 1 } }];
        }
      }
    }
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const value = grid[r][c] ?? '';
        if (r === 0 && c === 0) {
          cell.value = value;
          delete cell.error;
          continue;
        }
        const other = sheet.ensureCell(f.row + r, f.column + c);
        other.value = value;
        other.spilledFrom = cell;
      }
    }
    if (rows > 1 || columns > 1) cell.spill = { rows, columns };
    return [...changed, { sheet, rect: { row: f.row, column: f.column, numRows: rows, numColumns: columns } }];
  }
}
