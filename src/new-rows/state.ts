// What "Keep enriching new rows" keeps. In the document's properties (where only the add-in writes): each sheet's
// setting (its domain column and field columns as the sheet was enriched, when it was turned on, the digest of the
// list as last counted, when it is next checked, what the last checks did) with, when research on new rows is on,
// what its saver confirmed and what this month's research reserved; all sheets in one chunked value. In the records
// sheet (src/shared/record-sheet.ts, one hidden sheet): each sheet's list as counted, the domain texts still waiting
// for the service (since when) and the rows filled but not yet researched (about 20 characters a row: a 10,000-row
// list does not belong in the 500 KB of properties every feature shares). Pure over the stores.
import type { KeyValueStore } from '../ports';
import { readChunkedList, writeChunkedList } from '../shared/storage/chunked-store';
import { countsFromRecord, countsToRecord, type RowCounts } from './rows';
import type { NewRowsCheck, NewRowsProblem } from './contract';
import type { MonthSpend, NewRowsResearch } from './research';
import type { EnrichedList } from './enrichment-port';

const SETTINGS_KEY = 'sheetscout.newRows.sheets';
/** When the timer last checked the sheets (all of a document's sheets are checked in one run). */
const CHECKED_AT_KEY = 'sheetscout.newRows.checkedAt';
/** The sheets are checked at every timer run at least this long after the last check (hourly runs: every run). */
export const CHECK_EVERY_MS = 45 * 60_000;
const LIST_KEY_PREFIX = 'sheetscout.newRows.list.';
/** Per sheet: what research on its new rows reserved this month (kept when it is turned off and on again). */
const SPENT_KEY_PREFIX = 'sheetscout.newRows.spent.';

export interface NewRowsSetting extends EnrichedList {
  /** When it was turned on. */
  since: number;
  /** digestOf the list as last counted (rows.ts). */
  digest: string;
  /** Rows waiting for the service (looked up again at the next check). */
  waiting: number;
  /** Filled rows research on new rows still owes (its payer's timer launches them at its next run). */
  owed: number;
  /** The last check that found new rows, for the panel. */
  lastFound: NewRowsCheck | null;
  /** Why the checks cannot do their work now, since when; null when they can. */
  problem: NewRowsProblem | null;
  totals: { added: number; filled: number };
  research: NewRowsResearch | null;
}

/** The list of a sheet as counted, the texts waiting for the service, and the filled rows research still owes. */
export interface ListRecord {
  known: RowCounts;
  /** Domain text -> when its rows first waited for the service (ms). */
  waiting: Map<string, number>;
  /** Domain text -> rows filled since research on new rows was saved and not researched yet. */
  owed: RowCounts;
}

export function readSettings(store: KeyValueStore): NewRowsSetting[] {
  return readChunkedList<NewRowsSetting>(store, SETTINGS_KEY);
}

export function writeSettings(store: KeyValueStore, settings: NewRowsSetting[]): void {
  writeChunkedList(store, SETTINGS_KEY, settings);
}

/** The settings with one sheet's replaced (or added, or removed with null). */
export function withSetting(settings: NewRowsSetting[], sheetId: number, next: NewRowsSetting | null) {
  const others = settings.filter((setting) => setting.sheetId !== sheetId);
  return next ? [...others, next] : others;
}

/** A sheet's list record, or null when none is kept (never saved, or the records sheet lost it). */
export function readList(records: KeyValueStore, sheetId: number): ListRecord | null {
  const text = records.get(LIST_KEY_PREFIX + sheetId);
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as { known?: unknown; waiting?: unknown; owed?: unknown };
    const waiting = new Map<string, number>();
    if (parsed.waiting && typeof parsed.waiting === 'object')
      for (const [domain, since] of Object.entries(parsed.waiting as Record<string, unknown>))
        if (typeof since === 'number') waiting.set(domain, since);
    return { known: countsFromRecord(parsed.known), waiting, owed: countsFromRecord(parsed.owed) };
  } catch {
    return null;
  }
}

export function writeList(records: KeyValueStore, sheetId: number, list: ListRecord): void {
  records.set(
    LIST_KEY_PREFIX + sheetId,
    JSON.stringify({
      known: countsToRecord(list.known),
      waiting: Object.fromEntries(list.waiting),
      owed: countsToRecord(list.owed),
    }),
  );
}

export function removeList(records: KeyValueStore, sheetId: number): void {
  records.remove(LIST_KEY_PREFIX + sheetId);
}

export function readSpent(store: KeyValueStore, sheetId: number): MonthSpend | null {
  try {
    const parsed = JSON.parse(store.get(SPENT_KEY_PREFIX + sheetId) ?? 'null') as MonthSpend | null;
    return parsed && typeof parsed.month === 'string' && typeof parsed.reserved === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

export function writeSpent(store: KeyValueStore, sheetId: number, spent: MonthSpend): void {
  store.set(SPENT_KEY_PREFIX + sheetId, JSON.stringify(spent));
}

export function readCheckedAt(store: KeyValueStore): number | null {
  const at = Number(store.get(CHECKED_AT_KEY));
  return Number.isFinite(at) && at > 0 ? at : null;
}

export function writeCheckedAt(store: KeyValueStore, at: number): void {
  store.set(CHECKED_AT_KEY, String(at));
}

/** Rows in a count. */
export const rowsIn = (counts: RowCounts): number => [...counts.values()].reduce((sum, rows) => sum + rows, 0);

/**
 * When the settings next need the timer: now (null) while rows wait for the service or research owes rows (the timer
 * of its payer, which may not be the one that filled them, must not take its next run for an idle one), else the next
 * check after the last one (`checkedAt`; null: now); undefined when no sheet has it on.
 */
export function settingsWake(settings: readonly NewRowsSetting[], checkedAt: number | null): number | null | undefined {
  if (settings.length === 0) return undefined;
  if (settings.some((setting) => setting.waiting > 0 || (setting.research !== null && setting.owed > 0))) return null;
  return checkedAt === null ? null : checkedAt + CHECK_EVERY_MS;
}
