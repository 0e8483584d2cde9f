// Which rows of a sheet are new, without any per-row mark: the list is known as a count of rows per domain text (the
// domain cell trimmed and lower-cased, read as the sheet holds it), taken when "Keep enriching new rows" is turned on
// and moved forward as rows are filled. Rows beyond that count for a text are new: typed, pasted or appended by
// another tool, wherever a sort or a filter has put them since. A row that was filled and then cleared or edited by
// hand is counted already, so it is never filled again; a row deleted leaves the count, and one added again is new.
// Of the rows holding a text, the new ones are those whose field cells are all empty first, then those with an empty
// field cell, the lowest in the sheet first (rows are appended at the bottom). Pure.
import { fingerprint } from '../shared/fingerprint';
import { isEmptyOrMark } from './enrichment-port';

/** Rows per domain text. */
export type RowCounts = Map<string, number>;

/** A domain cell as the list knows it ('' for a blank one). */
export function domainText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  return String(cell).trim().toLowerCase();
}

/** How many data rows (below the header row) hold each domain text; blank domain cells are not rows of the list. */
export function countRows(values: readonly unknown[][], domainColumn: number): RowCounts {
  const counts: RowCounts = new Map();
  for (let index = 1; index < values.length; index++) {
    const text = domainText(values[index]?.[domainColumn - 1]);
    if (text !== '') counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return counts;
}

/**
 * A digest of the counts that does not depend on the rows' order: the number of rows and the sum of their texts'
 * fingerprints. Equal digests mean no row was added, so an hourly check that finds the sheet as it left it reads
 * nothing more.
 */
export function digestOf(counts: RowCounts): string {
  let rows = 0;
  let sum = 0;
  for (const [text, count] of counts) {
    rows += count;
    sum = (sum + Math.imul(parseInt(fingerprint(text), 36) >>> 0, count)) >>> 0;
  }
  return `${rows}:${sum.toString(36)}`;
}

/** The rows per text beyond what the list knows (only texts with new rows). */
export function excessRows(now: RowCounts, known: RowCounts): RowCounts {
  const excess: RowCounts = new Map();
  for (const [text, count] of now) {
    const extra = count - (known.get(text) ?? 0);
    if (extra > 0) excess.set(text, extra);
  }
  return excess;
}

/**
 * The new rows of each text with new rows (0-based grid indexes): the rows holding it whose field cells (`targets`,
 * 1-based columns) are all empty first, then those with one empty, lowest in the sheet first.
 */
export function pickNewRows(
  values: readonly unknown[][],
  domainColumn: number,
  targets: readonly number[],
  excess: RowCounts,
): Map<string, number[]> {
  const holding = new Map<string, number[]>();
  for (let index = values.length - 1; index >= 1; index--) {
    const text = domainText(values[index]?.[domainColumn - 1]);
    if (!excess.has(text)) continue;
    const list = holding.get(text);
    if (list) list.push(index);
    else holding.set(text, [index]);
  }
  const emptiness = (index: number): number => {
    const empty = targets.filter((column) => isEmptyOrMark(values[index]?.[column - 1])).length;
    return empty === targets.length ? 2 : empty > 0 ? 1 : 0;
  };
  const picked = new Map<string, number[]>();
  for (const [text, rows] of holding) {
    // Stable: among equally empty rows the lowest (first in `rows`, which runs bottom-up) comes first.
    const ranked = [...rows].sort((a, b) => emptiness(b) - emptiness(a));
    picked.set(text, ranked.slice(0, excess.get(text) ?? 0));
  }
  return picked;
}

/** Counts as a plain object (for the record) and back. */
export function countsToRecord(counts: RowCounts): Record<string, number> {
  return Object.fromEntries(counts);
}

export function countsFromRecord(record: unknown): RowCounts {
  const counts: RowCounts = new Map();
  if (!record || typeof record !== 'object' || Array.isArray(record)) return counts;
  for (const [text, count] of Object.entries(record as Record<string, unknown>))
    if (typeof count === 'number' && Number.isInteger(count) && count > 0) counts.set(text, count);
  return counts;
}
