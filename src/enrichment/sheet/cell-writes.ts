// The writes that put a job's results into its sheet: only the cells that get a value, in as few rectangular writes
// as that allows (adjacent rows that update the same columns share one write per run of adjacent columns), so a cell
// the job does not fill is never written, not even with the value it holds. Pure.
import type { CellValue } from '../../shared/cell-values';
import { adjacentRuns } from '../../shared/adjacent-runs';

/** Cell updates: grid row index (0-based, the header row is 0) -> 1-based column -> value. */
export type CellUpdates = Map<number, Map<number, CellValue>>;

/** A rectangular write: 1-based top-left cell and the values. */
export interface BlockWrite {
  row: number;
  column: number;
  values: CellValue[][];
}

export function setUpdate(updates: CellUpdates, index: number, column: number, value: CellValue): void {
  let row = updates.get(index);
  if (!row) updates.set(index, (row = new Map()));
  row.set(column, value);
}

/** The fewest rectangles that write exactly the updated cells. */
export function cellWrites(updates: CellUpdates): BlockWrite[] {
  const indexes = [...updates.keys()].filter((index) => (updates.get(index)?.size ?? 0) > 0).sort((a, b) => a - b);
  const writes: BlockWrite[] = [];
  let group: number[] = [];
  let shape = '';
  const flush = () => {
    if (group.length === 0) return;
    const columns = [...(updates.get(group[0]) as Map<number, CellValue>).keys()];
    for (const run of adjacentRuns(columns)) {
      const values = group.map((index) => {
        const row = updates.get(index) as Map<number, CellValue>;
        return Array.from({ length: run.count }, (_, i) => row.get(run.first + i) as CellValue);
      });
      writes.push({ row: group[0] + 1, column: run.first, values });
    }
    group = [];
  };
  for (const index of indexes) {
    const columns = [...(updates.get(index) as Map<number, CellValue>).keys()].sort((a, b) => a - b).join(',');
    if (group.length === 0 || index !== group[group.length - 1] + 1 || columns !== shape) {
      flush();
      shape = columns;
    }
    group.push(index);
  }
  flush();
  return writes;
}
