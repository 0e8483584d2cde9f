// Persistence of research data in hidden sheets (TablePort): the ledger (one row per record, found by record id,
// rewritten in batched runs) and the report store (one row per finished task: task id, part count, then the report
// JSON in parts small enough for a cell), so a full report of any length, and the report of a row deleted since,
// stays readable in the sidebar. Upserts are idempotent: a tick killed half-way and run again writes the same rows.
import type { TaskReport } from '../api/types';
import { joinText, splitText } from '../shared/text-parts';
import { entryToRow, rowToEntry, type DamagedRecord, type LedgerEntry } from './ledger';
import type { TablePort } from './ports';

export class LedgerStore {
  private entries: LedgerEntry[] = [];
  private indexById = new Map<string, number>();
  private rowCount = 0;
  private damagedRows: DamagedRecord[] = [];

  constructor(private readonly table: TablePort) {}

  /**
   * Reads the whole ledger (one sheet read). A row that holds something but no readable record is never
   * overwritten (new records are appended after it) and is listed by damaged().
   */
  load(): LedgerEntry[] {
    const rows = this.table.readAll();
    this.rowCount = rows.length;
    this.entries = [];
    this.damagedRows = [];
    this.indexById.clear();
    rows.forEach((row, index) => {
      const entry = rowToEntry(row);
      if (entry === 'blank') return;
      if (!('state' in entry)) {
        this.damagedRows.push(entry);
        return;
      }
      this.indexById.set(entry.id, index);
      this.entries.push(entry);
    });
    return this.entries.slice();
  }

  /** Ledger rows that could not be read at the last load (kept in the sheet as they are). */
  damaged(): DamagedRecord[] {
    return this.damagedRows.slice();
  }

  all(): LedgerEntry[] {
    return this.entries.slice();
  }

  /** Writes the given records: existing ones in place (contiguous runs), new ones appended in one write. */
  save(changed: readonly LedgerEntry[]): void {
    if (changed.length === 0) return;
    const updates: Array<{ index: number; values: Array<string | number> }> = [];
    const appended: Array<Array<string | number>> = [];
    for (const entry of changed) {
      const index = this.indexById.get(entry.id);
      if (index !== undefined) {
        updates.push({ index, values: entryToRow(entry) });
        const at = this.entries.findIndex((e) => e.id === entry.id);
        if (at >= 0) this.entries[at] = entry;
      } else {
        this.indexById.set(entry.id, this.rowCount + appended.length);
        appended.push(entryToRow(entry));
        this.entries.push(entry);
      }
    }
    if (updates.length > 0) this.table.writeRows(updates);
    if (appended.length > 0) {
      this.table.appendRows(appended);
      this.rowCount += appended.length;
    }
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
    const cached = this.cache.get(taskId);
    if (cached) return cached;
    const at = this.load().get(taskId);
    if (at === undefined) return null;
    const row = this.table.readRow(at);
    const count = Number(row[1]);
    if (!Number.isInteger(count) || count < 1) return null;
    const text = joinText(row.slice(2, 2 + count));
    try {
      const report = JSON.parse(text) as TaskReport;
      this.cache.set(taskId, report);
      return report;
    } catch {
      return null;
    }
  }
}
