// Where a bulk enrichment reads and writes: which column holds the domains (header-aware, also when the selection
// spans several columns), whether row 1 is a header, and which column each chosen profile field goes to (an existing
// column with the same header is reused, otherwise a new one is appended). Pure: works on a grid of cell values.
import { parseDomain } from '../../shared/domain/domain';
import type { ProfileField } from '../../companies/profile-fields';
import { columnLetter } from '../../shared/a1';

/**
 * The columns an enrichment of a list fills, as they were when it was started or saved: the domain column (1-based)
 * and its header, and the profile field keys with the headers of their columns, in the same order. A job and "Keep
 * enriching new rows" both keep them and find them again by header (locateColumns).
 */
export interface EnrichedColumns {
  domainColumn: number;
  domainHeader: string;
  fields: string[];
  headers: string[];
}

/** An enriched list's columns on its sheet, which is named as it was when they were kept. */
export interface EnrichedList extends EnrichedColumns {
  sheetId: number;
  sheetName: string;
}

/** A rectangle of the sheet, 1-based. */
export interface Area {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export interface DomainColumnChoice {
  column: number;
  /** 1 when row 1 is a header row, 0 when the data starts in row 1. */
  headerRow: 0 | 1;
  /** Header text of the domain column ('' without a header row). */
  header: string;
  /** How the column was chosen, for the panel. */
  note: string | null;
}

export interface ColumnOption {
  column: number;
  label: string;
  domains: number;
}

export type DomainColumnResult = ({ ok: true } & DomainColumnChoice) | { ok: false; message: string };

export interface TargetColumn {
  field: ProfileField;
  header: string;
  column: number;
  isNew: boolean;
}

const DOMAIN_HEADER = /\b(domains?|websites?|web ?sites?|urls?|sites?|homepage|web)\b/i;
/** Header used for the domain column when the data has no header row and one is added. */
export const DEFAULT_DOMAIN_HEADER = 'Domain';

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

export function normalizeHeader(value: unknown): string {
  return cellText(value).toLowerCase().replace(/\s+/g, ' ');
}

function isHeaderCell(value: unknown): boolean {
  return parseDomain(value).kind === 'invalid';
}

/** Valid domains in rows 2.. (or 1.. when row 1 is not a header) of one column. */
function countDomains(values: unknown[][], column: number): number {
  let count = 0;
  for (let r = 0; r < values.length; r++) {
    if (r === 0 && isHeaderCell(values[0]?.[column - 1])) continue;
    if (parseDomain(values[r]?.[column - 1]).kind === 'domain') count++;
  }
  return count;
}

/** The columns a user can pick as the domain column: every column of the sheet with its header and domain count. */
export function columnOptions(values: unknown[][], lastColumn: number): ColumnOption[] {
  const options: ColumnOption[] = [];
  for (let column = 1; column <= lastColumn; column++) {
    const top = values[0]?.[column - 1];
    const header = isHeaderCell(top) ? cellText(top) : '';
    const label = header
      ? `${columnLetter(column)}: ${header.length > 30 ? `${header.slice(0, 29)}…` : header}`
      : columnLetter(column);
    options.push({ column, label, domains: countDomains(values, column) });
  }
  return options;
}

function choice(values: unknown[][], column: number, note: string | null): DomainColumnChoice {
  const top = values[0]?.[column - 1];
  const headerRow: 0 | 1 = isHeaderCell(top) ? 1 : 0;
  return { column, headerRow, header: headerRow ? cellText(top) : '', note };
}

/**
 * Picks the domain column. An explicit column wins; otherwise, among the selected columns, a column whose header
 * names domains/websites and holds domains, else the one holding the most domains (leftmost on a tie).
 */
export function detectDomainColumn(
  values: unknown[][],
  selection: Area,
  lastColumn: number,
  requested?: number,
): DomainColumnResult {
  if (values.length === 0 || lastColumn === 0)
    return { ok: false, message: 'This sheet is empty: put company domains in a column and select it.' };
  if (requested !== undefined) {
    if (!Number.isInteger(requested) || requested < 1 || requested > lastColumn)
      return { ok: false, message: `Column ${requested} is outside the sheet.` };
    if (countDomains(values, requested) === 0)
      return {
        ok: false,
        message: `Column ${columnLetter(requested)} holds no domains: pick the column with company domains.`,
      };
    return { ok: true, ...choice(values, requested, null) };
  }
  const first = Math.max(1, selection.column);
  const last = Math.min(lastColumn, selection.column + selection.numColumns - 1);
  if (first > last) return { ok: false, message: 'Select the column that holds company domains (inside the data).' };
  let best: { column: number; domains: number; named: boolean } | null = null;
  for (let column = first; column <= last; column++) {
    const domains = countDomains(values, column);
    if (domains === 0) continue;
    const named = DOMAIN_HEADER.test(cellText(values[0]?.[column - 1]));
    if (!best || (named && !best.named) || (named === best.named && domains > best.domains))
      best = { column, domains, named };
  }
  if (!best) {
    const where =
      first === last
        ? `Column ${columnLetter(first)} holds`
        : `Columns ${columnLetter(first)}–${columnLetter(last)} hold`;
    return { ok: false, message: `${where} no company domains: select the column with domains (e.g. stripe.com).` };
  }
  const note =
    first === last
      ? null
      : `Selection spans columns ${columnLetter(first)}–${columnLetter(last)}: using column ${columnLetter(best.column)}${best.named ? ' (by its header)' : ' (most domains)'}.`;
  return { ok: true, ...choice(values, best.column, note) };
}

/** The header a field's column gets; never the same as the domain column's header (so the two stay distinct). */
export function fieldHeader(field: ProfileField, domainHeader: string): string {
  return normalizeHeader(field.header) === normalizeHeader(domainHeader) ? `${field.header} (profile)` : field.header;
}

/**
 * One column per field: the first column (other than the domain column and columns already taken) whose header
 * equals the field's header (or a header the field had before, e.g. "Size" for employee_count: that column keeps its
 * header), else a new column after the last one, in field order.
 */
export function planTargetColumns(
  headerValues: unknown[],
  lastColumn: number,
  domainColumn: number,
  domainHeader: string,
  fields: ProfileField[],
  hasHeaderRow: boolean,
): TargetColumn[] {
  const taken = new Set<number>([domainColumn]);
  let next = lastColumn + 1;
  return fields.map((field) => {
    let header = fieldHeader(field, domainHeader);
    let column = 0;
    if (hasHeaderRow) {
      for (const wanted of [header, ...(field.formerHeaders ?? [])]) {
        for (let c = 1; c <= lastColumn && column === 0; c++) {
          if (!taken.has(c) && normalizeHeader(headerValues[c - 1]) === normalizeHeader(wanted)) {
            column = c;
            header = wanted;
          }
        }
        if (column !== 0) break;
      }
    }
    const isNew = column === 0;
    if (isNew) column = next++;
    taken.add(column);
    return { field, header, column, isNew };
  });
}

export type LocatedColumns = { ok: true; domainColumn: number; targets: number[] } | { ok: false; message: string };

/**
 * Finds a running job's columns again from the header row, so columns inserted, deleted or moved meanwhile do not
 * misdirect writes: the domain column by its header (its old position first), each field column by its header.
 */
export function locateColumns(
  headerValues: unknown[],
  domainColumn: number,
  domainHeader: string,
  targetHeaders: string[],
): LocatedColumns {
  const wanted = normalizeHeader(domainHeader);
  let found = domainColumn;
  if (normalizeHeader(headerValues[domainColumn - 1]) !== wanted) {
    const matches: number[] = [];
    headerValues.forEach((value, index) => {
      if (normalizeHeader(value) === wanted) matches.push(index + 1);
    });
    if (matches.length !== 1)
      return {
        ok: false,
        message: `The domain column "${domainHeader}" was renamed or removed: restore it, or start a new enrichment.`,
      };
    found = matches[0];
  }
  const taken = new Set<number>([found]);
  const targets: number[] = [];
  for (const header of targetHeaders) {
    const index = headerValues.findIndex(
      (value, i) => !taken.has(i + 1) && normalizeHeader(value) === normalizeHeader(header),
    );
    if (index < 0)
      return {
        ok: false,
        message: `The column "${header}" was removed or renamed: restore it, or start a new enrichment.`,
      };
    taken.add(index + 1);
    targets.push(index + 1);
  }
  return { ok: true, domainColumn: found, targets };
}
