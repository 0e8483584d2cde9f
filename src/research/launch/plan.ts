// The plan of a launch, over the sheet as launch-sheet.ts read it: one queued record for each distinct question the
// rows ask (rows whose brief renders the same share one task, its result written to each of them), or, where the user
// chose to use an earlier result of the question (reuse.ts), a reused record; the rows left out and why (empty brief,
// over 20,000 characters, already running, already researched), the running records an explicit re-run detaches, and
// the rows to tag (only where rows outside the launch ask the same question). Pure.
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import { byId, type LedgerEntry, type OutputMapping, type WatchMark } from '../records/ledger';
import { keyHeaderOf, keyString } from '../rows/row-locator';
import type { Launchers } from '../spending/create-permits';
import type { ReuseChoice } from './launch-request';
import type { LaunchSheet } from './launch-sheet';
import { questionKey, questionsOf } from './questions';
import { reusedEntry } from './reuse';

export interface LaunchPlanInput {
  sheetId: number;
  rows: number[];
  template: string;
  depth: TaskDepth;
  schema: JsonSchemaObject | null;
  mapping: OutputMapping;
  /** Re-run rows that already have a running task (the old task's result then goes to the ledger only). */
  rerun: boolean;
  /** Research again rows whose earlier task finished with a result in the row (the user confirmed the cost). */
  again: boolean;
  /**
   * With `rerun`: the accounts whose running tasks the user agreed to take off their rows (asked first, naming them;
   * '' for tasks whose launcher is not known). Another account's running task not named here is not touched.
   */
  replacing?: readonly string[];
  /** The account watch run this launch is (its records carry it). */
  watch?: WatchMark;
  /** The columns the results go to: made when missing, as the launch goes ahead; the brief may not read them. */
  outputHeaders?: string[];
  /**
   * The user's answer to the offer of earlier results (the panel's launch only): each question with an earlier result
   * within the period is reused (`use`) or researched again, whatever its rows hold. Absent: nothing is reused.
   */
  reuse?: ReuseChoice;
}

export interface LaunchPlan {
  /** New records, one per distinct question (state queued; rows that need a tag get it as the launch goes ahead). */
  entries: LedgerEntry[];
  /** New records of questions given an earlier result (done, to be written; nothing to create or pay). */
  reused: LedgerEntry[];
  /** The rows each new record's question was asked by (by record id), paid or reused. */
  groups: Map<string, number[]>;
  /** Older running records detached by an explicit re-run. */
  superseded: LedgerEntry[];
  skippedEmpty: number[];
  skippedRunning: number[];
  /**
   * Rows a re-run left alone because research another account launched runs there (null: its launcher is not known):
   * launched only when the user answers yes, naming whose it is.
   */
  othersRunning: Array<{ row: number; launchedBy: string | null }>;
  /** Rows that already hold a finished task's result, with when it finished: launched only when asked again. */
  skippedDone: Array<{ row: number; finishedAt: number }>;
  tooLong: Array<{ row: number; length: number }>;
  errors: string[];
  /** Rows whose question rows outside the launch ask too: they get a row tag (row-tags.ts). */
  rowsToTag: number[];
}

/** The template's columns (the record's key) of a launch: their numbers and their headers. */
interface KeyColumns {
  columns: number[];
  headers: string[];
}

/** A row's key values (the template's columns), as a record keeps them. */
const keyOf = (values: readonly unknown[], key: KeyColumns) =>
  key.columns.map((column) => String(values[column - 1] ?? '').trim());

/**
 * A new record for the rows asking one question, queued (row tags, when rows outside the launch ask it too, are
 * added as the launch goes ahead). `rowValues` holds each row's values, in the rows' order.
 */
function queuedEntry(
  input: LaunchPlanInput,
  rows: readonly number[],
  brief: string,
  rowValues: ReadonlyArray<readonly unknown[]>,
  key: KeyColumns,
  id: string,
  now: number,
): LedgerEntry {
  const keys = [...new Map(rowValues.map((values) => [keyString(keyOf(values, key)), keyOf(values, key)])).values()];
  return {
    id,
    taskId: null,
    state: 'queued',
    row: {
      sheetId: input.sheetId,
      rowId: null,
      rowHint: rows[0],
      keyHeaders: key.headers,
      keyValues: keys[0],
      ...(keys.length > 1 ? { groupKeys: keys.slice(1) } : {}),
      ...(rows.length > 1 ? { rows: rows.length } : {}),
    },
    brief,
    depth: input.depth,
    schema: input.schema,
    mapping: input.mapping,
    iterations: 0,
    agents: 0,
    sources: 0,
    cost: 0,
    error: null,
    degradation: [],
    launchedAt: now,
    sentAt: null,
    updatedAt: now,
    finishedAt: null,
    written: false,
    shownStatus: '',
    detached: false,
    ...(input.watch ? { watch: input.watch } : {}),
  };
}

/**
 * Of a row's running records, the launcher of one that another account than `payer` launched and that the user's
 * answer did not name in `replacing` (undefined: none; null: its launcher is not known, named ''). Who launched a
 * task is what the document's properties say, never the ledger sheet alone.
 */
export function unansweredLauncher(
  permits: Pick<Launchers, 'launcherOf'>,
  payer: string,
  replacing: readonly string[],
  active: readonly LedgerEntry[],
): string | null | undefined {
  for (const entry of active) {
    const launcher = permits.launcherOf(entry);
    if (launcher !== payer && !replacing.includes(launcher ?? '')) return launcher;
  }
  return undefined;
}

const emptyPlan = (errors: string[] = []): LaunchPlan => ({
  entries: [],
  reused: [],
  groups: new Map(),
  superseded: [],
  skippedEmpty: [],
  skippedRunning: [],
  othersRunning: [],
  skippedDone: [],
  tooLong: [],
  errors,
  rowsToTag: [],
});

/** The records of the sheet running (or finished with a result) on any of `rows`, each once. */
function recordsOn(byRow: Map<number, LedgerEntry[]>, rows: readonly number[]): LedgerEntry[] {
  return [...byId(rows.flatMap((row) => byRow.get(row) ?? [])).values()];
}

/** The launched rows to tag: those of a question rows outside the launch ask too (all of them without key columns). */
function rowsToTag(plan: LaunchPlan, sheet: LaunchSheet, key: KeyColumns): number[] {
  const launched = [...plan.groups.values()];
  if (key.columns.length === 0) return launched.flat();
  const counts = new Map<string, number>();
  for (const values of sheet.keyRows) counts.set(keyString(values), (counts.get(keyString(values)) ?? 0) + 1);
  return launched.flatMap((rows) => {
    const keys = new Set(rows.map((row) => keyString(sheet.keyRows[row - 2] ?? [])));
    const askers = [...keys].reduce((sum, one) => sum + (counts.get(one) ?? 0), 0);
    return askers > rows.length ? rows : [];
  });
}

/**
 * Why a group of rows asking one question is not launched now (and records it in the plan), or the records it
 * replaces. `answered`: the user already chose for this question (reuse its earlier result, or research it again).
 */
function groupBlocked(
  plan: LaunchPlan,
  sheet: LaunchSheet,
  input: LaunchPlanInput,
  payer: string,
  rows: number[],
  answered: boolean,
): LedgerEntry[] | null {
  const active = recordsOn(sheet.running, rows);
  if (active.length > 0) {
    if (!input.rerun) {
      plan.skippedRunning.push(...rows);
      return null;
    }
    const unanswered = unansweredLauncher(sheet.launchers, payer, input.replacing ?? [], active);
    if (unanswered !== undefined) {
      plan.othersRunning.push(...rows.map((row) => ({ row, launchedBy: unanswered })));
      return null;
    }
    return active.map((entry) => ({ ...entry, detached: true, updatedAt: sheet.now }));
  }
  const results = input.again || answered ? [] : recordsOn(sheet.finished, rows);
  if (results.length === 0) return [];
  const finishedAt = Math.max(...results.map((entry) => entry.finishedAt ?? 0));
  plan.skippedDone.push(...rows.map((row) => ({ row, finishedAt })));
  return null;
}

/**
 * Builds the records of a launch paid from the account `payer` (its Sheet Scout e-mail address) from what was read of
 * the sheet (nothing is read, sent or written): the rows whose brief renders the same are one question, one record.
 */
export function planLaunch(sheet: LaunchSheet, input: LaunchPlanInput, payer: string, newId: () => string): LaunchPlan {
  if (sheet.errors.length > 0) return emptyPlan(sheet.errors);
  if (sheet.rows.length === 0) return emptyPlan(['Select one or more data rows (below the header row)']);
  const plan = emptyPlan();
  const { questions, empty, tooLong } = questionsOf(sheet.template, sheet.rows, sheet.values);
  plan.skippedEmpty.push(...empty);
  plan.tooLong.push(...tooLong);
  const valuesOf = new Map(sheet.rows.map((row, i) => [row, sheet.values[i] ?? []]));
  const key = {
    columns: sheet.template.columns,
    headers: sheet.template.columns.map((column) => keyHeaderOf(sheet.headers, column)),
  };
  for (const [brief, rows] of questions) {
    // Read only when the user answered the offer of earlier results (launch-sheet.ts).
    const earlier = sheet.earlier.get(questionKey(brief, input.depth, input.schema));
    const replaced = groupBlocked(plan, sheet, input, payer, rows, earlier !== undefined);
    if (replaced === null) continue;
    plan.superseded.push(...replaced);
    const values = rows.map((row) => valuesOf.get(row) ?? []);
    const entry = queuedEntry(input, rows, brief, values, key, newId(), sheet.now);
    if (earlier && input.reuse && input.reuse.use) plan.reused.push(reusedEntry(entry, earlier, sheet.now));
    else plan.entries.push(entry);
    plan.groups.set(entry.id, rows);
  }
  plan.rowsToTag = rowsToTag(plan, sheet, key);
  return plan;
}
