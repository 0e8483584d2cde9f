// Persistence of research data in hidden sheets (TablePort): the ledger (one row per record, found by record id,
// rewritten in batched runs) and the report store (one row per finished task: task id, part count, then the report
// JSON in parts that fit a cell), so a report of any length, and the report of a row deleted since, stays readable.
// Upserts are idempotent: a tick killed half-way and run again writes the same rows. A tick and a panel poll read two
// narrow columns of every ledger row (the index state and the sheet: ledger.ts) and whole only the open records (and
// the panel its sheet's newest): their cost follows the pending work, not the history. Finished records leave the
// ledger, and their reports the store, RETENTION_DAYS after they closed (the service keeps every task; what a task
// wrote into its row stays). A first-version ledger (its state column headed "state") is rewritten on first read.
import type { TaskReport } from '../../api/types';
import { joinText, splitText } from '../../shared/storage/text-parts';
import {
  closedDay,
  entryToRow,
  FIRST_STATE_HEADER,
  indexState,
  LEDGER_COLUMNS,
  LEDGER_HEADERS,
  needsRow,
  rowToEntry,
  spendingOpenings,
  spendingOutcomes,
  type DamagedRecord,
  type LedgerEntry,
} from './ledger';
import type { TablePort } from '../../ports';
import { FINISHED_KEPT_DAYS } from '../contract';
import { chargedCredits } from '../spending/spending-guard';
import type { SpendChange, SpendJournal, SpentByDay } from '../spending/spend-journal';
import type { CreatePermits } from '../spending/create-permits';
import type { SpendingHistory } from '../../spending-history/history';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A finished record stays in the ledger (and in the Research panel's list of its sheet) this long after it closed. */
export const RETENTION_MS = FINISHED_KEPT_DAYS * DAY_MS;
/** The ledger is compacted once this many records are past their retention, or the oldest is a week past it. */
const COMPACT_AT_EXPIRED = 100;
const COMPACT_AFTER_MS = 7 * DAY_MS;
/** The index state of a row that holds no readable record (an open one: read and reported, never compacted). */
const DAMAGED_STATE = 'damaged';

/** What the index says of one ledger row: its sheet, and the day it closed (null while open). */
type IndexRow = { sheetId: number; closed: string | null };

const indexRowOf = (state: unknown, sheetId: unknown): IndexRow => ({
  sheetId: Number(sheetId),
  closed: closedDay(String(state ?? '')),
});
const indexRowOfEntry = (entry: LedgerEntry): IndexRow => indexRowOf(indexState(entry), entry.row.sheetId);

/** Which rows a partial load reads whole besides the open ones: the newest `newest` of one sheet (for the panel). */
export interface LedgerView {
  sheetId: number;
  newest: number;
}

export class LedgerStore {
  private entries: LedgerEntry[] = [];
  /** Record id -> position in `entries`, and -> 0-based ledger row (of the rows read whole). */
  private positions = new Map<string, number>();
  private rowsById = new Map<string, number>();
  /** The index of every ledger row, by 0-based row. */
  private index: IndexRow[] = [];
  /** The damaged rows, and as read (by 0-based row). */
  private damagedRows: DamagedRecord[] = [];
  private damagedRaw: Array<{ at: number; row: readonly unknown[] }> = [];

  /** `journal`: what the records count against the cap, where no grid edit reaches (spend-journal.ts); `permits`:
   * which records may give back what they did not use (each task once: create-permits.ts); `spending`: the runs'
   * history (src/spending-history/history.ts: settled before the sheet write, opened after it, both idempotent). */
  constructor(
    private readonly table: TablePort,
    private readonly journal: SpendJournal | null = null,
    private readonly permits: Pick<CreatePermits, 'release'> | null = null,
    private readonly spending: Pick<SpendingHistory, 'settle' | 'open'> | null = null,
  ) {}

  /** What the records have counted against the spending cap, by launch day, as the journal kept it. */
  spentByDay(): SpentByDay {
    return this.journal?.days() ?? {};
  }

  /**
   * Reads the whole ledger (one sheet read). A row that holds something but no readable record is never
   * overwritten (new records are appended after it) and is listed by damaged().
   */
  load(): LedgerEntry[] {
    const { header, rows } = this.table.readAll();
    this.reset(rows.map((row) => indexRowOf(row[LEDGER_COLUMNS.state - 1], row[LEDGER_COLUMNS.sheetId - 1])));
    rows.forEach((row, at) => this.take(row, at));
    if (rows.length > 0 && String(header[LEDGER_COLUMNS.state - 1] ?? '') === FIRST_STATE_HEADER) this.rewriteIndex();
    return this.entries.slice();
  }

  /**
   * Reads the index of every row and whole only the open records (and the newest of `view`'s sheet): what a tick and
   * a panel poll need. A ledger of the first version is read whole (and its index rewritten) instead.
   */
  loadOpen(view?: LedgerView): LedgerEntry[] {
    const { header, rows } = this.table.readColumns(LEDGER_COLUMNS.state, 2);
    if (rows.length > 0 && String(header[0] ?? '') === FIRST_STATE_HEADER) return this.load();
    this.reset(rows.map(([state, sheetId]) => indexRowOf(state, sheetId)));
    const wanted = new Set(this.index.flatMap((row, at) => (row.closed === null ? [at] : [])));
    if (view) {
      const ofSheet = this.index.flatMap((row, at) => (row.sheetId === view.sheetId ? [at] : []));
      for (const at of ofSheet.slice(-view.newest)) wanted.add(at);
    }
    const at = [...wanted].sort((a, b) => a - b);
    this.table.readRows(at).forEach((row, i) => this.take(row, at[i]));
    return this.entries.slice();
  }

  /** Ledger rows that could not be read at the last load (kept in the sheet as they are). */
  damaged(): DamagedRecord[] {
    return this.damagedRows.slice();
  }

  /** The records read by the last load. */
  all(): LedgerEntry[] {
    return this.entries.slice();
  }

  /** The task ids of every ledger row, read or not (one column read). */
  knownTaskIds(): Set<string> {
    const { rows } = this.table.readColumns(LEDGER_COLUMNS.taskId, 1);
    return new Set(rows.map((row) => String(row[0] ?? '')).filter(Boolean));
  }

  /** Row tags of a sheet that records still hold, read or not (two columns read). */
  tagsInUse(sheetId: number): Set<string> {
    const { rows } = this.table.readColumns(LEDGER_COLUMNS.sheetId, 2);
    return new Set(rows.filter((row) => Number(row[0]) === sheetId && row[1]).map((row) => String(row[1])));
  }

  /** Whether enough finished records are past their retention for compact() to be worth its sheet writes. */
  compactionDue(now: number): boolean {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const expired = this.index.filter((row) => row.closed !== null && row.closed < day(now - RETENTION_MS));
    return (
      expired.length >= COMPACT_AT_EXPIRED ||
      expired.some((row) => (row.closed as string) < day(now - RETENTION_MS - COMPACT_AFTER_MS))
    );
  }

  /**
   * Removes the finished records past their retention (a record that cannot be read stays, its index marked open),
   * and shrinks the sheet to what is left. Returns the task ids no record refers to any more (their reports can go).
   * Load the store again before using it.
   */
  compact(now: number): Set<string> {
    this.load();
    this.markDamagedOpen();
    const expired = new Set(
      this.entries.filter((entry) => !needsRow(entry) && entry.updatedAt < now - RETENTION_MS).map((entry) => entry.id),
    );
    const kept = this.entries.filter((entry) => !expired.has(entry.id));
    if (expired.size > 0) {
      this.table.deleteRows([...expired].map((id) => this.rowsById.get(id) as number));
      this.table.fitGrid(Math.max(LEDGER_HEADERS.length, ...kept.map((entry) => entryToRow(entry).length)));
    }
    const keptTasks = new Set(kept.map((entry) => entry.taskId));
    const released = new Set(
      this.entries
        .filter((entry) => expired.has(entry.id) && entry.taskId && !keptTasks.has(entry.taskId))
        .map((entry) => entry.taskId as string),
    );
    this.reset([]);
    return released;
  }

  /**
   * Writes the given records: existing ones in place (contiguous runs), new ones appended in one write. The journal
   * gets what each counts against the spending cap now, less what it counted as last read: what counts more before
   * the records are written (a store that refuses it stops the save), what counts less after (a crash in between
   * leaves the journal high, the safe side); `released` records give back without the permits (refused creates).
   */
  save(changed: readonly LedgerEntry[], released: ReadonlySet<string> = new Set()): void {
    if (changed.length === 0) return;
    const spent: Array<SpendChange & { entry: LedgerEntry }> = changed.map((entry) => {
      const known = this.positions.get(entry.id);
      const before = known === undefined ? 0 : chargedCredits(this.entries[known]);
      return { at: entry.launchedAt, credits: chargedCredits(entry) - before, entry };
    });
    this.journal?.add(spent.filter((change) => change.credits > 0));
    this.spending?.settle(
      changed.flatMap((entry) => spendingOutcomes(entry, this.entries[this.positions.get(entry.id) ?? -1])),
    );
    // What counts less is given back once per task the add-in sent (a state a grid edit replays gives back nothing).
    const lower = spent.filter((change) => change.credits < 0 && !released.has(change.entry.id));
    const permitted = this.permits?.release(lower.map((change) => change.entry));
    const givesBack = (change: (typeof spent)[number]) =>
      change.credits < 0 && (released.has(change.entry.id) || !permitted || permitted.has(change.entry.id));
    const updates: Array<{ index: number; values: Array<string | number> }> = [];
    const appended: Array<Array<string | number>> = [];
    const appendedIndex: IndexRow[] = [];
    for (const entry of changed) {
      const row = this.rowsById.get(entry.id);
      if (row !== undefined) {
        updates.push({ index: row, values: entryToRow(entry) });
        this.index[row] = indexRowOfEntry(entry);
      } else {
        this.rowsById.set(entry.id, this.index.length + appended.length);
        appended.push(entryToRow(entry));
        appendedIndex.push(indexRowOfEntry(entry));
      }
      const position = this.positions.get(entry.id);
      if (position !== undefined) this.entries[position] = entry;
      else {
        this.positions.set(entry.id, this.entries.length);
        this.entries.push(entry);
      }
    }
    if (updates.length > 0) this.table.writeRows(updates);
    if (appended.length > 0) {
      this.table.appendRows(appended);
      this.index.push(...appendedIndex);
    }
    this.journal?.add(spent.filter(givesBack));
    for (const opening of this.spending ? spendingOpenings(changed, this.entries) : []) this.spending?.open(opening);
  }

  private reset(index: IndexRow[]): void {
    this.index = index;
    this.entries = [];
    this.positions.clear();
    this.rowsById.clear();
    this.damagedRows = [];
    this.damagedRaw = [];
  }

  /** Takes one whole ledger row read at `at`: its record, or a damaged row to report. */
  private take(row: readonly unknown[], at: number): void {
    const entry = rowToEntry(row);
    if (entry === 'blank') return;
    if (!('state' in entry)) {
      this.damagedRows.push(entry);
      this.damagedRaw.push({ at, row });
      return;
    }
    this.rowsById.set(entry.id, at);
    this.index[at] = indexRowOfEntry(entry);
    this.positions.set(entry.id, this.entries.length);
    this.entries.push(entry);
  }

  /**
   * Marks the index of damaged rows whose state says closed as open ("damaged"): every partial load then reads and
   * reports them, and they never count as past their retention. Only the index cell changes; the row's record stays.
   */
  private markDamagedOpen(): void {
    const marks = this.damagedRaw.filter(({ at }) => this.index[at].closed !== null);
    if (marks.length === 0) return;
    this.table.writeRows(
      marks.map(({ at, row }) => ({
        index: at,
        values: row.map((cell, column) =>
          column === LEDGER_COLUMNS.state - 1 ? DAMAGED_STATE : (cell as string | number),
        ),
      })),
    );
    for (const { at } of marks) this.index[at] = { ...this.index[at], closed: null };
  }

  /** Rewrites a first-version ledger's index columns and header from its records (read whole just before). */
  private rewriteIndex(): void {
    this.table.writeRows(
      this.entries.map((entry) => ({ index: this.rowsById.get(entry.id) as number, values: entryToRow(entry) })),
    );
    this.table.writeHeader(LEDGER_HEADERS);
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
