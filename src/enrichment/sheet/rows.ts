// The rows of an enrichment as the sheet holds them right now: each data row's domain (or why it has none), whether
// its field cells still need a value, and the cell values an outcome puts into them. A row a job finished is
// recognised from the sheet alone (see rowNeedsValues), so a re-run sends nothing for it, however long ago it ran and
// whatever the cache still holds. Pure.
import { parseDomain } from '../../shared/domain/domain';
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

export const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '';
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
export function rowNeedsValues(row: unknown[], targets: number[], overwrite: boolean, settled: boolean[]): boolean {
  if (overwrite) return true;
  return cellsNeedValues(
    targets.map((column) => row[column - 1]),
    settled,
  );
}

/** rowNeedsValues over a row's field cells (in the order of `settled`). */
export function cellsNeedValues(cells: readonly unknown[], settled: boolean[]): boolean {
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
