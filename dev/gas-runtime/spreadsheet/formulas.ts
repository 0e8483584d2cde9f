// The formula subset the emulator understands: `=NAME(arg, ...)` where each argument is a literal
// (number, "text", TRUE/FALSE), a reference ("A1", "B2:C9", "Sheet2!A:A", "'My sheet'!A1") or left empty, and a bare
// `=literal` or `=reference`. That covers custom-function calls, which the runtime evaluates; any other
// formula is kept as text and shows as unevaluated. Also rewrites references when rows or columns are
// inserted or deleted, as Sheets does.
import { cellA1, columnToLetters, lettersToColumn, quoteSheetName } from './a1';

export interface LiteralArg {
  kind: 'literal';
  value: string | number | boolean;
}

export interface RefArg {
  kind: 'ref';
  sheetName?: string;
  /** 1-based; undefined start/end rows mean whole columns, undefined columns whole rows. */
  startRow?: number;
  endRow?: number;
  startColumn?: number;
  endColumn?: number;
  /** Single-cell reference (argument arrives as a value, not a 2-D array). */
  single: boolean;
  /** The reference was deleted by a row/column deletion (#REF!). */
  broken?: boolean;
}

/** An argument left empty (`=F(A1, , "x")`): the function receives an empty string. */
export interface OmittedArg {
  kind: 'omitted';
}

export type FormulaArg = LiteralArg | RefArg | OmittedArg;

export type ParsedFormula =
  { kind: 'call'; functionName: string; args: FormulaArg[] } | { kind: 'value'; arg: FormulaArg };

const REF_PART = "(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_]+)!)?";
const CELL_PART = '\\$?[A-Za-z]{1,3}\\$?\\d+';
const COL_PART = '\\$?[A-Za-z]{1,3}';
const ROW_PART = '\\$?\\d+';
const REF_RE = new RegExp(
  `^(${REF_PART})(?:(${CELL_PART})(?::(${CELL_PART}|${COL_PART}))?|(${COL_PART}):(${COL_PART})|(${ROW_PART}):(${ROW_PART}))$`,
);

function parseCell(text: string): { row: number; column: number } {
  const m = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(text)!;
  return { column: lettersToColumn(m[1]), row: Number(m[2]) };
}

function parseArg(text: string): FormulaArg | undefined {
  const t = text.trim();
  if (t === '') return { kind: 'omitted' };
  if (/^"(?:[^"]|"")*"$/.test(t)) return { kind: 'literal', value: t.slice(1, -1).replace(/""/g, '"') };
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return { kind: 'literal', value: Number(t) };
  if (/^(TRUE|FALSE)$/i.test(t)) return { kind: 'literal', value: t.toUpperCase() === 'TRUE' };
  if (t === '#REF!') return { kind: 'ref', single: true, broken: true };
  const m = REF_RE.exec(t);
  if (!m) return undefined;
  let sheetName: string | undefined;
  if (m[1]) {
    const raw = m[1].slice(0, -1);
    sheetName = raw.startsWith("'") ? raw.slice(1, -1).replace(/''/g, "'") : raw;
  }
  if (m[2]) {
    const start = parseCell(m[2]);
    if (!m[3])
      return {
        kind: 'ref',
        sheetName,
        startRow: start.row,
        endRow: start.row,
        startColumn: start.column,
        endColumn: start.column,
        single: true,
      };
    if (/\d/.test(m[3])) {
      const end = parseCell(m[3]);
      return {
        kind: 'ref',
        sheetName,
        startRow: Math.min(start.row, end.row),
        endRow: Math.max(start.row, end.row),
        startColumn: Math.min(start.column, end.column),
        endColumn: Math.max(start.column, end.column),
        single: false,
      };
    }
    const endColumn = lettersToColumn(m[3].replace('$', ''));
    return {
      kind: 'ref',
      sheetName,
      startRow: start.row,
      startColumn: Math.min(start.column, endColumn),
      endColumn: Math.max(start.column, endColumn),
      single: false,
    };
  }
  if (m[4]) {
    const a = lettersToColumn(m[4].replace('$', ''));
    const b = lettersToColumn(m[5].replace('$', ''));
    return { kind: 'ref', sheetName, startColumn: Math.min(a, b), endColumn: Math.max(a, b), single: false };
  }
  const a = Number(m[6].replace('$', ''));
  const b = Number(m[7].replace('$', ''));
  return { kind: 'ref', sheetName, startRow: Math.min(a, b), endRow: Math.max(a, b), single: false };
}

/** Splits an argument list on top-level commas (commas inside quotes do not split). */
function splitArgs(text: string): string[] | undefined {
  const out: string[] = [];
  let current = '';
  let inQuote = false;
  for (const ch of text) {
    if (ch === '"') inQuote = !inQuote;
    if (!inQuote && (ch === '(' || ch === ')')) return undefined;
    if (ch === ',' && !inQuote) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (inQuote) return undefined;
  if (current.trim() !== '' || out.length > 0) out.push(current);
  return out;
}

/** Parses the supported subset; returns undefined for anything else. */
export function parseFormula(formula: string): ParsedFormula | undefined {
  if (!formula.startsWith('=')) return undefined;
  const body = formula.slice(1).trim();
  const call = /^([A-Za-z_][A-Za-z0-9_.]*)\s*\(([\s\S]*)\)$/.exec(body);
  if (call) {
    const parts = splitArgs(call[2]);
    if (!parts) return undefined;
    const args: FormulaArg[] = [];
    for (const part of parts) {
      const arg = parseArg(part);
      if (!arg) return undefined;
      args.push(arg);
    }
    return { kind: 'call', functionName: call[1], args };
  }
  const arg = parseArg(body);
  return arg ? { kind: 'value', arg } : undefined;
}

function formatArg(arg: FormulaArg): string {
  if (arg.kind === 'omitted') return '';
  if (arg.kind === 'literal') {
    if (typeof arg.value === 'string') return `"${arg.value.replace(/"/g, '""')}"`;
    if (typeof arg.value === 'boolean') return arg.value ? 'TRUE' : 'FALSE';
    return String(arg.value);
  }
  if (arg.broken) return '#REF!';
  const prefix = arg.sheetName !== undefined ? `${quoteSheetName(arg.sheetName)}!` : '';
  if (arg.startRow === undefined)
    return `${prefix}${columnToLetters(arg.startColumn!)}:${columnToLetters(arg.endColumn!)}`;
  if (arg.startColumn === undefined) return `${prefix}${arg.startRow}:${arg.endRow}`;
  const start = cellA1(arg.startRow, arg.startColumn);
  if (arg.single) return prefix + start;
  const end = arg.endRow === undefined ? columnToLetters(arg.endColumn!) : cellA1(arg.endRow, arg.endColumn!);
  return `${prefix}${start}:${end}`;
}

export function formatFormula(parsed: ParsedFormula): string {
  if (parsed.kind === 'value') return `=${formatArg(parsed.arg)}`;
  return `=${parsed.functionName}(${parsed.args.map(formatArg).join(', ')})`;
}

/** A structural change: `count` rows/columns inserted before `at`, or deleted starting at `at`. */
export interface DimensionChange {
  sheetName: string;
  dimension: 'ROWS' | 'COLUMNS';
  op: 'insert' | 'delete';
  at: number;
  count: number;
}

/** Moves one span [start, end] for a structural change; returns null when the whole span was deleted. */
export function shiftSpan(
  start: number,
  end: number,
  change: Pick<DimensionChange, 'op' | 'at' | 'count'>,
): [number, number] | null {
  const { op, at, count } = change;
  if (op === 'insert') {
    if (start >= at) return [start + count, end + count];
    if (end >= at) return [start, end + count];
    return [start, end];
  }
  const last = at + count - 1;
  if (end < at) return [start, end];
  if (start > last) return [start - count, end - count];
  const keptBefore = Math.max(0, at - start);
  const keptAfter = Math.max(0, end - last);
  if (keptBefore + keptAfter === 0) return null;
  const newStart = start < at ? start : at;
  return [newStart, newStart + keptBefore + keptAfter - 1];
}

/**
 * Rewrites a formula's references for a structural change on `change.sheetName`. `ownSheetName` is the
 * sheet holding the formula (references without a sheet name point there). Unsupported formulas are
 * returned unchanged.
 */
export function adjustFormula(formula: string, ownSheetName: string, change: DimensionChange): string {
  const parsed = parseFormula(formula);
  if (!parsed) return formula;
  let changed = false;
  const adjust = (arg: FormulaArg) => {
    if (arg.kind !== 'ref' || arg.broken) return;
    if ((arg.sheetName ?? ownSheetName) !== change.sheetName) return;
    const rows = change.dimension === 'ROWS';
    const start = rows ? arg.startRow : arg.startColumn;
    const end = rows ? arg.endRow : arg.endColumn;
    if (start === undefined) return;
    const moved = shiftSpan(start, end ?? start, change);
    if (moved === null) {
      arg.broken = true;
      changed = true;
      return;
    }
    if (moved[0] === start && moved[1] === (end ?? start)) return;
    changed = true;
    if (rows) {
      arg.startRow = moved[0];
      if (end !== undefined) arg.endRow = moved[1];
    } else {
      arg.startColumn = moved[0];
      if (end !== undefined) arg.endColumn = moved[1];
    }
  };
  if (parsed.kind === 'call') parsed.args.forEach(adjust);
  else adjust(parsed.arg);
  return changed ? formatFormula(parsed) : formula;
}
