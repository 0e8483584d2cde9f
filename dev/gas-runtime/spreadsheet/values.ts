// Cell values as Sheets sees them: parsing of strings written with setValue(s) the way typed input is
// parsed (formulas, numbers, percents, currency, booleans, dates, the leading-apostrophe escape), and the
// display text of a value under a number format (getDisplayValues). Also time-zone helpers shared with
// Utilities.formatDate.

/** A stored cell value. Empty cells hold ''. */
export type CellValue = string | number | boolean | Date;

/** Sheets' "automatic" number format, as getNumberFormat reports it. */
export const GENERAL_FORMAT = '0.###############';
export const PLAIN_TEXT_FORMAT = '@';
export const DEFAULT_DATETIME_FORMAT = 'M/d/yyyy H:mm:ss';

export interface ParsedInput {
  value: CellValue;
  /** Set when the input is a formula (text starting with '=', or '+'/'-' followed by non-numbers). */
  formula?: string;
  /** A number format Sheets assigns when it recognises a typed format (percent, currency, date). */
  autoFormat?: string;
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const GROUPED_NUMBER = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const PERCENT = /^[+-]?(\d+\.?\d*|\.\d+)%$/;
const CURRENCY = /^([+-]?)\$(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;
const CURRENCY_OTHER = /^([+-]?)([€£¥])(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;
const ACCOUNTING_NEGATIVE = /^\((\d{1,3}(,\d{3})+|\d+)(\.\d+)?\)$/;
const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const US_DATE = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
/** Month and day without a year (`1-10`, `1/10`): that date of the current year. */
const MONTH_DAY = /^(\d{1,2})[/-](\d{1,2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?$/i;
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** `Jan 5`, `January 5, 2024`, `Jan 5 2024`. */
const NAMED_MONTH_FIRST = new RegExp(`^${MONTH_WORD}\\s+(\\d{1,2})(?:(?:,\\s*|\\s+)(\\d{4}))?$`, 'i');
/** `5 January 2024`, `5 Jan`, `5-Jan-2024`. */
const NAMED_DAY_FIRST = new RegExp(`^(\\d{1,2})[\\s-]+${MONTH_WORD}(?:[\\s-]+(\\d{4}))?$`, 'i');
/** Sheets' full-width equals sign (U+FF1D): read as starting a formula, the stricter reading (undocumented). */
const FULL_WIDTH_EQUALS = '\uff1d';

/** Parses a string the way Sheets parses text written by setValue/setValues (USER_ENTERED). */
export function parseUserInput(text: string, numberFormat: string | undefined, timeZone: string): ParsedInput {
  if (text.startsWith("'")) return { value: text.slice(1) };
  if (text.startsWith('=') && text.length > 1) return { value: '', formula: text };
  if (text.startsWith(FULL_WIDTH_EQUALS) && text.length > 1) return { value: '', formula: `=${text.slice(1)}` };
  if (numberFormat === PLAIN_TEXT_FORMAT) return { value: text };
  const trimmed = text.trim();
  if (trimmed === '') return { value: text };
  if (PLAIN_NUMBER.test(trimmed)) return { value: Number(trimmed) };
  if (GROUPED_NUMBER.test(trimmed)) {
    return { value: Number(trimmed.replace(/,/g, '')), autoFormat: trimmed.includes('.') ? '#,##0.00' : '#,##0' };
  }
  if (PERCENT.test(trimmed)) {
    const digits = trimmed.slice(0, -1);
    return { value: Number(digits) / 100, autoFormat: digits.includes('.') ? '0.00%' : '0%' };
  }
  const currency = CURRENCY.exec(trimmed);
  if (currency) {
    const amount = Number(`${currency[2].replace(/,/g, '')}${currency[4] ?? ''}`);
    return { value: currency[1] === '-' ? -amount : amount, autoFormat: '"$"#,##0.00' };
  }
  const otherCurrency = CURRENCY_OTHER.exec(trimmed);
  if (otherCurrency) {
    const amount = Number(`${otherCurrency[3].replace(/,/g, '')}${otherCurrency[5] ?? ''}`);
    return { value: otherCurrency[1] === '-' ? -amount : amount, autoFormat: `"${otherCurrency[2]}"#,##0.00` };
  }
  const accounting = ACCOUNTING_NEGATIVE.exec(trimmed);
  if (accounting)
    return {
      value: -Number(`${accounting[1].replace(/,/g, '')}${accounting[3] ?? ''}`),
      autoFormat: '#,##0.00;(#,##0.00)',
    };
  if (/^(true|false)$/i.test(trimmed)) return { value: trimmed.toLowerCase() === 'true' };
  if ((trimmed.startsWith('+') || trimmed.startsWith('-')) && trimmed.length > 1) {
    return { value: '', formula: `=${trimmed}` };
  }
  const date = parseDate(trimmed, timeZone);
  if (date) return date;
  return { value: text };
}

/** The current year in a time zone (for dates typed without one; the host's clock, not the runtime's). */
function currentYear(timeZone: string): number {
  return zonedFields(Date.now(), timeZone).year;
}

const monthNumber = (word: string) => MONTH_NAMES.indexOf(word.slice(0, 3).toLowerCase()) + 1;
const fullYear = (year: string) =>
  year.length === 2 ? (Number(year) < 30 ? 2000 : 1900) + Number(year) : Number(year);

/** Date and time fields of a typed date or time, with the number format Sheets gives it; undefined otherwise. */
function dateFields(text: string, timeZone: string): { parts: number[]; format: string } | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const parts = [iso[1], iso[2], iso[3], iso[4] ?? '0', iso[5] ?? '0', iso[6] ?? '0'].map(Number);
    return { parts, format: iso[4] !== undefined ? 'yyyy-mm-dd H:mm:ss' : 'yyyy-mm-dd' };
  }
  const us = US_DATE.exec(text);
  if (us) {
    const parts = [fullYear(us[3]), ...[us[1], us[2], us[4] ?? '0', us[5] ?? '0', us[6] ?? '0'].map(Number)];
    return { parts, format: us[4] !== undefined ? DEFAULT_DATETIME_FORMAT : 'M/d/yyyy' };
  }
  const monthDay = MONTH_DAY.exec(text);
  if (monthDay)
    return { parts: [currentYear(timeZone), Number(monthDay[1]), Number(monthDay[2]), 0, 0, 0], format: 'M/d' };
  const named = NAMED_MONTH_FIRST.exec(text);
  if (named) {
    const year = named[3] ? Number(named[3]) : currentYear(timeZone);
    return {
      parts: [year, monthNumber(named[1]), Number(named[2]), 0, 0, 0],
      format: named[3] ? 'mmmm d, yyyy' : 'mmmm d',
    };
  }
  const dayFirst = NAMED_DAY_FIRST.exec(text);
  if (dayFirst) {
    const year = dayFirst[3] ? Number(dayFirst[3]) : currentYear(timeZone);
    return {
      parts: [year, monthNumber(dayFirst[2]), Number(dayFirst[1]), 0, 0, 0],
      format: dayFirst[3] ? 'd mmmm yyyy' : 'd mmmm',
    };
  }
  const time = TIME.exec(text);
  if (time) {
    let hour = Number(time[1]);
    const meridiem = time[4]?.toLowerCase();
    if (meridiem && (hour < 1 || hour > 12)) return undefined;
    if (meridiem === 'p' && hour < 12) hour += 12;
    if (meridiem === 'a' && hour === 12) hour = 0;
    // Sheets keeps a time of day as a fraction of a day from its epoch, 30 December 1899.
    return {
      parts: [1899, 12, 30, hour, Number(time[2]), Number(time[3] ?? '0')],
      format: meridiem ? 'h:mm AM/PM' : 'h:mm:ss',
    };
  }
  return undefined;
}

function parseDate(text: string, timeZone: string): ParsedInput | undefined {
  const fields = dateFields(text, timeZone);
  if (!fields) return undefined;
  const { parts, format } = fields;
  const [y, mo, d, h, mi, s] = parts;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  return { value: new Date(zonedToEpoch(y, mo, d, h, mi, s, timeZone)), autoFormat: format };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Wall-clock fields of an instant in a time zone. */
export interface ZonedFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number; // 0 = Sunday
  offsetMinutes: number;
}

const formatterCache = new Map<string, Intl.DateTimeFormat>();

export function zonedFields(epochMs: number, timeZone: string): ZonedFields {
  let fmt = formatterCache.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatterCache.set(timeZone, fmt);
  }
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  const millisecond = ((epochMs % 1000) + 1000) % 1000;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday);
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    millisecond,
    weekday,
    offsetMinutes: Math.round((asUtc - epochMs) / 60000),
  };
}

/** Epoch ms of a wall-clock time in a time zone. */
export function zonedToEpoch(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  timeZone: string,
): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const first = guess - zonedFields(guess, timeZone).offsetMinutes * 60000;
  return guess - zonedFields(first, timeZone).offsetMinutes * 60000;
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const isDateFormat = (format: string) => /[yd]|h|s/i.test(format.replace(/"[^"]*"/g, '')) && !/[#0]/.test(format);

/** The text Sheets displays for a value under a number format (getDisplayValue). */
export function displayValue(value: CellValue, format: string | undefined, timeZone: string): string {
  if (value === '') return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    return formatDatePattern(
      value.getTime(),
      format && isDateFormat(format) ? format : DEFAULT_DATETIME_FORMAT,
      timeZone,
    );
  }
  if (!format || format === GENERAL_FORMAT || format === PLAIN_TEXT_FORMAT || isDateFormat(format))
    return generalNumber(value);
  return formatNumberPattern(value, format);
}

/** Sheets' automatic number display: integers as-is, others to 10 significant digits. */
export function generalNumber(n: number): string {
  if (!Number.isFinite(n)) return '#NUM!';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-9)) {
    const [mantissa, exponent] = n.toExponential(9).split('e');
    const trimmed = mantissa.replace(/\.?0+$/, '');
    const exp = Number(exponent);
    return `${trimmed}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(Number(n.toPrecision(10)));
}

function formatNumberPattern(n: number, format: string): string {
  const section = format.split(';')[n < 0 && format.includes(';') ? 1 : 0] ?? format;
  const literalPrefix = (section.match(/^(?:"([^"]*)"|([$€£]))/) ?? [])[0] ?? '';
  const prefix = literalPrefix.replace(/"/g, '');
  const body = section.slice(literalPrefix.length);
  const percent = body.includes('%');
  const decimalsMatch = /\.([0#]+)/.exec(body);
  const decimals = decimalsMatch ? decimalsMatch[1].replace(/#/g, '').length : 0;
  const optional = decimalsMatch ? decimalsMatch[1].length - decimals : 0;
  const grouped = body.includes(',');
  const scaled = Math.abs(percent ? n * 100 : n);
  let text = scaled.toFixed(decimals + optional);
  if (optional > 0) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (grouped) {
    const [int, frac] = text.split('.');
    text = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac !== undefined ? `.${frac}` : '');
  }
  const sign = n < 0 && !format.includes(';') ? '-' : '';
  return `${sign}${prefix}${text}${percent ? '%' : ''}`;
}

/** Formats epoch ms with a Sheets date/time number format (yyyy, mm, dd, h, ss, am/pm, mmm...). */
export function formatDatePattern(epochMs: number, pattern: string, timeZone: string): string {
  const f = zonedFields(epochMs, timeZone);
  const tokens = pattern.match(/"[^"]*"|yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am\/pm|AM\/PM|./gi) ?? [];
  const twelveHour = tokens.some((t) => /^am\/pm$/i.test(t));
  const out: string[] = [];
  tokens.forEach((token, i) => {
    const lower = token.toLowerCase();
    const prev = tokens
      .slice(0, i)
      .reverse()
      .find((t) => /^[hs]+$/i.test(t) || /^m+$/i.test(t) || /^[dy]+$/i.test(t));
    const next = tokens.slice(i + 1).find((t) => /^[hs]+$/i.test(t) || /^m+$/i.test(t) || /^[dy]+$/i.test(t));
    const isMinute =
      (lower === 'mm' || lower === 'm') &&
      ((prev !== undefined && /^h+$/i.test(prev)) || (next !== undefined && /^s+$/i.test(next)));
    const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
    if (token.startsWith('"')) out.push(token.slice(1, -1));
    else if (lower === 'yyyy') out.push(String(f.year));
    else if (lower === 'yy') out.push(String(f.year % 100).padStart(2, '0'));
    else if (lower === 'mmmm') out.push(MONTHS[f.month - 1]);
    else if (lower === 'mmm') out.push(MONTHS[f.month - 1].slice(0, 3));
    else if (lower === 'mm') out.push(String(isMinute ? f.minute : f.month).padStart(2, '0'));
    else if (lower === 'm') out.push(String(isMinute ? f.minute : f.month));
    else if (lower === 'dddd') out.push(DAYS[f.weekday]);
    else if (lower === 'ddd') out.push(DAYS[f.weekday].slice(0, 3));
    else if (lower === 'dd') out.push(String(f.day).padStart(2, '0'));
    else if (lower === 'd') out.push(String(f.day));
    else if (lower === 'hh') out.push(String(twelveHour ? hour12 : f.hour).padStart(2, '0'));
    else if (lower === 'h') out.push(String(twelveHour ? hour12 : f.hour));
    else if (lower === 'ss') out.push(String(f.second).padStart(2, '0'));
    else if (lower === 's') out.push(String(f.second));
    else if (lower === 'am/pm') out.push(f.hour < 12 ? 'AM' : 'PM');
    else out.push(token);
  });
  return out.join('');
}
