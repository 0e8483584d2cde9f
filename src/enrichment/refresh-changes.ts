// The pure part of a refresh: whether a cell's value changed (as Sheets shows it: a leading ' that keeps text from
// being read as a number or formula does not count), the fingerprint of what the add-in wrote into a cell (so a value
// the user typed over it is recognised and kept), the changed cells of one row with their notes, and the writes that
// carry them: one value write and one note write per run of adjacent changed rows in a column, so cells that did not
// change are never written.
import type { CellValue } from '../shared/cell-values';
import { fingerprint as textFingerprint } from '../shared/fingerprint';

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

/** What a cell shows: the text of a value, without the ' that a written value may carry to stay text. */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  return text.startsWith("'") ? text.slice(1) : text;
}

export function sameCell(current: unknown, next: unknown): boolean {
  return shown(current).trim() === shown(next).trim();
}

/** A short fingerprint of a cell's value as shown: what the add-in wrote, to recognise it later. */
export function fingerprint(value: unknown): string {
  return textFingerprint(shown(value).trim());
}

/** The note on a changed cell: its previous value and the day it stopped being current. */
export function changeNote(previous: unknown, today: string): string {
  const text = shown(previous);
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
    if (written !== undefined && !sameCell(previous, '') && fingerprint(previous) !== written) {
      keptEdits++;
      return;
    }
    changes.push({ row, column, value: next[i], note: changeNote(previous, today), before: shown(previous) });
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
