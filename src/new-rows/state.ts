// What "Keep enriching new rows" keeps. In the document's properties (where only the add-in writes), each sheet's
// own values, so that one sheet's change never rewrites another's: its setting (its domain column and field columns as
// the sheet was enriched, when it was turned on, the digest of the list as last counted, what the last checks did,
// and research's own state: its timer and last run), the terms of research on its new rows (the brief, depth and
// output its saver confirmed: written only when saved or stopped, and bounded by the storage budget,
// src/shared/property-budget.ts), and what this month's research reserved; an index of the sheets that have it on.
// Earlier versions kept every sheet's setting in one list rewritten whole: it is read until the next write moves it.
// In the records sheet (src/shared/record-sheet.ts, one hidden sheet): each sheet's list as counted, the domain texts
// still waiting for the service (since when) and the rows filled but not yet researched (about 20 characters a row: a
// 10,000-row list does not belong in the 500 KB of properties every feature shares). Pure over the stores.
import type { KeyValueStore, SizedStore } from '../ports';
import {
  readChunked,
  readChunkedJson,
  readChunkedList,
  removeChunked,
  utf8Bytes,
  writeChunked,
} from '../shared/storage/chunked-store';
import { countsFromRecord, countsToRecord, type RowCounts } from './rows';
import type { NewRowsCheck, NewRowsProblem } from './contract';
import type { MonthSpend, NewRowsResearch } from './research';
import type { EnrichedList } from './enrichment-port';

/** Earlier versions: every sheet's setting in one chunked list. */
const LEGACY_SETTINGS_KEY = 'sheetscout.newRows.sheets';
/** The ids of the sheets that have it on (JSON array). */
const INDEX_KEY = 'sheetscout.newRows.index';
/** Per sheet: its setting (chunked JSON, research's terms aside). */
const SHEET_KEY_PREFIX = 'sheetscout.newRows.sheet.';
/** Per sheet: the terms of research on its new rows, as its saver confirmed them (chunked JSON). */
const RESEARCH_KEY_PREFIX = 'sheetscout.newRows.research.';
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

/** What research on a sheet's new rows keeps apart from its setting: what its saver confirmed. */
export type ResearchTerms = Omit<NewRowsResearch, 'timer' | 'lastRun'>;

/** A sheet's setting as stored: research's terms are kept under their own key. */
type StoredSetting = Omit<NewRowsSetting, 'research'> & {
  research: Pick<NewRowsResearch, 'timer' | 'lastRun'> | null;
};

const sheetKey = (sheetId: number) => SHEET_KEY_PREFIX + sheetId;
const researchKey = (sheetId: number) => RESEARCH_KEY_PREFIX + sheetId;

function readIndex(store: KeyValueStore): number[] | null {
  const text = store.get(INDEX_KEY);
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/** The research's terms as stored (the text compared before a write, so that an unchanged one is not rewritten). */
export function termsText(research: NewRowsResearch): string {
  const { timer: _timer, lastRun: _lastRun, ...terms } = research;
  return JSON.stringify(terms);
}

/** The bytes research's terms take in the document's properties (what the storage budget counts for its saver). */
export function termsBytes(research: NewRowsResearch): number {
  return utf8Bytes(termsText(research));
}

/** One sheet's setting, or null when it has none. */
export function readSetting(store: KeyValueStore, sheetId: number): NewRowsSetting | null {
  if (readIndex(store) === null) return readSettings(store).find((setting) => setting.sheetId === sheetId) ?? null;
  return storedSetting(store, sheetId);
}

function storedSetting(store: KeyValueStore, sheetId: number): NewRowsSetting | null {
  const stored = readChunkedJson(store, sheetKey(sheetId)) as StoredSetting | null;
  if (!stored || typeof stored !== 'object' || stored.sheetId !== sheetId) return null;
  const terms = stored.research ? (readChunkedJson(store, researchKey(sheetId)) as ResearchTerms | null) : null;
  const research = stored.research && terms && typeof terms === 'object' ? { ...terms, ...stored.research } : null;
  return { ...stored, research };
}

/** Every sheet's setting. */
export function readSettings(store: KeyValueStore): NewRowsSetting[] {
  const index = readIndex(store);
  if (index === null) return readChunkedList<NewRowsSetting>(store, LEGACY_SETTINGS_KEY);
  return index.flatMap((sheetId) => storedSetting(store, sheetId) ?? []);
}

/**
 * Replaces one sheet's setting (null: removes it), its research's terms only when they changed. The setting goes
 * first: a write cut short between the two leaves the setting with research's earlier terms, which its saver had
 * confirmed (or none).
 */
export function writeSetting(store: SizedStore, sheetId: number, next: NewRowsSetting | null): void {
  moveLegacyList(store);
  const index = readIndex(store) ?? [];
  if (next === null) {
    if (index.includes(sheetId)) store.set(INDEX_KEY, JSON.stringify(index.filter((id) => id !== sheetId)));
    removeChunked(store, sheetKey(sheetId));
    removeChunked(store, researchKey(sheetId));
    return;
  }
  const { research, ...rest } = next;
  const stored: StoredSetting = { ...rest, research: research && { timer: research.timer, lastRun: research.lastRun } };
  writeChunked(store, sheetKey(sheetId), JSON.stringify(stored));
  const terms = research ? termsText(research) : null;
  if (terms === null) removeChunked(store, researchKey(sheetId));
  else if (readChunked(store, researchKey(sheetId)) !== terms) writeChunked(store, researchKey(sheetId), terms);
  if (!index.includes(sheetId)) store.set(INDEX_KEY, JSON.stringify([...index, sheetId]));
}

/**
 * Moves the list of earlier versions to one value per sheet: written first, the list removed after, when the
 * document's properties hold both; else (a document nearly full) the list is removed first, so that the move fits.
 */
function moveLegacyList(store: SizedStore): void {
  if (readIndex(store) !== null || store.get(LEGACY_SETTINGS_KEY) === null) return;
  const settings = readChunkedList<NewRowsSetting>(store, LEGACY_SETTINGS_KEY);
  const bytes = utf8Bytes(JSON.stringify(settings));
  const removeFirst = store.bytesFree() < 2 * bytes + 16 * 1024;
  if (removeFirst) removeChunked(store, LEGACY_SETTINGS_KEY);
  store.set(INDEX_KEY, '[]');
  for (const setting of settings) writeSetting(store, setting.sheetId, setting);
  if (!removeFirst) removeChunked(store, LEGACY_SETTINGS_KEY);
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
