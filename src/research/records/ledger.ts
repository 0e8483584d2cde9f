// The research ledger: one record per launched row, kept in a hidden sheet of the document (document properties are
// far too small for thousands of tasks). A record holds the task id, the sheet and row identity, the output mapping,
// status and counters, timestamps, cost and error. The states make launches crash-safe:
//   queued   -> nothing sent yet; safe to create
//   sending  -> a create may have reached the service (its answer was lost); found again through the task list,
//               never re-sent on the absence of evidence
//   unconfirmed -> a lost answer the task list has not shown for a long while: the user decides (Check again, or
//               Send anyway, which may pay twice and says so)
//   created / in_progress -> the task exists; poll it
//   done / failed -> final; `written` says whether the row got the result (a tick that died before writing retries)
//   error    -> the create was refused (402/422/...): nothing exists, nothing charged
// This module is the record format and its pure transitions; stores.ts persists it. A record of any legal request
// (a 20,000-character brief, a 50-property schema) fits: its JSON is split over as many cells as it needs.
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import { joinText, splitText } from '../../shared/storage/text-parts';
import { counted } from '../spending/depth';

/** What a launched record of a watch carries: the watch, the run, where its signals go and the run's day. */
export interface WatchMark {
  id: string;
  run: number;
  signalsHeader: string;
  day: string;
  /** The row's Signals cell, once written, reported a change. */
  changed?: boolean;
}
import type { RecordOutcome, RunOpening, RunStart } from '../../spending-history/history';
import { reservationFor, taskCost } from '../spending/depth';

export type LedgerState =
  'queued' | 'sending' | 'unconfirmed' | 'created' | 'in_progress' | 'done' | 'failed' | 'error';

/** Where results go, by header name (so inserted or moved columns keep working). */
export interface OutputMapping {
  kind: 'report' | 'fields';
  statusHeader: string;
  /** Report output: the markdown column. */
  reportHeader?: string;
  /** Report output: a sources column, or null to put the sources in the report cell's note. */
  sourcesHeader?: string | null;
  /** Fields output: schema property -> column header. */
  fields?: Array<{ name: string; header: string }>;
}

/**
 * How the rows of a record are recognised later (row-locator.ts): a record is one question, and its rows are those
 * that ask it (every row holding the values of the brief's columns it was launched with), plus row tags (developer
 * metadata) only when rows outside the launch held those values too.
 */
export interface RowIdentity {
  sheetId: number;
  /** One row's tag id (an imported task's row, or a record of an earlier version), or null. */
  rowId: string | null;
  /** The first row at launch (a hint only). */
  rowHint: number;
  /** Headers of the key columns (the columns the brief reads). */
  keyHeaders: string[];
  /** Their display values at launch. */
  keyValues: string[];
  /** Other values of the key columns that asked the same question at launch (a domain written two ways), if any. */
  groupKeys?: string[][];
  /** The tags of the record's rows, when rows outside the launch held the same values (row-tags.ts). */
  rowIds?: string[];
  /** How many rows asked the question at launch (absent in records of earlier versions: one). */
  rows?: number;
}

/** The row tags that tell a record's rows apart (none: its key values do). */
export const identityTags = (row: RowIdentity): string[] => row.rowIds ?? (row.rowId ? [row.rowId] : []);

export interface LedgerEntry {
  /** Stable id of this record (also used to match the ledger sheet row). */
  id: string;
  taskId: string | null;
  state: LedgerState;
  row: RowIdentity;
  brief: string;
  depth: TaskDepth;
  schema: JsonSchemaObject | null;
  mapping: OutputMapping;
  iterations: number;
  agents: number;
  sources: number;
  cost: number;
  /** Failure or error text shown to the user. */
  error: string | null;
  degradation: string[];
  launchedAt: number;
  /** When the create was (last) sent; the reconciliation window starts here. */
  sentAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
  /** The row received the final result (or was found gone). */
  written: boolean;
  /** Last status text written to the row (so unchanged rows are not rewritten). */
  shownStatus: string;
  /** The row could not be found or no longer matches: the result stays in the ledger and the viewer. */
  detached: boolean;
  /**
   * Earlier creates of this record whose answer was lost and which the user sent again anyway ("Send anyway"): each
   * may have started a task the service charges, so each counts at the depth's reservation against the spending cap.
   */
  maybeStarted?: number;
  /** A run of an account watch launched this record: its result is compared with the row's values (watch.ts). */
  watch?: WatchMark;
  /** The launch that authorised this record's create (create-permits.ts); absent in records of earlier versions. */
  launch?: string;
  /**
   * The record's place in its launch (0, 1, ...): the bit its grant, its create and its give-back are kept by in the
   * document's properties, and its record in the launch's run of the spending history. Absent in records of earlier
   * versions (known by their id).
   */
  ordinal?: number;
  /** Who started the launch, why and when: its run in the spending history (src/spending-history/history.ts). */
  run?: RunStart & { at: number };
  /**
   * A finished task written into a row with "Write to selected row": no spending of this spreadsheet's (a task
   * launched here counts through its own record, one launched elsewhere does not count here).
   */
  imported?: boolean;
  /**
   * A question this spreadsheet bought earlier, reused on the user's request (launch/reuse.ts): the record of the
   * first task (`from`) and when it was researched. Its task is that one; nothing was reserved or charged for it.
   */
  reused?: { from: string; researchedAt: number };
}

/** When the record's create was sent (before it was: its launch). */
export function sentAt(entry: LedgerEntry): number {
  return entry.sentAt ?? entry.launchedAt;
}

/** Records by id: of two with one id, the later. */
export function byId(entries: Iterable<LedgerEntry>): Map<string, LedgerEntry> {
  return new Map([...entries].map((entry) => [entry.id, entry]));
}

export const PENDING_STATES: readonly LedgerState[] = ['queued', 'sending', 'created', 'in_progress'];

export function isPending(entry: LedgerEntry): boolean {
  return PENDING_STATES.includes(entry.state);
}

/** Pending, or final but not yet written into its row. */
export function needsWork(entry: LedgerEntry): boolean {
  return isPending(entry) || !entry.written;
}

/** Still tied to its row: needs work, or waits for the user's decision on an unconfirmed create. */
export function needsRow(entry: LedgerEntry): boolean {
  return needsWork(entry) || entry.state === 'unconfirmed';
}

/**
 * Ledger sheet columns: a few readable ones, the number of record parts, then the record's JSON in parts. The third,
 * the index state, is what a tick reads of every row: whether the record is still open (it needs its row: pending,
 * unconfirmed, or final and not yet written) and, once closed, the day it closed. So a tick reads whole only the
 * open records, and sees which closed ones are past their retention without reading them.
 */
export const LEDGER_HEADERS = [
  'entry_id',
  'task_id',
  'index_state',
  'sheet_id',
  'row_tag',
  'updated_at',
  'parts',
  'record',
];
/** 1-based columns of the index state, the sheet id, the task id and the row tag. */
export const LEDGER_COLUMNS = { taskId: 2, state: 3, sheetId: 4, tag: 5 } as const;
/** The first ledgers' header of the index state column, which held the plain state. */
export const FIRST_STATE_HEADER = 'state';
const PARTS_COLUMN = 6;
const FINAL_STATES: readonly string[] = ['done', 'failed', 'error'];
const CLOSED_STATE = /^(done|failed|error) (\d{4}-\d{2}-\d{2})$/;

/**
 * The record's index state: for a closed record its state and the day (UTC) it closed ("done 2026-11-25"); for an
 * open one its state, marked when final but not yet written ("done (to write)").
 */
export function indexState(entry: LedgerEntry): string {
  if (!FINAL_STATES.includes(entry.state)) return entry.state;
  if (needsRow(entry)) return `${entry.state} (to write)`;
  return `${entry.state} ${new Date(entry.updatedAt).toISOString().slice(0, 10)}`;
}

/**
 * The day (UTC, "2026-11-25") a closed record closed, or null for an open one (any text not of a closed record is
 * open: an edited or damaged row is read and reported).
 */
export function closedDay(indexText: string): string | null {
  return CLOSED_STATE.exec(indexText)?.[2] ?? null;
}

/**
 * The row tags a record holds: those of one that still needs its rows, or an imported task's ("Write to selected
 * row"), which has no key values and whose row only its tag identifies (its report is found by the row later).
 */
export function heldTags(entry: LedgerEntry): string[] {
  if (entry.detached) return [];
  return needsRow(entry) || entry.row.keyHeaders.length === 0 ? identityTags(entry.row) : [];
}

export function entryToRow(entry: LedgerEntry): Array<string | number> {
  const parts = splitText(JSON.stringify(entry));
  const readable = [
    entry.id,
    entry.taskId ?? '',
    indexState(entry),
    entry.row.sheetId,
    heldTags(entry).join(','),
    new Date(entry.updatedAt).toISOString(),
  ];
  return [...readable, parts.length, ...parts];
}

/**
 * A ledger row that holds something but no record the add-in can act on: kept as it is, and reported. `changed`: its
 * seal failed (the row was changed outside Sheet Scout); otherwise it could not be read.
 */
export interface DamagedRecord {
  entryId: string;
  taskId: string;
  changed?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Whether parsed JSON has the shape of a record (every field the add-in reads before acting on it). */
function isRecord(value: unknown): value is LedgerEntry {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.state !== 'string') return false;
  const { row, mapping } = value;
  return (
    PENDING_STATES.concat(['unconfirmed', 'done', 'failed', 'error']).includes(value.state as LedgerState) &&
    (value.taskId === null || typeof value.taskId === 'string') &&
    typeof value.brief === 'string' &&
    typeof value.depth === 'string' &&
    (value.schema === null || isObject(value.schema)) &&
    isObject(row) &&
    Number.isInteger(row.sheetId) &&
    (row.rowId === null || typeof row.rowId === 'string') &&
    (row.rowIds === undefined || isStringList(row.rowIds)) &&
    (row.groupKeys === undefined || (Array.isArray(row.groupKeys) && row.groupKeys.every(isStringList))) &&
    isStringList(row.keyHeaders) &&
    isStringList(row.keyValues) &&
    isObject(mapping) &&
    typeof mapping.statusHeader === 'string' &&
    (value.reused === undefined ||
      (isObject(value.reused) &&
        typeof value.reused.from === 'string' &&
        typeof value.reused.researchedAt === 'number')) &&
    ['launchedAt', 'updatedAt', 'iterations', 'agents', 'sources', 'cost'].every(
      (key) => typeof value[key] === 'number',
    )
  );
}

/** Reads a ledger sheet row back: the record, 'blank' for an empty row, or what is left of a damaged one. */
export function rowToEntry(row: readonly unknown[]): LedgerEntry | 'blank' | DamagedRecord {
  const entryId = String(row[0] ?? '');
  const taskId = String(row[1] ?? '');
  if (!entryId && !taskId && row.every((cell) => cell === '' || cell === null || cell === undefined)) return 'blank';
  const count = Number(row[PARTS_COLUMN]);
  const text =
    Number.isInteger(count) && count >= 1 ? joinText(row.slice(PARTS_COLUMN + 1, PARTS_COLUMN + 1 + count)) : '';
  try {
    const entry: unknown = JSON.parse(text);
    if (isRecord(entry)) return entry;
  } catch {
    // Damaged: reported below.
  }
  return { entryId, taskId };
}

/** Status text of the row's status cell. */
export function statusText(entry: LedgerEntry): string {
  switch (entry.state) {
    case 'queued':
    case 'created':
      return 'Queued';
    case 'sending':
      return 'Unconfirmed: may have started, checking';
    case 'unconfirmed':
      return 'Unconfirmed: may have started (Sheet Scout > Research: Check again or Send anyway)';
    case 'in_progress':
      return `Researching: ${counted(entry.iterations, 'iteration')}, ${counted(entry.agents, 'agent')}, ${counted(entry.sources, 'source')}`;
    case 'done':
      // An earlier result used again: no charge of its own, and the day (UTC) it was researched.
      if (entry.reused) return `Reused (researched ${new Date(entry.reused.researchedAt).toISOString().slice(0, 10)})`;
      // Rows asking the same question share one task: each shows its charge once, as shared, so no sum counts it twice.
      return (entry.row.rows ?? 1) > 1
        ? `Done (${counted(entry.cost, 'credit')}, shared by ${entry.row.rows} rows)`
        : `Done (${counted(entry.cost, 'credit')})`;
    case 'failed':
    case 'error':
      return `Failed: ${entry.error ?? 'unknown reason'}`;
  }
}

/**
 * What a saved record tells the spending history (src/spending-history/history.ts): a final record of a launch is charged (a
 * finished task), gives all back (a failed one) or reserved nothing (a create the service refused, or never sent); a
 * record sent again under another launch ("Send anyway") leaves its first launch (`previous`: the record as it was).
 */
export function spendingOutcomes(entry: LedgerEntry, previous: LedgerEntry | undefined): RecordOutcome[] {
  const outcomes: RecordOutcome[] = [];
  if (previous?.launch && previous.launch !== entry.launch)
    outcomes.push({
      launch: previous.launch,
      record: entry.id,
      ordinal: previous.ordinal,
      outcome: 'moved',
      charged: 0,
    });
  // A reused result reserved nothing: its run counts it among the reused, never as a record to settle.
  if (!entry.launch || entry.reused || !FINAL_STATES.includes(entry.state)) return outcomes;
  const outcome = entry.state === 'done' ? 'done' : entry.state === 'failed' && entry.taskId ? 'failed' : 'refused';
  const charged = outcome === 'done' ? taskCost('done', entry.agents) : 0;
  return [...outcomes, { launch: entry.launch, record: entry.id, ordinal: entry.ordinal, outcome, charged }];
}

/**
 * The runs the spending history is to list for the saved records: each launch with a pending or reused record that
 * says who started it, with every record of that launch the store holds (`all`: a launch's records are all open, so
 * loaded, until its first create, and its reused ones are saved with them: history.open is idempotent); its reused
 * records reserve nothing and are counted by their rows.
 */
export function spendingOpenings(changed: readonly LedgerEntry[], all: readonly LedgerEntry[]): RunOpening[] {
  const starting = new Map(
    changed
      .filter((entry) => entry.launch && entry.run && (isPending(entry) || entry.reused))
      .map((entry) => [entry.launch, entry]),
  );
  return [...starting.values()].map((first) => {
    const ofLaunch = all.filter((entry) => entry.launch === first.launch);
    return {
      ...(first.run as RunStart & { at: number }),
      launch: first.launch as string,
      sheetId: first.row.sheetId,
      reservation: reservationFor(first.depth),
      records: ofLaunch.filter((entry) => !entry.reused).map((entry) => ({ id: entry.id, ordinal: entry.ordinal })),
      reused: ofLaunch.filter((entry) => entry.reused).reduce((sum, entry) => sum + (entry.row.rows || 1), 0),
    };
  });
}
