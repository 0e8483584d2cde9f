// The report store of research, in its hidden sheet (a sealed TablePort): one row per finished task (task id, part
// count, then the report JSON in parts that fit a cell), so a report of any length, and the report of a row deleted
// since, stays readable. Found by task id from the first column; a row whose seal fails, or that holds another task's
// report, reads as no report (the task's report is fetched again from the service). Pure over a TablePort.
import type { TaskReport } from '../../api/types';
import type { TablePort } from '../../ports';
import { joinText, splitText } from '../../shared/storage/text-parts';

/** The report store's columns: the task id, the number of parts, then the report's JSON in parts. */
export const REPORT_HEADERS = ['task_id', 'parts', 'report'];

/** The report a store row holds for `taskId`, or null (a row refused by its seal reads blank; another task's row). */
function reportOf(row: readonly unknown[], taskId: string): TaskReport | null {
  if (String(row[0] ?? '') !== taskId) return null;
  const count = Number(row[1]);
  if (!Number.isInteger(count) || count < 1) return null;
  try {
    return JSON.parse(joinText(row.slice(2, 2 + count))) as TaskReport;
  } catch {
    return null;
  }
}

export class ReportStore {
  /** Task id -> 0-based row, read from the first column only (reports themselves are read one at a time). */
  private index: Map<string, number> | null = null;
  private rowCount = 0;
  private readonly cache = new Map<string, TaskReport>();

  constructor(private readonly table: TablePort) {}

  private load(): Map<string, number> {
    if (this.index) return this.index;
    const keys = this.table.readKeys();
    this.rowCount = keys.length;
    this.index = new Map();
    keys.forEach((key, i) => {
      if (key) this.index!.set(key, i);
    });
    return this.index;
  }

  /** Stores reports by task id (replacing an earlier copy of the same task). */
  putAll(reports: ReadonlyArray<{ taskId: string; report: TaskReport }>): void {
    if (reports.length === 0) return;
    const index = this.load();
    const updates: Array<{ index: number; values: Array<string | number> }> = [];
    const appended: Array<Array<string | number>> = [];
    for (const { taskId, report } of reports) {
      const parts = splitText(JSON.stringify(report));
      const values: Array<string | number> = [taskId, parts.length, ...parts];
      const existing = index.get(taskId);
      if (existing !== undefined) updates.push({ index: existing, values });
      else {
        index.set(taskId, this.rowCount + appended.length);
        appended.push(values);
      }
      this.cache.set(taskId, report);
    }
    if (updates.length > 0) this.table.writeRows(updates);
    if (appended.length > 0) {
      this.table.appendRows(appended);
      this.rowCount += appended.length;
    }
  }

  has(taskId: string): boolean {
    return this.cache.has(taskId) || this.load().has(taskId);
  }

  get(taskId: string): TaskReport | null {
    return this.getAll([taskId]).get(taskId) || null;
  }

  /** The reports of these tasks that the store holds readable and sealed (one read of their rows), by task id. */
  getAll(taskIds: readonly string[]): Map<string, TaskReport> {
    const found = new Map<string, TaskReport>();
    const toRead: Array<{ taskId: string; at: number }> = [];
    for (const taskId of new Set(taskIds)) {
      const cached = this.cache.get(taskId);
      const at = cached ? undefined : this.load().get(taskId);
      if (cached) found.set(taskId, cached);
      else if (at !== undefined) toRead.push({ taskId, at });
    }
    if (toRead.length === 0) return found;
    const rows = this.table.readRows(toRead.map(({ at }) => at));
    toRead.forEach(({ taskId }, i) => {
      const report = reportOf(rows[i] ?? [], taskId);
      if (!report) return;
      this.cache.set(taskId, report);
      found.set(taskId, report);
    });
    return found;
  }

  /** Removes the reports of these tasks and shrinks the sheet to the widest report left. */
  removeAll(taskIds: ReadonlySet<string>): void {
    if (taskIds.size === 0) return;
    const { rows } = this.table.readColumns(1, 2);
    const gone = rows.flatMap((row, at) => (taskIds.has(String(row[0] ?? '')) ? [at] : []));
    if (gone.length === 0) return;
    const keptParts = rows.filter((row) => !taskIds.has(String(row[0] ?? ''))).map((row) => Number(row[1]) || 1);
    this.table.deleteRows(gone);
    this.table.fitGrid(2 + Math.max(1, ...keptParts));
    for (const taskId of taskIds) this.cache.delete(taskId);
    this.index = null;
  }
}
