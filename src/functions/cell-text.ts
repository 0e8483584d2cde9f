// What the custom functions put in cells: the fixed status texts (one text per cause, so a column of cells reads
// consistently and the menu actions can recognise them), the mapping from client errors to cell text, and the
// conversion of service values into values a custom function may return. Returned values are not parsed by Sheets
// (a returned "=cmd|..." stays text), so no `'` escape is added here; text is only cut to the cell limit.
import type { ApiError } from '../api/errors';
import { userMessage } from '../api/errors';
import { CELL_CHARACTER_LIMIT } from '../shared/cell-values';

export type FormulaCell = string | number | boolean;
export type FormulaResult = FormulaCell[][];

export const CELL_TEXT = {
  /** No token is shared with this spreadsheet's formulas (a formula cannot see a user's own token). */
  setup:
    'Formulas can\'t use a token: in Extensions > Sheet Scout > Settings tick "Let formulas in this spreadsheet use my token"',
  pending: 'Pending: recalculate or use Enrich',
  enriching: 'Enriching... try again in a minute',
  notFound: 'Not found',
  noResults: 'No matching companies',
  /** =COMPANY_LOOKUP() called without its domain argument. */
  lookupUsage:
    'Usage: =COMPANY_LOOKUP(domain, [fields], [with_header]), e.g. =COMPANY_LOOKUP(A2) or =COMPANY_LOOKUP(A2, "company_name")',
  /** The spreadsheet's formulas used their daily requests (src/platform/request-budget.ts, FORMULA_BUDGETS). */
  formulaRequestsSpent:
    "This spreadsheet's formulas have used today's requests: use Formulas > Refresh pending lookups, or Enrich",
  /** =SIMILAR given a range: the lookalikes of a list are the search panel's. */
  similarList:
    'One company per SIMILAR: for lookalikes of a list, use Extensions > Sheet Scout > Company search > Similar to a list',
  /** An input past the MAX_FORMULA_LOOKUPS unique companies of one COMPANY_LOOKUP. */
  useEnrich: 'Over 5,000 companies in one formula: use Extensions > Sheet Scout > Enrich selected domains',
} as const;

// Errors that a later run can get past: the service recovers, or the user fixes the token or waits out the quota.
const PASSING_ERRORS: ApiError[] = [
  { kind: 'no_token' },
  { kind: 'unauthorized' },
  { kind: 'rate_limited' },
  { kind: 'unavailable', status: 503 },
  { kind: 'network', maybeSent: false, detail: '' },
  { kind: 'timeout', maybeSent: false, detail: '' },
  { kind: 'quota', detail: '' },
];

/**
 * Cell texts that are not a final answer: Pending, Enriching, or an error a later run can get past (the service
 * recovered, the token was fixed in Settings). "Refresh pending lookups" re-runs the formulas showing them.
 */
export function isUnfinishedCellText(text: string): boolean {
  return (
    text === CELL_TEXT.pending ||
    text === CELL_TEXT.enriching ||
    text === CELL_TEXT.formulaRequestsSpent ||
    UNFINISHED_ERROR_TEXTS.has(text)
  );
}

const UNFINISHED_ERROR_TEXTS = new Set(PASSING_ERRORS.map(errorCellText));

/**
 * The cell text for a failed call. 404 is a value ("Not found"); the add-in's own budget refusing a formula's request
 * is the formulas' budget; the rest are the client's stable messages.
 */
export function errorCellText(error: ApiError): string {
  if (error.kind === 'no_token') return CELL_TEXT.setup;
  if (error.kind === 'quota' && error.addIn) return CELL_TEXT.formulaRequestsSpent;
  if (error.kind === 'not_found') return CELL_TEXT.notFound;
  return userMessage(error);
}

/** A service value as a custom-function result cell: numbers and booleans kept, lists one per line, text cut. */
export function toFormulaCell(value: unknown): FormulaCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value))
    text = value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n');
  else text = JSON.stringify(value);
  const marker = ' [truncated]';
  return text.length > CELL_CHARACTER_LIMIT ? text.slice(0, CELL_CHARACTER_LIMIT - marker.length) + marker : text;
}

/** A row of `width` cells holding `text` in its first cell (results must be rectangular to spill). */
export function messageRow(text: string, width: number): FormulaCell[] {
  const row: FormulaCell[] = new Array<FormulaCell>(Math.max(1, width)).fill('');
  row[0] = text;
  return row;
}

export function blankRow(width: number): FormulaCell[] {
  return new Array<FormulaCell>(Math.max(1, width)).fill('');
}
