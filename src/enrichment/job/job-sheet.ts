// Where a running job reads its sheet: the header row, then only the columns it needs (the domain column, and the
// field columns it did not add itself; all of them when rows moved), each run of nearby columns in one read, and the
// formulas of field columns that existed before the job (a formula that shows nothing is still the user's). The
// start hands over what it read (the whole grid) instead. The result is the sheet as this execution sees it.
import { locateColumns, normalizeHeader } from '../sheet/layout';
import { rowKeys, type RowKey } from '../sheet/job-view';
import type { EnrichSheet } from '../ports';
import type { EnrichJob } from './job-state';

/** Columns this far apart or nearer are read together (the cells between cost less than another read). */
const READ_GAP = 2;

/** The sheet as one execution of the job sees it. */
export interface SheetState {
  sheet: EnrichSheet;
  domainColumn: number;
  /** Each field's column now (1-based), in field order. */
  targets: number[];
  /** The domain cells by grid row (0: the header row), and their domains. */
  keys: unknown[];
  rowKeys: RowKey[];
  /** Cells read, by column: each column's values by grid row. */
  columns: Map<number, unknown[]>;
  /** Formulas of the field columns that existed before the job, by column. */
  formulas: Map<number, string[]>;
}

/** The field cells of a grid row, in field order ('' in a column not read). */
export function fieldCells(state: SheetState, index: number): unknown[] {
  return state.targets.map((column) => state.columns.get(column)?.[index] ?? '');
}

export function formulaAt(state: SheetState, index: number, column: number): string | undefined {
  return state.formulas.get(column)?.[index] || undefined;
}

/** Runs of nearby columns. */
function columnGroups(columns: number[]): Array<{ first: number; count: number }> {
  const sorted = [...new Set(columns)].sort((a, b) => a - b);
  const groups: Array<{ first: number; count: number }> = [];
  for (const column of sorted) {
    const last = groups[groups.length - 1];
    if (last && column - (last.first + last.count - 1) <= READ_GAP + 1) last.count = column - last.first + 1;
    else groups.push({ first: column, count: 1 });
  }
  return groups;
}

/** Reads `columns` over grid rows `from`..`to` (0-based, inclusive): one read per group, into a map by column. */
export function readColumns(
  sheet: EnrichSheet,
  columns: number[],
  from: number,
  to: number,
  read: 'values' | 'formulas' = 'values',
): Map<number, unknown[]> {
  const out = new Map<number, unknown[]>();
  if (to < from) return out;
  for (const group of columnGroups(columns)) {
    const area = { row: from + 1, column: group.first, numRows: to - from + 1, numColumns: group.count };
    const grid = read === 'values' ? sheet.readArea(area) : sheet.readFormulas(area);
    for (let c = 0; c < group.count; c++) {
      const values: unknown[] = [];
      for (let r = 0; r < grid.length; r++) values[from + r] = grid[r]?.[c] ?? '';
      out.set(group.first + c, values);
    }
  }
  return out;
}

/** Where the job's columns are now, from the header row; a message when one was removed or renamed. */
export function locateJobColumns(
  job: EnrichJob,
  header: unknown[],
): { domainColumn: number; targets: number[] } | { message: string } {
  if (job.headersPending) {
    // The added columns get their headers with the first save: until then they are where the job put them.
    if (normalizeHeader(header[job.domainColumn - 1]) !== normalizeHeader(job.domainHeader))
      return {
        message: `The domain column "${job.domainHeader}" was renamed or moved: restore it, or start a new enrichment.`,
      };
    return { domainColumn: job.domainColumn, targets: job.columns };
  }
  const located = locateColumns(header, job.domainColumn, job.domainHeader, job.headers);
  return located.ok ? { domainColumn: located.domainColumn, targets: located.targets } : { message: located.message };
}

/**
 * Reads the job's sheet: the header row, then the domain column with the field columns the job did not add (and those
 * it added when `allFields`), and the formulas of the field columns that existed before the job.
 */
export function readJobSheet(sheet: EnrichSheet, job: EnrichJob, allFields: boolean): SheetState | { message: string } {
  const last = sheet.lastRow();
  const located = locateJobColumns(job, sheet.readHeader());
  if ('message' in located) return located;
  const kept = located.targets.filter((_column, i) => !job.added[i]);
  const columns = readColumns(
    sheet,
    [located.domainColumn, ...(allFields ? located.targets : kept)],
    0,
    Math.max(0, last - 1),
  );
  const keys = columns.get(located.domainColumn) ?? [];
  const formulas = job.overwrite
    ? new Map()
    : (readColumns(sheet, kept, 0, Math.max(0, last - 1), 'formulas') as Map<number, string[]>);
  return { sheet, ...located, keys, rowKeys: rowKeys(keys), columns, formulas };
}

/** Reads the field columns the job added (when rows moved, to tell written rows from empty ones). */
export function readAddedColumns(state: SheetState, job: EnrichJob): void {
  const added = state.targets.filter((column, i) => job.added[i] && !state.columns.has(column));
  for (const [column, values] of readColumns(state.sheet, added, 0, Math.max(0, state.keys.length - 1)))
    state.columns.set(column, values);
}

/** The state of the grid the start read whole (`values`, row 1 first). */
export function stateFromGrid(
  sheet: EnrichSheet,
  job: EnrichJob,
  values: unknown[][],
  formulas: Map<number, string[]>,
): SheetState {
  const columns = new Map<number, unknown[]>();
  const wanted = [job.domainColumn, ...job.columns.filter((_column, i) => !job.added[i])];
  for (const column of wanted)
    columns.set(
      column,
      values.map((row) => row[column - 1] ?? ''),
    );
  const keys = columns.get(job.domainColumn) ?? [];
  return {
    sheet,
    domainColumn: job.domainColumn,
    targets: job.columns,
    keys,
    rowKeys: rowKeys(keys),
    columns,
    formulas,
  };
}
