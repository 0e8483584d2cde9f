// Reading custom-function arguments as Sheets passes them: a single cell arrives as its value, a range as a 2-D
// array (row-major), an omitted argument as undefined. Each reader returns a value or a short message for the cell.
import { invalidDomainMessage, isCompanyUuid, parseDomain } from '../shared/domain/domain';
import { CELL_TEXT } from './cell-text';

export type ArgRead<T> = { ok: true; value: T } | { ok: false; message: string };

/** Largest search depth of any plan (interface section 8: paid plans page up to 2,000 results). */
export const MAX_SEARCH_LIMIT = 2000;
export const DEFAULT_SEARCH_LIMIT = 10;

/** All cells of an argument, row by row (a single value becomes a one-item list). */
export function cellsOf(arg: unknown): unknown[] {
  if (!Array.isArray(arg)) return [arg];
  const cells: unknown[] = [];
  for (const row of arg) {
    if (Array.isArray(row)) cells.push(...(row as unknown[]));
    else cells.push(row);
  }
  return cells;
}

/** A single-value argument: a 1x1 range gives its value; a larger range is refused. */
export function singleValue(arg: unknown, name: string): ArgRead<unknown> {
  const cells = cellsOf(arg);
  if (cells.length !== 1) return { ok: false, message: `${name} takes one cell, not a range` };
  return { ok: true, value: cells[0] };
}

export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** What one input cell of COMPANY_LOOKUP or SIMILAR asks for. */
export type CompanyInput =
  | { kind: 'blank' }
  | { kind: 'invalid'; message: string }
  /** `key` is the normalized registered domain, or the lower-cased company UUID. */
  | { kind: 'company'; key: string };

/** Normalizes one input cell: URLs, e-mails, `www.`, case and whitespace reduce to the registered domain. */
export function readCompanyInput(value: unknown): CompanyInput {
  if (typeof value === 'string' && isCompanyUuid(value)) return { kind: 'company', key: value.trim().toLowerCase() };
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) {
    return { kind: 'invalid', message: invalidDomainMessage(String(value)) };
  }
  const text = typeof value === 'string' ? value.trim() : value;
  // An e-mail address stands for its domain (parseDomain reads "a@b.com" as host "b.com").
  const parsed = parseDomain(text);
  if (parsed.kind === 'blank') return { kind: 'blank' };
  if (parsed.kind === 'invalid') return { kind: 'invalid', message: invalidDomainMessage(parsed.input) };
  return { kind: 'company', key: parsed.domain };
}

/** `with_header`: TRUE/FALSE, 1/0, "true"/"false"/"yes"/"no"; blank means `fallback`. */
export function readBoolean(arg: unknown, name: string, fallback: boolean): ArgRead<boolean> {
  const single = singleValue(arg, name);
  if (!single.ok) return single;
  const value = single.value;
  if (isBlank(value)) return { ok: true, value: fallback };
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') return { ok: true, value: value !== 0 };
  const text = String(value).trim().toLowerCase();
  if (['true', 'yes', '1'].includes(text)) return { ok: true, value: true };
  if (['false', 'no', '0'].includes(text)) return { ok: true, value: false };
  return { ok: false, message: `${name} must be TRUE or FALSE` };
}

/** `limit`: a whole number from 1 to 2,000 (default 10). */
export function readLimit(arg: unknown): ArgRead<number> {
  const single = singleValue(arg, 'limit');
  if (!single.ok) return single;
  if (isBlank(single.value)) return { ok: true, value: DEFAULT_SEARCH_LIMIT };
  const value = typeof single.value === 'number' ? single.value : Number(String(single.value).trim());
  if (!Number.isInteger(value) || value < 1 || value > MAX_SEARCH_LIMIT) {
    return { ok: false, message: `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}` };
  }
  return { ok: true, value };
}

/** The reference company of SIMILAR: one domain (or URL, e-mail, company UUID); a range points to the list search. */
export function readReferenceCompany(arg: unknown): ArgRead<string> {
  const single = singleValue(arg, 'domain');
  if (!single.ok) return { ok: false, message: CELL_TEXT.similarList };
  const input = readCompanyInput(single.value);
  if (input.kind === 'blank') return { ok: false, message: 'Enter a domain, e.g. =SIMILAR("stripe.com")' };
  if (input.kind === 'invalid') return { ok: false, message: input.message };
  return { ok: true, value: input.key };
}

const MAX_QUERY_LENGTH = 1000;

/** The query of COMPANY_SEARCH: non-blank text; several cells are joined with spaces. */
export function readQuery(arg: unknown): ArgRead<string> {
  const text = cellsOf(arg)
    .filter((cell) => !isBlank(cell))
    .map((cell) => String(cell).trim())
    .join(' ')
    .replace(/\s+/g, ' ');
  if (text === '')
    return { ok: false, message: 'Enter a query, e.g. =COMPANY_SEARCH("payment APIs for marketplaces")' };
  if (text.length > MAX_QUERY_LENGTH)
    return { ok: false, message: `Query too long: at most ${MAX_QUERY_LENGTH} characters` };
  return { ok: true, value: text };
}
