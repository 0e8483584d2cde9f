// Writing finished research into the sheet: where each task's row is now (by its key values or row tag), which
// rows still need their report and fields, and one batched write per sheet.
import type { TaskReport } from '../../api/types';
import { identityTags, isPending, needsRow, statusText, type LedgerEntry, type WatchMark } from '../records/ledger';
import type { CellWrite, GridPort } from '../ports';
import { headerIndex, rowCells } from './results';
import { keyColumn, keyString, locateRows, type SheetView } from './row-locator';
import { type JobDeps } from '../polling/jobs';
import { signalsChanged, withSignals } from '../watch/watch';
import type { SignalItem } from '../../shared/storage/digest-outbox';

function sheetView(
  grid: GridPort,
  sheetId: number,
  entries: LedgerEntry[],
  owners: readonly LedgerEntry[],
): SheetView | null {
  const headers = grid.headers(sheetId);
  if (!headers) return null;
  const columns: number[] = [];
  for (const entry of entries) {
    for (const header of entry.row.keyHeaders) {
      const column = keyColumn(headers, header);
      if (column !== null && !columns.includes(column)) columns.push(column);
    }
  }
  columns.sort((a, b) => a - b);
  const tagOwners = new Map<string, string>();
  for (const owner of owners) {
    if (owner.row.sheetId !== sheetId || owner.detached || !needsRow(owner)) continue;
    for (const tag of identityTags(owner.row)) tagOwners.set(tag, keyString(owner.row.keyValues));
  }
  // Row tags are read (a metadata search) only when a record to locate, or one whose row others must respect, has one.
  const tagged = tagOwners.size > 0 || entries.some((entry) => identityTags(entry.row).length > 0);
  return {
    headers,
    rowIds: tagged ? grid.rowIds(sheetId) : new Map(),
    tagOwners,
    keyColumns: columns,
    keyRows: columns.length > 0 ? grid.readColumns(sheetId, columns) : [],
  };
}

/**
 * The current rows of each record of one sheet (none: no row can be trusted with it), as writes would find them.
 * `owners` (default: the records themselves) are the records of the sheet whose row tags key matches must respect.
 */
export function locateEntries(
  grid: GridPort,
  sheetId: number,
  entries: LedgerEntry[],
  owners: readonly LedgerEntry[] = entries,
): Map<string, number[]> {
  const view = sheetView(grid, sheetId, entries, owners);
  return new Map(entries.map((entry) => [entry.id, view ? locateRows(entry.row, view) : []]));
}

const finishedReport = (deps: JobDeps, entry: LedgerEntry, fresh: Map<string, TaskReport>) =>
  entry.state === 'done' && entry.taskId ? (fresh.get(entry.taskId) ?? deps.reports.get(entry.taskId) ?? null) : null;

/** The values of the rows where an account watch's finished fields are about to be written (one read), by row. */
function watchedRowsBefore(
  deps: JobDeps,
  sheetId: number,
  located: Array<{ entry: LedgerEntry; rows: number[] }>,
  fresh: Map<string, TaskReport>,
): Map<number, string[]> {
  const rows = located
    .filter(({ entry }) => entry.watch && !entry.written)
    .filter(({ entry }) => finishedReport(deps, entry, fresh)?.kind === 'schema')
    .flatMap(({ rows }) => rows);
  if (rows.length === 0) return new Map();
  const values = deps.grid.readRows(sheetId, rows);
  return new Map(rows.map((row, i) => [row, values[i] ?? []]));
}

/**
 * Writes the rows of the given records (status changes and final results), one batch per sheet. Final records whose
 * row cannot be trusted any more become detached (their result stays in the ledger and viewer). Returns the records
 * with `written`/`shownStatus`/`detached` updated.
 */
export function writeRows(deps: JobDeps, entries: LedgerEntry[], fresh: Map<string, TaskReport>): LedgerEntry[] {
  const bySheet = new Map<number, LedgerEntry[]>();
  for (const entry of entries) {
    const finalState = !isPending(entry);
    if (entry.detached) {
      if (finalState && !entry.written) bySheet.set(-1, [...(bySheet.get(-1) ?? []), entry]);
      continue;
    }
    const list = bySheet.get(entry.row.sheetId) ?? [];
    list.push(entry);
    bySheet.set(entry.row.sheetId, list);
  }
  const updated: LedgerEntry[] = [];
  const signals: SignalItem[] = [];
  for (const [sheetId, list] of bySheet) {
    if (sheetId === -1) {
      updated.push(...list.map((entry) => ({ ...entry, written: true })));
      continue;
    }
    const view = sheetView(deps.grid, sheetId, list, [...deps.ledger.all(), ...list]);
    const columns = view ? headerIndex(view.headers) : new Map<string, number>();
    const located = list.map((entry) => ({ entry, rows: view ? locateRows(entry.row, view) : [] }));
    const before = watchedRowsBefore(deps, sheetId, located, fresh);
    const cells: CellWrite[] = [];
    for (const { entry, rows } of located) {
      const finalState = !isPending(entry);
      if (rows.length === 0) {
        if (finalState) updated.push({ ...entry, detached: true, written: true });
        continue;
      }
      const report = finishedReport(deps, entry, fresh);
      let changed = false;
      // Every row that asks the question gets the result (and, for a watch, its own Signals against its own values).
      for (const row of rows) {
        const own = rowCells(entry, report, row, columns);
        const was = before.get(row);
        const written = entry.watch && was ? withSignals(own, entry.mapping, entry.watch, row, was, columns) : own;
        cells.push(...written);
        if (entry.watch && finalState && signalsChanged(written, entry.watch, columns)) {
          changed = true;
          signals.push(signalItem(entry, entry.watch, written, columns));
        }
      }
      const watch = entry.watch && finalState ? { ...entry.watch, changed } : entry.watch;
      updated.push({ ...entry, watch, written: finalState ? true : entry.written, shownStatus: statusText(entry) });
    }
    if (cells.length > 0) deps.grid.write(sheetId, cells);
  }
  // What the Signals cells now say waits for the spreadsheet's digest (before the ledger is saved: a tick killed in
  // between writes them again, and the digest lists a row's signals of one run once).
  deps.digest?.add(signals);
  return updated;
}

/** A watched row's signals as the digest lists them: its key values and its Signals cell's text. */
function signalItem(
  entry: LedgerEntry,
  watch: WatchMark,
  cells: CellWrite[],
  columns: Map<string, number>,
): SignalItem {
  const text = cells.find((cell) => cell.column === columns.get(watch.signalsHeader))?.value;
  const label = entry.row.keyValues.filter(Boolean).join(' · ') || `row ${entry.row.rowHint}`;
  return { sheetId: entry.row.sheetId, label, text: String(text ?? ''), ref: `${watch.id}:${watch.run}` };
}

/** A record whose row shows something out of date: a new status, or a final result not yet written. */
export function rowNeedsWrite(entry: LedgerEntry): boolean {
  if (!isPending(entry)) return !entry.written;
  return !entry.detached && statusText(entry) !== entry.shownStatus;
}

/** Removes the row tags of the given sheets that no record needs any more (run after the ledger is saved). */
export function releaseRowTags(deps: JobDeps, sheetIds: Iterable<number>): void {
  for (const sheetId of new Set(sheetIds)) {
    const tags = deps.grid.rowIds(sheetId);
    if (tags.size === 0) continue;
    const inUse = deps.ledger.tagsInUse(sheetId);
    deps.grid.untagRows(sheetId, new Set([...tags.keys()].filter((id) => !inUse.has(id))));
  }
}
