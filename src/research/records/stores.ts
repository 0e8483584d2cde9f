// The research ledger's persistence in its hidden sheet (a sealed TablePort): one row per record, found by record id,
// rewritten in batched runs. A row changed outside Sheet Scout (its seal fails) is kept as it is, never acted on, and
// reported; of two copies of one record (a row copied) the later counts; a record of an open spending run that the
// ledger no longer holds as written is settled as lost (settleMissing). (The reports: report-store.ts.)
// Upserts are idempotent: a tick killed half-way and run again writes the same rows. A tick and a panel poll read two
// narrow columns of every ledger row (the index state and the sheet: ledger.ts) and whole only the open records (and
// the panel its sheet's newest, from one read of a small ledger): their cost follows the pending work, not the
// history. Finished records leave the ledger, and their reports the store, RETENTION_DAYS after they closed (the
// service keeps every task; what a task wrote into its row stays). A first-version ledger (its state column headed
// "state") is rewritten on first read.
import {
  closedDay,
  entryToRow,
  FIRST_STATE_HEADER,
  indexState,
  LEDGER_COLUMNS,
  LEDGER_HEADERS,
  isPending,
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
import type { RecordOutcome, SpendingHistory, UnsettledRun } from '../../spending-history/history';
import { doneSinceRows, isDoneRecord, isLater, missingFrom, unsettledAmong, type RunRecord } from './ledger-checks';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A finished record stays in the ledger (and in the Research panel's list of its sheet) this long after it closed. */
export const RETENTION_MS = FINISHED_KEPT_DAYS * DAY_MS;
/** The ledger is compacted once this many records are past their retention, or the oldest is a week past it. */
const COMPACT_AT_EXPIRED = 100;
const COMPACT_AFTER_MS = 7 * DAY_MS;
/** The index state of a row that holds no readable record (an open one: read and reported, never compacted). */
const DAMAGED_STATE = 'damaged';
/**
 * A panel's view of a ledger of at most this many rows is taken from one read of every row: a sheet read costs what
 * about 4,000 cells do (40 ms, 0.01 ms a cell: docs/design/performance.md) and a row read whole instead of by its two
 * index cells costs 7 cells and a seal check more (about 0.12 ms), so up to 600 rows one read costs less than the three
 * it replaces (header, index, rows). The timer's tick reads the index and the open rows whatever the size.
 */
const VIEW_READ_WHOLE_ROWS = 600;

/** What the index says of one ledger row: its sheet, and the day it closed (null while open). */
type IndexRow = { sheetId: number; closed: string | null };

const indexRowOf = (state: unknown, sheetId: unknown): IndexRow => ({
  sheetId: Number(sheetId),
  closed: closedDay(String(state ?? '')),
});
const indexRowOfEntry = (entry: LedgerEntry): IndexRow => indexRowOf(indexState(entry), entry.row.sheetId);

/** What the history needs of the ledger's spending records (src/spending-history/history.ts, recordingHistory). */
export type LedgerSpending = Pick<SpendingHistory, 'settle' | 'open' | 'lose' | 'unsettled'>;

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
  /** Rows holding an earlier copy of a record read from another row (compaction removes them). */
  private staleRows: number[] = [];

  /** `journal`: what the records count against the cap, where no grid edit reaches (spend-journal.ts); `permits`:
   * which records may give back what they did not use (each task once: create-permits.ts); `spending`: the runs'
   * history (src/spending-history/history.ts: settled before the sheet write, opened after it, both idempotent). */
  constructor(
    private readonly table: TablePort,
    private readonly journal: SpendJournal | null = null,
    private readonly permits: Pick<CreatePermits, 'release'> | null = null,
    private readonly spending: LedgerSpending | null = null,
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
    this.takeRefused();
    if (rows.length > 0 && String(header[LEDGER_COLUMNS.state - 1] ?? '') === FIRST_STATE_HEADER) this.rewriteIndex();
    return this.entries.slice();
  }

  /**
   * Reads the index of every row and whole only the open records (and the newest of `view`'s sheet): what a tick and
   * a panel poll need (a view of a small ledger takes them from one read of every row). A ledger of the first version
   * is read whole (and its index rewritten) instead.
   */
  loadOpen(view?: LedgerView): LedgerEntry[] {
    const whole =
      view && this.table.rowCount() <= VIEW_READ_WHOLE_ROWS ? this.table.readIndexed(LEDGER_COLUMNS.state, 2) : null;
    const { header, rows } = whole?.index ?? this.table.readColumns(LEDGER_COLUMNS.state, 2);
    if (rows.length > 0 && String(header[0] ?? '') === FIRST_STATE_HEADER) return this.load();
    this.reset(rows.map(([state, sheetId]) => indexRowOf(state, sheetId)));
    const wanted = new Set(this.index.flatMap((row, at) => (row.closed === null ? [at] : [])));
    if (view) {
      const ofSheet = this.index.flatMap((row, at) => (row.sheetId === view.sheetId ? [at] : []));
      for (const at of ofSheet.slice(-view.newest)) wanted.add(at);
    }
    const at = [...wanted].sort((a, b) => a - b);
    (whole ? at.map((index) => whole.rows[index]) : this.table.readRows(at)).forEach((row, i) => this.take(row, at[i]));
    this.takeRefused(whole ? wanted : null);
    return this.entries.slice();
  }

  /** Done records closed on `since`'s UTC day or later (or not saying when), read whole and sealed; state unchanged. */
  doneSince(since: number): LedgerEntry[] {
    const wanted = doneSinceRows(this.table.readColumns(LEDGER_COLUMNS.state, 1).rows, since);
    return (wanted.length > 0 ? this.table.readRows(wanted).map(rowToEntry) : []).filter(isDoneRecord);
  }

  /**
   * The records of open spending runs the last load did not find as the add-in wrote them (their rows deleted, or
   * changed outside Sheet Scout), by run. After a partial load some may be closed records the index did not read (a
   * load of the whole ledger tells).
   */
  missing(salvaging: readonly RunRecord[] = []): UnsettledRun[] {
    return missingFrom(this.spending?.unsettled() ?? [], this.entries, salvaging);
  }

  /** Of the given records, those their run in the spending history still waits for (by record id). */
  unsettledRecords(records: readonly RunRecord[]): string[] {
    return unsettledAmong(this.spending?.unsettled() ?? [], records);
  }

  /** Settles records in the spending history directly (tasks whose records were changed outside Sheet Scout). */
  settleOutcomes(outcomes: readonly RecordOutcome[]): void {
    if (outcomes.length > 0) this.spending?.settle(outcomes);
  }

  /**
   * Settles in the spending history the records of open runs the whole ledger no longer holds as the add-in wrote
   * them (lost), and those it holds closed whose settlement did not reach the history (a write it refused): read
   * whole only when a partial load missed any. `salvaging`: records changed outside Sheet Scout whose tasks are
   * settled by what the service says (polling/tick-read.ts). How many records were lost.
   */
  settleMissing(salvaging: readonly RunRecord[] = []): number {
    if (this.missing(salvaging).length === 0) return 0;
    this.load();
    const closed = this.entries.filter((entry) => !isPending(entry));
    this.spending?.settle(closed.flatMap((entry) => spendingOutcomes(entry, undefined)));
    const lost = this.missing(salvaging);
    this.spending?.lose(lost);
    return lost.reduce((sum, run) => sum + run.keys.length, 0);
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
    return new Set(
      rows.filter((row) => Number(row[0]) === sheetId && row[1]).flatMap((row) => String(row[1]).split(',')),
    );
  }

  /** Whether enough finished records are past their retention for compact() to be worth its sheet writes. */
  compactionDue(now: number): boolean {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const expired = this.index.filter((row) => row.closed !== null && row.closed < day(now - RETENTION_MS));
    return (
      this.staleRows.length > 0 ||
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
    if (expired.size > 0 || this.staleRows.length > 0) {
      this.table.deleteRows([...[...expired].map((id) => this.rowsById.get(id) as number), ...this.staleRows]);
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
    this.staleRows = [];
  }

  /** Reports the refused rows (changed outside Sheet Scout; of `taken` if given): never acted on, kept as they are. */
  private takeRefused(taken: ReadonlySet<number> | null = null): void {
    for (const { index, cells } of this.table.refused())
      if (!taken || taken.has(index))
        this.damagedRows.push({ entryId: String(cells[0] ?? ''), taskId: String(cells[1] ?? ''), changed: true });
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
    // A record copied to another row (the ledger sheet edited): the later copy counts, the other is never acted on.
    const copied = this.positions.get(entry.id);
    if (copied !== undefined) {
      const later = isLater(entry, this.entries[copied]);
      this.staleRows.push(later ? (this.rowsById.get(entry.id) as number) : at);
      if (!later) return;
      this.entries[copied] = entry;
    } else {
      this.positions.set(entry.id, this.entries.length);
      this.entries.push(entry);
    }
    this.rowsById.set(entry.id, at);
    this.index[at] = indexRowOfEntry(entry);
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
