// What may be written into a cell: service text always reaches the cell as that exact text, and is cut to the
// 50,000-character cell limit. setValues parses strings like typed input (formulas, numbers such as `1e10`, booleans,
// dates and times in many spellings, percentages, currencies, a leading apostrophe as an escape), and no list of
// patterns can be sure to match Sheets' parser in every locale. So every non-empty string gets Sheets' text prefix
// `'` (shown without it, and not part of the value): `=1+1`, `TRUE`, `Jan 5`, `'quoted` and `＝1+1` all stay text.
// Numbers, booleans and dates are written as such on purpose (toCellValue). Every write of service data goes here.

export type CellValue = string | number | boolean | null;

/** Sheets' per-cell character limit. */
export const CELL_CHARACTER_LIMIT = 50000;

/**
 * Makes a service string safe to write with setValues: Sheets' text prefix `'` in front of any non-empty text, and
 * text over the cell limit cut with a marker.
 */
export function safeText(text: string, marker = ' [truncated]'): string {
  if (text === '') return '';
  const fitted =
    text.length > CELL_CHARACTER_LIMIT - 1 ? text.slice(0, CELL_CHARACTER_LIMIT - 1 - marker.length) + marker : text;
  return `'${fitted}`;
}

/** Converts any service value to a cell value: strings escaped, numbers/booleans kept, lists joined by newline. */
export function toCellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return safeText(value);
  if (Array.isArray(value))
    return safeText(value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n'));
  return safeText(JSON.stringify(value));
}
