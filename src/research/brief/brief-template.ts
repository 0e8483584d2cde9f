// The research brief as a template over a sheet row: `{Company}` inserts the row's value under that header,
// `{B}` the value of column B; `{{` and `}}` are literal braces. A cell holding a domain, URL or e-mail address
// enters as its registered domain (`https://www.acme.fr/` and `sales@acme.fr` -> `acme.fr`); `{Domain:raw}` inserts
// the cell as it is. Parsing resolves every placeholder against the header row before anything is sent (unknown
// header -> an inline error naming it); rendering fills one row and checks the spec's 1..20,000-character limit.
// Pure; shared by the server and the sidebar preview. Which cells are domains is decided by the caller (the server's
// domain rules, src/research/brief/brief-domains.ts; the panel gets the first row's answers from the server), so the
// preview is what is sent.
//
// Cell values come in as the sheet displays them (the server reads rows with getDisplayValues), so `42`, `TRUE`,
// `0042` or `$1,234.50` reach the brief as the user sees them.

export const BRIEF_MIN_LENGTH = 1;
export const BRIEF_MAX_LENGTH = 20000;

/**
 * A brief's length as the spec's "characters": Unicode code points. The spec gives no unit; its 422 body
 * (`detail: [{loc, msg, type}]`, spec 2.11) is a Python validator's, which counts a string's code points (so does
 * the sandbox). Counting UTF-16 units instead would refuse a legal brief with astral characters (emoji, rare CJK:
 * 2 units each). A brief of 20,000 code points is sent; 20,001 is not.
 */
export function briefLength(brief: string): number {
  return Array.from(brief).length;
}

/** A literal text, or a placeholder: its label as written, its column, and whether it inserts the cell as it is. */
export type TemplatePart =
  { kind: 'text'; text: string } | { kind: 'ref'; label: string; column: number; raw: boolean };

/** The suffix of a placeholder that inserts the cell as it is: `{Domain:raw}`. */
const RAW_SUFFIX = /:\s*raw\s*$/i;

/** The registered domain a cell holds (a domain, URL or e-mail address), or null when it holds none. */
export type CellDomain = (column: number, value: string) => string | null;

export interface ResolvedTemplate {
  parts: TemplatePart[];
  /** 1-based columns the template reads, in order of first use. */
  columns: number[];
}

export type TemplateResult = { ok: true; template: ResolvedTemplate } | { ok: false; errors: string[] };

const LETTERS = /^[A-Z]{1,3}$/;

/** 1-based column number of a column letter (`A` -> 1, `AA` -> 27). */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const char of letters) n = n * 26 + (char.charCodeAt(0) - 64);
  return n;
}

function normalizeHeader(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Finds the column a placeholder names: a header (case- and spacing-insensitive) first, then a column letter
 * within the sheet's width. Returns null when neither matches.
 */
export function resolvePlaceholder(label: string, headers: readonly string[], columnCount: number): number | null {
  const wanted = normalizeHeader(label);
  if (wanted === '') return null;
  const byHeader = headers.findIndex((header) => normalizeHeader(String(header)) === wanted);
  if (byHeader >= 0) return byHeader + 1;
  const trimmed = label.trim();
  if (LETTERS.test(trimmed)) {
    const column = columnNumber(trimmed);
    if (column <= Math.max(columnCount, headers.length)) return column;
  }
  return null;
}

/** Parses a brief template against the header row; every problem is reported, nothing is guessed. */
export function parseTemplate(
  template: string,
  headers: readonly string[],
  columnCount = headers.length,
): TemplateResult {
  const parts: TemplatePart[] = [];
  const columns: number[] = [];
  const errors: string[] = [];
  let text = '';
  let index = 0;
  const flushText = () => {
    if (text) parts.push({ kind: 'text', text });
    text = '';
  };
  while (index < template.length) {
    const char = template[index];
    if (char === '{' && template[index + 1] === '{') {
      text += '{';
      index += 2;
      continue;
    }
    if (char === '}' && template[index + 1] === '}') {
      text += '}';
      index += 2;
      continue;
    }
    if (char === '{') {
      const end = template.indexOf('}', index + 1);
      const nextOpen = template.indexOf('{', index + 1);
      if (end < 0 || (nextOpen >= 0 && nextOpen < end)) {
        errors.push(`Unclosed "{" at character ${index + 1}: close it with "}" or write "{{" for a literal brace`);
        text += char;
        index += 1;
        continue;
      }
      let label = template.slice(index + 1, end);
      let column = resolvePlaceholder(label, headers, columnCount);
      let raw = false;
      if (column === null && RAW_SUFFIX.test(label)) {
        raw = true;
        label = label.replace(RAW_SUFFIX, '');
        column = resolvePlaceholder(label, headers, columnCount);
      }
      if (column === null) {
        errors.push(
          label.trim() === ''
            ? 'Empty placeholder "{}": put a header name or a column letter inside'
            : `Unknown column "{${label}}": no header of that name and not a column letter of this sheet`,
        );
      } else {
        flushText();
        parts.push({ kind: 'ref', label: label.trim(), column, raw });
        if (!columns.includes(column)) columns.push(column);
      }
      index = end + 1;
      continue;
    }
    if (char === '}') {
      errors.push(`Stray "}" at character ${index + 1}: write "}}" for a literal brace`);
    }
    text += char;
    index += 1;
  }
  flushText();
  if (errors.length > 0) return { ok: false, errors };
  if (parts.length === 0)
    return { ok: false, errors: ['Write a brief, e.g. "Research {Company}: products, customers, funding"'] };
  return { ok: true, template: { parts, columns } };
}

export type RenderedBrief = { kind: 'ok'; brief: string } | { kind: 'empty' } | { kind: 'too_long'; length: number };

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

/**
 * Fills the template with one row (`row[c - 1]` is column c's display value); a placeholder without `:raw` inserts
 * the registered domain `domainOf` finds in its cell, else the cell. A row whose referenced cells are all blank, or
 * whose brief is blank, is `empty` (skipped, nothing sent); over 20,000 code points is `too_long`.
 */
export function renderBrief(template: ResolvedTemplate, row: readonly unknown[], domainOf: CellDomain): RenderedBrief {
  let brief = '';
  let anyValue = template.columns.length === 0;
  for (const part of template.parts) {
    if (part.kind === 'text') {
      brief += part.text;
      continue;
    }
    const value = cellText(row[part.column - 1]);
    if (value) anyValue = true;
    brief += (value && !part.raw && domainOf(part.column, value)) || value;
  }
  brief = brief.trim();
  const length = briefLength(brief);
  if (!anyValue || length < BRIEF_MIN_LENGTH) return { kind: 'empty' };
  if (length > BRIEF_MAX_LENGTH) return { kind: 'too_long', length };
  return { kind: 'ok', brief };
}

/** Output columns that are also columns the brief reads: writing there would overwrite the rows' own data. */
export function outputClashes(
  outputHeaders: readonly string[],
  sheetHeaders: readonly string[],
  briefColumns: readonly number[],
): string[] {
  const read = new Set(briefColumns.map((column) => (sheetHeaders[column - 1] ?? '').trim()).filter(Boolean));
  return outputHeaders
    .filter((header) => read.has(header))
    .map((header) => `"${header}" is read by the brief: choose another column for the results`);
}
