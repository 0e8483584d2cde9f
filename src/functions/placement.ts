// Whether a range =COMPANY_LOOKUP still lines up with its inputs. Its rows spill from its own cell in the order of its
// input range, so a sort that moves the formula's row inside that range (Sheets moves the formula with its row and
// keeps its reference) leaves every spilled row beside another company's domain. Such a formula answers a short text
// that says so, and how to put it right, instead of results in the wrong rows. Pure: the calling cell is read by the
// platform (the active range of a custom function is its own cell).
import { columnLetter } from '../shared/a1';
import { parseSheetScoutCall } from './formula-parse';

/** The cell whose formula runs, as the custom function sees it. */
export interface CallingCell {
  sheetName: string;
  /** 1-based. */
  row: number;
  column: number;
  formula: string;
}

/** A reference such as `A2:A31`, `'Leads'!B2:B`, `A:A`: its sheet (when named), first column and rows. */
const INPUT_REF =
  /^(?:(?:'((?:[^']|'')+)'|([A-Za-z0-9_]+))!)?\$?([A-Za-z]{1,3})\$?(\d*)(?::\$?[A-Za-z]{1,3}\$?(\d*))?$/;

interface InputRows {
  sheetName: string | null;
  column: string;
  first: number;
  /** Null for a range open at the bottom (`A2:A`, `A:A`). */
  last: number | null;
}

function inputRows(a1: string): InputRows | null {
  const match = INPUT_REF.exec(a1);
  if (!match) return null;
  const [, quoted, plain, column, first, last] = match;
  return {
    sheetName: quoted !== undefined ? quoted.replace(/''/g, "'") : (plain ?? null),
    column: column.toUpperCase(),
    first: first ? Number(first) : 1,
    last: last ? Number(last) : null,
  };
}

/**
 * The cell text of a COMPANY_LOOKUP whose first result row (below its header, `withHeader`) sits inside its input
 * range on the same sheet but not at its first row, or null when its rows line up (or it is not such a formula).
 */
export function sortedAwayText(cell: CallingCell | null, withHeader: boolean): string | null {
  const call = cell ? parseSheetScoutCall(cell.formula) : null;
  const input = call?.name === 'COMPANY_LOOKUP' ? call.args[0] : undefined;
  if (!cell || input?.kind !== 'ref') return null;
  const rows = inputRows(input.a1);
  if (!rows || (rows.sheetName !== null && rows.sheetName !== cell.sheetName)) return null;
  const header = withHeader ? 1 : 0;
  const firstResult = cell.row + header;
  // A header above inputs that start in row 1 cannot line up anywhere: a layout, not a sort.
  if (rows.first - header < 1 || firstResult <= rows.first || (rows.last !== null && firstResult > rows.last))
    return null;
  const home = `${columnLetter(cell.column)}${rows.first - header}`;
  return (
    `Sorted away from ${input.a1}: its rows would not line up. ` +
    `Move it back to ${home}, or use one =COMPANY_LOOKUP(${rows.column}${firstResult}) per row`
  );
}
