// What may be written into a cell: service text is escaped so Sheets never parses it as a formula, and cut to the
// 50,000-character cell limit. Every write of service data goes through here.

export type CellValue = string | number | boolean | null;

/** Sheets' per-cell character limit. */
export const CELL_CHARACTER_LIMIT = 50000;

// OWASP's formula-injection triggers: = + - @ and tab/CR/LF/NUL at the start.
const FORMULA_TRIGGER = /^[=+\-@\t\r\n\0]/;
// Text that Sheets would coerce to a number, date or currency ("1-10" becomes 10 January, "00123" becomes 123).
const COERCIBLE_TEXT = /^(?=.*\d)[\d\s.,:/$€£%()+-]+$/;

/**
 * Makes a service string safe to write with setValues: a leading formula trigger gets Sheets' text prefix `'`
 * (shown without the apostrophe, and not part of the value getValues returns), as does text Sheets would coerce to a
 * number or date; text over the cell limit is cut with a marker.
 */
export function safeText(text: string, marker = ' [truncated]'): string {
  const fitted = text.length > CELL_CHARACTER_LIMIT - 1 ? text.slice(0, CELL_CHARACTER_LIMIT - 1 - marker.length) + marker : text;
  return FORMULA_TRIGGER.test(fitted) || COERCIBLE_TEXT.test(fitted) ? `'${fitted}` : fitted;
}

/** Converts any service value to a cell value: strings escaped, numbers/booleans kept, lists joined by newline. */
export function toCellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return safeText(value);
  if (Array.isArray(value)) return safeText(value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n'));
  return safeText(JSON.stringify(value));
}
