// Account watch (the rules; watch-service.ts runs them): rows of a sheet researched again on a schedule with a fields
// schema, each run comparing every field with what the row held and writing a "Signals" cell, which names each field
// by its column ("Employees 51-200 → 201-500; new Funding: Series B") beside the new values, whose cells get a "Was X until <day>" note.
// One watch per sheet, kept in the records sheet (a thousand rows' keys do not fit a property). A row is known by the
// values of the brief's columns (as launches know it), so sorts and inserts keep it; rows repeating the same values
// are one company, watched once (in the first such row). The money rules: a run's most
// (every row at the depth's full reservation) is shown and confirmed before saving; a run the spending cap has no
// room for does not start and says why; a run's launch is recorded before anything is sent and its rows carry the
// run's number, so an interrupted run resumes without paying twice for a row; only the timer of the editor who saved
// the watch (whose token confirmed the cost) runs it. The record lives in a hidden sheet any editor can change, so
// what decides money (the rows, brief, depth and fields, the cadence, whether it is paused, who pays, when a run last
// started) is also kept in the document's properties as the saver confirmed it (WatchConfirmation): a run whose record
// does not match it does not start, and the panel's figures come from it. Pure over the stores.
import { clip } from '../../api/errors';
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import type { LedgerEntry, OutputMapping, WatchMark } from '../records/ledger';
import type { CellWrite } from '../ports';
import type { SignalItem } from '../../shared/storage/digest-outbox';
import type { WatchCadence } from '../contract';
import { counted } from '../spending/depth';
import type { KeyValueStore } from '../../ports';
import { changeNote, gridText, sameCell, writtenText } from '../../enrichment/sheet/refresh-changes';
import { noteDocumentChanged } from '../../scheduler/changes';

export const WATCHES_KEY = 'sheetscout.research.watches';
export const SIGNALS_HEADER = 'Signals';
/** Runs a month can hold: five weekly runs (a month has 4 or 5 of a weekday), one monthly. */
export const RUNS_PER_MONTH: Record<WatchCadence, number> = { weekly: 5, monthly: 1 };
const SIGNAL_VALUE_CHARS = 60;
const SIGNALS_CHARS = 2000;
/** The Signals cell of a row whose fields were all empty before: nothing to compare yet. */
export const FIRST_LOOK = 'First look: the next run compares with these values';

export interface Watch {
  id: string;
  sheetId: number;
  sheetName: string;
  template: string;
  depth: TaskDepth;
  schema: JsonSchemaObject;
  mapping: OutputMapping;
  /** Headers of the brief's columns, and each watched row's values in them. */
  keyHeaders: string[];
  rowKeys: string[][];
  cadence: WatchCadence;
  weekday: number;
  status: 'active' | 'paused';
  nextRunAt: number;
  creditsPerRun: number;
  /** The run whose launch was started (its rows carry `n`): done once its records are in the ledger. */
  run: { n: number; at: number } | null;
  /**
   * Since when the due run has not been able to reach the service (absent: it could): the run keeps its place and
   * the timer tries it again at every tick.
   */
  unreachableSince?: number;
  runs: number;
  lastRun: { at: number; text: string } | null;
  /** Who saved it (the service account's e-mail: runs are paid from it) and when the cost was confirmed. */
  savedBy: string;
  confirmedAt: number;
  /**
   * The timer of the editor who saved it (their token pays, so only their timer runs it), by trigger id; null when
   * none could be made (a test deployment: runs start while a panel of theirs is open).
   */
  timer: string | null;
}

/**
 * What the watch's last run did, from its records once all of them are final ("Researched 5 rows: 2 changed, 1
 * failed, 34 credits charged"); null while any is pending (the run's own line stands).
 */
export function runSummary(records: readonly LedgerEntry[], charged: (entry: LedgerEntry) => number): string | null {
  if (records.length === 0 || records.some((entry) => !['done', 'failed', 'error'].includes(entry.state))) return null;
  const failed = records.filter((entry) => entry.state !== 'done').length;
  const changed = records.filter((entry) => entry.watch?.changed).length;
  const credits = records.reduce((sum, entry) => sum + charged(entry), 0);
  return `Researched ${counted(records.length, 'row')}: ${changed} changed, ${failed} failed, ${counted(credits, 'credit')} charged`;
}

/** DocumentProperties: when the watches were last changed (an open panel then reads them again). */
const WATCHES_CHANGED_KEY = 'sheetscout.research.watchesChangedAt';

export function watchesChangedAt(document: KeyValueStore): number | null {
  const at = Number(document.get(WATCHES_CHANGED_KEY));
  return Number.isFinite(at) && at > 0 ? at : null;
}

export function noteWatchesChanged(document: KeyValueStore, at: number): void {
  document.set(WATCHES_CHANGED_KEY, String(at));
  noteDocumentChanged(document, at);
}

export function readWatches(store: KeyValueStore): Watch[] {
  try {
    const parsed = JSON.parse(store.get(WATCHES_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as Watch[]) : [];
  } catch {
    return [];
  }
}

export function writeWatches(store: KeyValueStore, watches: Watch[]): void {
  if (watches.length === 0) store.remove(WATCHES_KEY);
  else store.set(WATCHES_KEY, JSON.stringify(watches));
}

/**
 * When the watches next need the timer: the earliest active watch's next run, null (now) while a run is under way or
 * waits for the service, undefined when no watch is active.
 */
export function watchesWake(watches: Watch[]): number | null | undefined {
  const active = watches.filter((watch) => watch.status === 'active');
  if (active.length === 0) return undefined;
  if (active.some((watch) => watch.run)) return null;
  return Math.min(...active.map((watch) => watch.nextRunAt));
}

export function creditsPerMonth(creditsPerRun: number, cadence: WatchCadence): number {
  return creditsPerRun * RUNS_PER_MONTH[cadence];
}

/**
 * Whether a field's value as the sheet shows it (`before`, display text) is the value the service answers now (as
 * the add-in writes it), compared by value: a Yes/No field shows TRUE/FALSE, a number as the sheet formats it
 * ("1,200"), a list is the same list in any order (a service may list the same items differently); text and URLs as
 * they are (trimmed).
 */
export function sameValue(before: unknown, after: unknown): boolean {
  const shown = gridText(before).trim();
  if (typeof after === 'boolean') return shown.toUpperCase() === (after ? 'TRUE' : 'FALSE');
  if (typeof after === 'number') {
    const parsed = Number(shown.replace(/[,\s\u00a0]/g, ''));
    return shown !== '' && Number.isFinite(parsed) && Math.abs(parsed - after) <= 1e-9 * Math.max(1, Math.abs(after));
  }
  const items = (text: string) =>
    text
      .split('\n')
      .map((item) => item.trim())
      .filter(Boolean)
      .sort()
      .join('\n');
  return sameCell(before, after) || items(shown) === items(writtenText(after).trim());
}

/** One field's value before (read from the grid) and after a run (as the add-in writes it), by its column's header. */
export interface FieldChange {
  name: string;
  before: unknown;
  after: unknown;
}

/**
 * The Signals cell of a row: each field whose value changed ("name before → after", "new name: after" for a value
 * that appears, "name removed (was before)" for one that goes), or "No change" when none did.
 */
export function signalsText(fields: FieldChange[]): string {
  const parts: string[] = [];
  for (const { name, before, after } of fields) {
    if (sameValue(before, after)) continue;
    const was = clip(gridText(before).trim(), SIGNAL_VALUE_CHARS);
    const now = clip(writtenText(after).trim(), SIGNAL_VALUE_CHARS);
    if (was === '') parts.push(`new ${name}: ${now}`);
    else if (now === '') parts.push(`${name} removed (was ${was})`);
    else parts.push(`${name} ${was} → ${now}`);
  }
  const text = parts.length > 0 ? parts.join('; ') : 'No change';
  return clip(text, SIGNALS_CHARS);
}

/**
 * A watched row's cells of a finished run: the field cells whose value changed get a "Was X until <day>" note, and
 * the Signals cell says what changed (`before`: the row's display values before the write, column 1 first).
 */
export function withSignals(
  cells: CellWrite[],
  mapping: OutputMapping,
  mark: WatchMark,
  row: number,
  before: readonly string[],
  columns: Map<string, number>,
): CellWrite[] {
  const byColumn = new Map(cells.map((cell) => [cell.column, cell]));
  const changes: FieldChange[] = [];
  const out = cells.map((cell) => ({ ...cell }));
  for (const field of mapping.fields ?? []) {
    const column = columns.get(field.header);
    const cell = column ? byColumn.get(column) : undefined;
    if (!column || !cell) continue;
    const was = before[column - 1] ?? '';
    changes.push({ name: field.header, before: was, after: cell.value });
    const target = out.find((candidate) => candidate.column === column);
    // A changed value's note says what it was (joined with the value's own evidence note, if any).
    if (target && !sameValue(was, cell.value) && gridText(was).trim() !== '')
      target.note = [changeNote(was, mark.day), cell.note].filter(Boolean).join('\n\n');
  }
  const signalsColumn = columns.get(mark.signalsHeader);
  const firstLook = changes.every((change) => gridText(change.before).trim() === '');
  if (signalsColumn)
    out.push({ row, column: signalsColumn, value: firstLook ? FIRST_LOOK : signalsText(changes), note: null });
  return out;
}

/**
 * A watched row's cells of a finished run (withSignals) and, when its Signals cell reports a change, the signal as the
 * digest lists it: the row's key values and the Signals cell's text, under the watch's run.
 */
export function watchedRow(
  cells: CellWrite[],
  entry: LedgerEntry,
  mark: WatchMark,
  at: { row: number; before: readonly string[]; columns: Map<string, number> },
): { cells: CellWrite[]; signal: SignalItem | null } {
  const written = withSignals(cells, entry.mapping, mark, at.row, at.before, at.columns);
  const text = written.find((cell) => cell.column === at.columns.get(mark.signalsHeader))?.value;
  // The Signals cell reports a change (not "No change", nor a first look at the values).
  if (typeof text !== 'string' || text === 'No change' || text === FIRST_LOOK) return { cells: written, signal: null };
  const label = entry.row.keyValues.filter(Boolean).join(' · ') || `row ${entry.row.rowHint}`;
  return { cells: written, signal: { sheetId: entry.row.sheetId, label, text, ref: `${mark.id}:${mark.run}` } };
}
