// Reading Sheet Scout formulas back out of a sheet for the menu actions: which cells call COMPANY_LOOKUP, SIMILAR
// or COMPANY_SEARCH, and, for a plain top-level call, its arguments (text, number, boolean literals and A1
// references) so the size of the result it spilled can be worked out.

export const FUNCTION_NAMES = ['COMPANY_LOOKUP', 'SIMILAR', 'COMPANY_SEARCH'] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

const CALL_ANYWHERE = new RegExp(`(^|[^A-Za-z0-9_.])(${FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/** True when the formula calls one of the add-in's functions anywhere in it. */
export function callsSheetScout(formula: string): boolean {
  return formula.startsWith('=') && CALL_ANYWHERE.test(formula);
}

export type ParsedArg =
  | { kind: 'literal'; value: string | number | boolean }
  /** An A1 reference, optionally with a sheet name (`'My sheet'!A2:A50`), as written. */
  | { kind: 'ref'; a1: string }
  | { kind: 'omitted' }
  | { kind: 'other'; text: string };

export interface ParsedCall {
  name: FunctionName;
  args: ParsedArg[];
  /** The arguments as written. */
  texts: string[];
}

const REF =
  /^(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_]+)!)?(?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d*)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3})$/;

function parseArg(text: string): ParsedArg {
  const t = text.trim();
  if (t === '') return { kind: 'omitted' };
  if (/^"(?:[^"]|"")*"$/.test(t)) return { kind: 'literal', value: t.slice(1, -1).replace(/""/g, '"') };
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return { kind: 'literal', value: Number(t) };
  if (/^(TRUE|FALSE)$/i.test(t)) return { kind: 'literal', value: t.toUpperCase() === 'TRUE' };
  if (REF.test(t)) return { kind: 'ref', a1: t };
  return { kind: 'other', text: t };
}

/** Splits the text between a call's parentheses at top-level commas (not inside quotes or nested calls). */
function splitArgs(text: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '(' || char === '{') {
      depth++;
    } else if (char === ')' || char === '}') {
      depth--;
      if (depth < 0) return null;
    } else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quote || depth !== 0) return null;
  parts.push(text.slice(start));
  return parts;
}

/** A formula that is exactly one call of a Sheet Scout function (`=COMPANY_LOOKUP(A2:A50, "domain")`), else null. */
export function parseSheetScoutCall(formula: string): ParsedCall | null {
  const match = /^=\s*([A-Za-z_]+)\s*\(([\s\S]*)\)\s*$/.exec(formula);
  if (!match) return null;
  const name = match[1].toUpperCase() as FunctionName;
  if (!FUNCTION_NAMES.includes(name)) return null;
  const parts = splitArgs(match[2]);
  if (!parts) return null;
  const texts = parts.length === 1 && parts[0].trim() === '' ? [] : parts.map((part) => part.trim());
  return { name, args: texts.map(parseArg), texts };
}

/** Position of the refresh mark: each function's optional last argument, which it ignores. */
const REFRESH_ARGUMENT = 3;
const REFRESH_MARK = /^refresh (\d+)$/;

/**
 * The formula to enter again so that Sheets runs it again even if it gives a call with the same arguments its earlier
 * result (widely reported, not documented): a top-level call gets a refresh mark as its last argument, counted up each
 * time (`=COMPANY_LOOKUP(A2:A9, , , "refresh 2")`); any other formula is entered again as it is.
 */
export function withRefreshMark(formula: string): string {
  const call = parseSheetScoutCall(formula);
  if (!call || call.texts.length > REFRESH_ARGUMENT + 1) return formula;
  const mark = call.args[REFRESH_ARGUMENT];
  const previous = mark?.kind === 'literal' ? REFRESH_MARK.exec(String(mark.value)) : null;
  if (mark && mark.kind !== 'omitted' && !previous) return formula;
  const texts = [...call.texts];
  while (texts.length < REFRESH_ARGUMENT) texts.push('');
  texts[REFRESH_ARGUMENT] = `"refresh ${previous ? Number(previous[1]) + 1 : 1}"`;
  return `=${call.name}(${texts.map((text, i) => (i > 0 && text ? ` ${text}` : i > 0 ? ' ' : text)).join(',')})`;
}
