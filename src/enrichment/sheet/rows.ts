// The rows of an enrichment as the sheet holds them right now: each data row's domain (or why it has none) and
// whether its field cells still need a value; and the batched writes that put results into the rows whose domain they
// belong to at write time. The domain value in the sheet is the row identity: a sort, insert or delete between two
// chunks cannot misdirect a result. A row the job finished is recognised from the sheet alone (see rowNeedsValues), so
// a re-run sends nothing for it, however long ago it ran and whatever the cache still holds. Pure.
import { parseDomain, invalidDomainMessage } from '../../shared/domain';
import { safeText, toCellValue, type CellValue } from '../../shared/cell-values';
import type { ProfileField, ProfileValues } from '../../companies/profile-fields';

/** Cell texts the job writes for rows without a profile. */
export const NOT_FOUND_TEXT = 'Not found: no company profile for this domain';
/** Written in the first field column when the profile has none of the chosen fields, so the row reads as done. */
export const NO_DATA_TEXT = 'No data: the company profile has none of these fields';
/** Marks left by a job for rows to retry: a later run treats these cells as empty. */
export const ENRICHING_TEXT = 'Still enriching at the service: run the enrichment again later';
export const FAILED_PREFIX = 'Lookup failed: ';

export type RowOutcome =
  | { kind: 'profile'; values: ProfileValues }
  | { kind: 'not_found' }
  | { kind: 'enriching' }
  | { kind: 'failed'; message: string };

export interface RowsSnapshot {
  /** Data rows (below the header row). */
  rows: number;
  blank: number;
  invalid: number;
  /** Rows with a domain that need no values (see rowNeedsValues; skipped unless overwriting). */
  alreadyFilled: number;
  /** Rows with a domain. */
  withDomain: number;
  /** Rows per domain, all of them. */
  rowsByDomain: Map<string, number[]>;
  /** Domains with at least one row that still needs values, sorted. */
  pending: string[];
  /** How many rows need values, per pending domain. */
  pendingRows: Map<string, number>;
  /** Invalid rows (0-based grid index) and their input text. */
  invalidRows: Array<{ index: number; input: string }>;
}

const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '';
const isRetryMark = (value: unknown): boolean =>
  typeof value === 'string' && (value === ENRICHING_TEXT || value.startsWith(FAILED_PREFIX));

export function isEmptyOrMark(value: unknown): boolean {
  return isEmpty(value) || isRetryMark(value);
}

/**
 * Whether a row still needs values. Always when overwriting; never when a field cell says "Not found"; yes when a
 * field cell holds a retry mark ("Still enriching...", "Lookup failed...") or when every field cell is empty (not
 * enriched yet). Otherwise the row was enriched, and an empty cell needs a value only in a column that is not
 * `settled` (not filled by a finished job on this sheet, e.g. a field column added since): in a settled column it
 * means the profile has no value for that field. A profile with none of the fields leaves NO_DATA_TEXT.
 */
function rowNeedsValues(row: unknown[], targets: number[], overwrite: boolean, settled: boolean[]): boolean {
  if (overwrite) return true;
  const cells = targets.map((column) => row[column - 1]);
  if (cells.includes(NOT_FOUND_TEXT)) return false;
  if (cells.some(isRetryMark) || cells.every(isEmpty)) return true;
  return cells.some((value, i) => isEmpty(value) && !settled[i]);
}

/**
 * Reads the data rows (grid rows after `headerRow`). `targets` are the field columns (1-based) and `settled` says,
 * per target, whether an empty cell there can be a value the profile lacks (see rowNeedsValues).
 */
export function readRows(
  values: unknown[][],
  headerRow: number,
  domainColumn: number,
  targets: number[],
  overwrite: boolean,
  settled: boolean[] = [],
): RowsSnapshot {
  const snapshot: RowsSnapshot = {
    rows: 0,
    blank: 0,
    invalid: 0,
    alreadyFilled: 0,
    withDomain: 0,
    rowsByDomain: new Map(),
    pending: [],
    pendingRows: new Map(),
    invalidRows: [],
  };
  const parsed = new Map<string, ReturnType<typeof parseDomain>>();
  // Rows past the last one showing anything (formulas filled down that show nothing) are not rows of the data.
  let end = values.length;
  while (end > headerRow && values[end - 1].every((cell) => cell === '' || cell === null || cell === undefined)) end--;
  for (let index = headerRow; index < end; index++) {
    const row = values[index];
    snapshot.rows++;
    const raw = row[domainColumn - 1];
    const key = typeof raw === 'string' ? raw : String(raw ?? '');
    let domain = parsed.get(key);
    if (!domain) {
      domain = parseDomain(raw);
      parsed.set(key, domain);
    }
    if (domain.kind === 'blank') {
      snapshot.blank++;
      continue;
    }
    if (domain.kind === 'invalid') {
      snapshot.invalid++;
      snapshot.invalidRows.push({ index, input: domain.input });
      continue;
    }
    snapshot.withDomain++;
    const list = snapshot.rowsByDomain.get(domain.domain);
    if (list) list.push(index);
    else snapshot.rowsByDomain.set(domain.domain, [index]);
    if (rowNeedsValues(row, targets, overwrite, settled))
      snapshot.pendingRows.set(domain.domain, (snapshot.pendingRows.get(domain.domain) ?? 0) + 1);
    else snapshot.alreadyFilled++;
  }
  snapshot.pending = [...snapshot.pendingRows.keys()].sort();
  return snapshot;
}

/** The cell values one outcome puts in a row's field columns (first column carries any message). */
export function outcomeCells(outcome: RowOutcome, fields: ProfileField[]): CellValue[] {
  if (outcome.kind === 'profile') {
    const cells = fields.map((field) => toCellValue(outcome.values[field.key]));
    return cells.every(isEmpty) ? cells.map((cell, i) => (i === 0 ? NO_DATA_TEXT : cell)) : cells;
  }
  const text =
    outcome.kind === 'not_found'
      ? NOT_FOUND_TEXT
      : outcome.kind === 'enriching'
        ? ENRICHING_TEXT
        : safeText(FAILED_PREFIX + outcome.message);
  return fields.map((_field, i) => (i === 0 ? text : ''));
}

/** Pending cell updates: grid row index -> (column -> value). */
export type CellUpdates = Map<number, Map<number, CellValue>>;

/**
 * Adds the writes of one outcome for the given rows: every field cell when overwriting, otherwise only cells that
 * are empty or hold a retry mark (a message never replaces user data). Returns how many rows get a value.
 */
export function addOutcomeUpdates(
  updates: CellUpdates,
  values: unknown[][],
  rows: number[],
  targets: number[],
  cells: CellValue[],
  overwrite: boolean,
): number {
  let rowsWritten = 0;
  for (const index of rows) {
    const row = values[index];
    let wrote = false;
    targets.forEach((column, i) => {
      if (!overwrite && !isEmptyOrMark(row[column - 1])) return;
      let rowUpdates = updates.get(index);
      if (!rowUpdates) updates.set(index, (rowUpdates = new Map()));
      rowUpdates.set(column, cells[i]);
      wrote = true;
    });
    if (wrote) rowsWritten++;
  }
  return rowsWritten;
}

/** The invalid-domain message in the first field column, where that cell is empty (or when overwriting). */
export function addInvalidUpdates(
  updates: CellUpdates,
  values: unknown[][],
  invalidRows: Array<{ index: number; input: string }>,
  firstTarget: number,
  overwrite: boolean,
): number {
  let written = 0;
  for (const { index, input } of invalidRows) {
    const current = values[index][firstTarget - 1];
    const text = safeText(invalidDomainMessage(input));
    if (current === text || current === invalidDomainMessage(input)) continue;
    if (!overwrite && !isEmptyOrMark(current)) continue;
    let rowUpdates = updates.get(index);
    if (!rowUpdates) updates.set(index, (rowUpdates = new Map()));
    rowUpdates.set(firstTarget, text);
    written++;
  }
  return written;
}

/** Without "overwrite", a cell holding a formula is user data even when it shows nothing: its update is dropped. */
export function dropFormulaCells(
  updates: CellUpdates,
  formulaAt: (index: number, column: number) => string | undefined,
): void {
  for (const [index, rowUpdates] of updates) {
    for (const column of [...rowUpdates.keys()]) if (formulaAt(index, column)) rowUpdates.delete(column);
    if (rowUpdates.size === 0) updates.delete(index);
  }
}

/** A rectangular write: 1-based top-left cell and the values. */
export interface BlockWrite {
  row: number;
  column: number;
  values: CellValue[][];
}

/** Groups columns into runs of adjacent columns. */
export function columnRuns(columns: number[]): Array<{ first: number; count: number }> {
  const sorted = [...new Set(columns)].sort((a, b) => a - b);
  const runs: Array<{ first: number; count: number }> = [];
  for (const column of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.first + last.count === column) last.count++;
    else runs.push({ first: column, count: 1 });
  }
  return runs;
}

/**
 * A cell the write covers but does not change, written back as it is: its formula if it has one, otherwise its value
 * (text re-escaped, since Sheets parses written strings again).
 */
export function keepCell(value: unknown, formula: string | undefined): CellValue | Date {
  if (formula) return formula;
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') return value as Date;
  if (typeof value === 'string') return value === '' ? '' : safeText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : safeText(String(value));
}

/** Row span (grid indexes, inclusive) that the updates touch, or null. */
export function updatedSpan(updates: CellUpdates): { first: number; last: number } | null {
  if (updates.size === 0) return null;
  let first = Infinity;
  let last = -Infinity;
  for (const index of updates.keys()) {
    first = Math.min(first, index);
    last = Math.max(last, index);
  }
  return { first, last };
}

/**
 * One write per run of adjacent field columns, covering the rows from the first to the last updated row. Cells in
 * that span that are not updated keep their content (`formulaAt` gives a cell's formula, if any).
 */
export function buildBlockWrites(
  updates: CellUpdates,
  values: unknown[][],
  targets: number[],
  formulaAt: (index: number, column: number) => string | undefined,
): BlockWrite[] {
  const span = updatedSpan(updates);
  if (!span) return [];
  const writes: BlockWrite[] = [];
  for (const run of columnRuns(targets)) {
    let touched = false;
    const block: CellValue[][] = [];
    for (let index = span.first; index <= span.last; index++) {
      const rowUpdates = updates.get(index);
      const line: CellValue[] = [];
      for (let column = run.first; column < run.first + run.count; column++) {
        if (rowUpdates?.has(column)) {
          line.push(rowUpdates.get(column) as CellValue);
          touched = true;
        } else {
          line.push(keepCell(values[index]?.[column - 1], formulaAt(index, column)) as CellValue);
        }
      }
      block.push(line);
    }
    if (touched) writes.push({ row: span.first + 1, column: run.first, values: block });
  }
  return writes;
}
