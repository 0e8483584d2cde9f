// Writing research into the sheet (a tick's results, a launch's statuses), read, decide, write: what each sheet's
// rows need is read once, just before the write (where each record's rows are now, by its key values or row tag; the
// values of the rows a watch is about to change), every cell is decided (results.ts; a watched row's Signals,
// watch.ts), then one batched write per sheet and the watch's signals to the digest's outbox. Which rows still need
// their report and fields, and the row tags no record needs any more.
import type { TaskReport } from '../../api/types';
import { identityTags, isPending, needsRow, statusText, type LedgerEntry } from '../records/ledger';
import type { CellWrite, GridPort } from '../ports';
import { sheetWrites, type SheetRows } from './results';
import { keyColumn, keyString, locateRows, type SheetView } from './row-locator';
import { type JobDeps } from '../polling/jobs';
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

/** Reads what writing `entries` of one sheet needs (SheetRows); `owners`: the records whose row tags it respects. */
function readSheetRows(
  deps: JobDeps,
  sheetId: number,
  entries: LedgerEntry[],
  owners: readonly LedgerEntry[],
  fresh: Map<string, TaskReport>,
): SheetRows {
  const view = sheetView(deps.grid, sheetId, entries, owners);
  const located = entries.map((entry) => {
    const rows = view ? locateRows(entry.row, view) : [];
    return { entry, rows, report: rows.length > 0 ? finishedReport(deps, entry, fresh) : null };
  });
  const watched = located
    .filter(({ entry, report }) => entry.watch && !entry.written && report?.kind === 'schema')
    .flatMap(({ rows }) => rows);
  const values = watched.length > 0 ? deps.grid.readRows(sheetId, watched) : [];
  return {
    sheetId,
    headers: view?.headers ?? [],
    located,
    before: new Map(watched.map((row, i) => [row, values[i] ?? []])),
  };
}

/**
 * Writes the rows of the given records (status changes and final results): reads each sheet's rows once, decides
 * every cell, then writes one batch per sheet. Final records whose row cannot be trusted any more become detached
 * (their result stays in the ledger and viewer). Returns the records with `written`/`shownStatus`/`detached` updated.
 */
export function writeRows(deps: JobDeps, entries: LedgerEntry[], fresh: Map<string, TaskReport>): LedgerEntry[] {
  const bySheet = new Map<number, LedgerEntry[]>();
  const detached: LedgerEntry[] = [];
  for (const entry of entries) {
    if (!entry.detached) bySheet.set(entry.row.sheetId, [...(bySheet.get(entry.row.sheetId) ?? []), entry]);
    else if (!isPending(entry) && !entry.written) detached.push({ ...entry, written: true });
  }
  const owners = deps.ledger.all();
  // Each sheet read (just before the writes), then its cells decided; the writes follow, one batch per sheet.
  const writes: Array<{ sheetId: number; cells: CellWrite[]; updated: LedgerEntry[]; signals: SignalItem[] }> = [];
  for (const [sheetId, list] of bySheet) {
    const sheet = readSheetRows(deps, sheetId, list, [...owners, ...list], fresh);
    writes.push({ sheetId, ...sheetWrites(sheet) });
  }
  for (const { sheetId, cells } of writes) if (cells.length > 0) deps.grid.write(sheetId, cells);
  // What the Signals cells now say waits for the spreadsheet's digest (before the ledger is saved: a tick killed in
  // between writes them again, and the digest lists a row's signals of one run once).
  deps.digest?.add(writes.flatMap((write) => write.signals));
  return [...detached, ...writes.flatMap((write) => write.updated)];
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
