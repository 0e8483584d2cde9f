// The writes of a check into its new rows: the rows to write are grouped into runs (rows at most MERGE_GAP apart go
// together, so the usual block of rows appended at the bottom is one formula read and one write per block of field
// columns; new rows a sort scattered cost a few more), and within a run a cell holding a formula is the user's and is
// left alone, as bulk enrichment does.
import { cellWrites, type CellUpdates, type EnrichSheet } from './enrichment-port';

/** Rows this close (in rows between them) are written together; the cells between are written back as they are. */
const MERGE_GAP = 10;

/** Groups the updated rows (0-based grid indexes) into runs. */
export function rowRuns(indexes: readonly number[]): Array<{ first: number; last: number }> {
  const sorted = [...indexes].sort((a, b) => a - b);
  const runs: Array<{ first: number; last: number }> = [];
  for (const index of sorted) {
    const last = runs[runs.length - 1];
    if (last && index - last.last <= MERGE_GAP + 1) last.last = index;
    else runs.push({ first: index, last: index });
  }
  return runs;
}

/** Writes the updates (grid row index -> column -> value) run by run; returns how many writes it made. */
export function writeRowUpdates(sheet: EnrichSheet, updates: CellUpdates, targets: readonly number[]): number {
  if (updates.size === 0) return 0;
  const first = Math.min(...targets);
  const last = Math.max(...targets);
  let writes = 0;
  for (const run of rowRuns([...updates.keys()])) {
    const part: CellUpdates = new Map([...updates].filter(([index]) => index >= run.first && index <= run.last));
    const formulas = sheet.readFormulas({
      row: run.first + 1,
      column: first,
      numRows: run.last - run.first + 1,
      numColumns: last - first + 1,
    });
    const formulaAt = (index: number, column: number) => formulas[index - run.first]?.[column - first] || undefined;
    // A cell that holds a formula is the user's: never written over.
    for (const [index, row] of part)
      for (const column of [...row.keys()]) if (formulaAt(index, column)) row.delete(column);
    for (const write of cellWrites(part)) {
      sheet.writeValues(write.row, write.column, write.values);
      writes++;
    }
  }
  return writes;
}
