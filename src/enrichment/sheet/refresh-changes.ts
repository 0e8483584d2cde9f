// The pure part of a refresh: whether a cell's value changed (a value read from the grid against one the add-in
// writes, whose leading ' only keeps text from being read as a number or formula: Sheets keeps the rest, so a
// service value that itself starts with ' is compared with that ' kept), the fingerprint of what the add-in wrote
// into a cell (so a value the user typed over it is recognised and kept), the changed cells of one row with their
// notes, and the writes that carry them: one value write and one note write per run of adjacent changed rows in a
// column, so cells that did not change are never written.
import type { CellValue } from '../../shared/cell-values';
import { fingerprint as textFingerprint } from '../../shared/fingerprint';

export interface CellChange {
  /** 1-based row and column. */
  row: number;
  column: number;
  value: CellValue;
  note: string;
  /** The value before, as the cell showed it. */
  before: string;
}

export interface ChangeWrite {
  row: number;
  column: number;
  values: CellValue[][];
  notes: string[][];
}

/** The text of a value read from the grid (Sheets does not return the text prefix of a cell written with one). */
export function gridText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** The text a value the add-in writes shows in its cell: without the ' that keeps it text (toCellValue adds it). */
export function writtenText(value: unknown): string {
  const text = gridText(value);
  return text.startsWith("'") ? text.slice(1) : text;
}

/** Whether a cell's value read from the grid is the value the add-in would write there. */
export function sameCell(current: unknown, next: unknown): boolean {
  return gridText(current).trim() === writtenText(next).trim();
}

/** A short fingerprint of what a written value shows: what the add-in wrote, to recognise it later. */
export function writtenFingerprint(value: unknown): string {
  return textFingerprint(writtenText(value).trim());
}

/** The fingerprint of a value read from the grid, to compare with the one of what the add-in wrote there. */
function gridFingerprint(value: unknown): string {
  return textFingerprint(gridText(value).trim());
}

/** The note on a changed cell: its previous value and the day it stopped being current. */
export function changeNote(previous: unknown, today: string): string {
  const text = gridText(previous);
  const cut = text.length > 200 ? `${text.slice(0, 197)}...` : text;
  return `Was ${cut === '' ? '(empty)' : cut} until ${today}`;
}

/**
 * The changed cells of one row, and the cells left alone because the user typed over what the add-in wrote (their
 * value differs from `written`, the fingerprint of the add-in's last value there; none is known for cells enriched
 * before fingerprints were kept). A cell holding a formula is the user's and is left alone too.
 */
export function cellChanges(
  row: number,
  current: unknown[],
  targets: number[],
  next: CellValue[],
  cell: { formulaAt: (column: number) => string; writtenAt: (column: number) => string | undefined },
  today: string,
): { changes: CellChange[]; keptEdits: number } {
  const changes: CellChange[] = [];
  let keptEdits = 0;
  targets.forEach((column, i) => {
    const previous = current[column - 1];
    if (cell.formulaAt(column) !== '' || sameCell(previous, next[i])) return;
    const written = cell.writtenAt(column);
    if (written !== undefined && gridText(previous).trim() !== '' && gridFingerprint(previous) !== written) {
      keptEdits++;
      return;
    }
    changes.push({ row, column, value: next[i], note: changeNote(previous, today), before: gridText(previous) });
  });
  return { changes, keptEdits };
}

/** One write per run of adjacent changed rows in a column. */
export function changeWrites(changes: CellChange[]): ChangeWrite[] {
  const byColumn = new Map<number, CellChange[]>();
  for (const change of changes) byColumn.set(change.column, [...(byColumn.get(change.column) ?? []), change]);
  const writes: ChangeWrite[] = [];
  for (const [column, list] of byColumn) {
    list.sort((a, b) => a.row - b.row);
    let run: CellChange[] = [];
    const flush = () => {
      if (run.length === 0) return;
      writes.push({ row: run[0].row, column, values: run.map((c) => [c.value]), notes: run.map((c) => [c.note]) });
      run = [];
    };
    for (const change of list) {
      if (run.length > 0 && change.row !== run[run.length - 1].row + 1) flush();
      run.push(change);
    }
    flush();
  }
  return writes;
}
