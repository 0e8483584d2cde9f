// Launching research: the plan of a launch (rows, briefs, cost, what is already running), row tags for duplicate
// keys, the spending guard, and the launch itself (ledger first, then the creates).
import type { JsonSchemaObject, TaskDepth } from '../api/types';
import { parseTemplate, renderBrief } from './brief-template';
import { cellDomain } from './brief-domains';
import { isPending, type LedgerEntry, type OutputMapping } from './ledger';
import { keyHeaderOf } from './row-locator';
import { newTagId, rowsNeedingTags, tagBudgetProblem } from './row-tags';
import {
  capMessage,
  guardRoom,
  questionFit,
  rowsThatFit,
  type Calendar,
  type LaunchQuestion,
  type SpendingCap,
} from './spending-guard';
import { counted } from './depth';
import { createQueued, type JobDeps } from './jobs';
import { unansweredLauncher } from './create-permits';
import { locateEntries, rowNeedsWrite, writeRows } from './write-back';
import type { WatchMark } from './watch';

// ----------------------------------------------------------------------------------------------------------------
// Launch
// ----------------------------------------------------------------------------------------------------------------

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
  /** The account this launch is paid from (its Sheet Scout e-mail address). */
  payer: string;
  /**
   * With `rerun`: the accounts whose running tasks the user agreed to take off their rows (asked first, naming them;
   * '' for tasks whose launcher is not known). Another account's running task not named here is not touched.
   */
  replacing?: readonly string[];
  /** The account watch run this launch is (its records carry it). */
  watch?: WatchMark;
}

export interface LaunchPlan {
  /** New records (state queued; rows that need a tag get its id when the launch goes ahead). */
  entries: LedgerEntry[];
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
  /** Rows whose key another row shares: they get a row tag (row-tags.ts). */
  rowsToTag: number[];
}

/** The rows the sheet's records that pass `keep` are in now (row -> records). */
function recordsByRow(
  deps: JobDeps,
  sheetId: number,
  keep: (entry: LedgerEntry) => boolean,
): Map<number, LedgerEntry[]> {
  const records = deps.ledger.all().filter((entry) => entry.row.sheetId === sheetId && !entry.detached && keep(entry));
  const byRow = new Map<number, LedgerEntry[]>();
  if (records.length === 0) return byRow;
  const byId = new Map(records.map((entry) => [entry.id, entry]));
  for (const [id, row] of locateEntries(deps.grid, sheetId, records)) {
    if (row === null) continue;
    byRow.set(row, [...(byRow.get(row) ?? []), byId.get(id) as LedgerEntry]);
  }
  return byRow;
}

/** A finished task whose result was written into its row: researching that row again is paid again. */
const hasResultInRow = (entry: LedgerEntry) => entry.state === 'done' && entry.written;

/** A new record for a launched row, queued (a row tag, when its key is shared, is added as the launch goes ahead). */
function queuedEntry(
  deps: JobDeps,
  input: LaunchPlanInput,
  row: number,
  brief: string,
  rowValues: unknown[],
  keyColumns: number[],
  keyHeaders: string[],
  now: number,
): LedgerEntry {
  return {
    id: deps.newId(),
    taskId: null,
    state: 'queued',
    row: {
      sheetId: input.sheetId,
      rowId: null,
      rowHint: row,
      keyHeaders,
      keyValues: keyColumns.map((column) => String(rowValues[column - 1] ?? '').trim()),
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

/** Builds the records of a launch; reads the sheet only (no service call, no write). */
export function planLaunch(deps: JobDeps, input: LaunchPlanInput): LaunchPlan {
  const plan: LaunchPlan = {
    entries: [],
    superseded: [],
    skippedEmpty: [],
    skippedRunning: [],
    othersRunning: [],
    skippedDone: [],
    tooLong: [],
    errors: [],
    rowsToTag: [],
  };
  const headers = deps.grid.headers(input.sheetId);
  if (!headers) return { ...plan, errors: ['The sheet no longer exists'] };
  const parsed = parseTemplate(input.template, headers);
  if (!parsed.ok) return { ...plan, errors: parsed.errors };
  const rows = [...new Set(input.rows)].filter((row) => row >= 2).sort((a, b) => a - b);
  if (rows.length === 0) return { ...plan, errors: ['Select one or more data rows (below the header row)'] };
  const values = deps.grid.readRows(input.sheetId, rows);
  const briefs = new Map<number, string>();
  rows.forEach((row, i) => {
    const rendered = renderBrief(parsed.template, values[i] ?? [], cellDomain);
    if (rendered.kind === 'empty') plan.skippedEmpty.push(row);
    else if (rendered.kind === 'too_long') plan.tooLong.push({ row, length: rendered.length });
    else briefs.set(row, rendered.brief);
  });
  if (briefs.size === 0) return plan;
  const running = recordsByRow(deps, input.sheetId, isPending);
  const finished = input.again ? new Map<number, LedgerEntry[]>() : recordsByRow(deps, input.sheetId, hasResultInRow);
  const keyColumns = parsed.template.columns;
  const keyHeaders = keyColumns.map((column) => keyHeaderOf(headers, column));
  const now = deps.clock.now();
  rows.forEach((row, i) => {
    const brief = briefs.get(row);
    if (brief === undefined) return;
    const active = running.get(row) ?? [];
    if (active.length > 0) {
      if (!input.rerun) {
        plan.skippedRunning.push(row);
        return;
      }
      const unanswered = unansweredLauncher(deps.permits, input.payer, input.replacing ?? [], active);
      if (unanswered !== undefined) {
        plan.othersRunning.push({ row, launchedBy: unanswered });
        return;
      }
      plan.superseded.push(...active.map((entry) => ({ ...entry, detached: true, updatedAt: now })));
    } else {
      const results = finished.get(row) ?? [];
      if (results.length > 0) {
        plan.skippedDone.push({ row, finishedAt: Math.max(...results.map((entry) => entry.finishedAt ?? 0)) });
        return;
      }
    }
    plan.entries.push(queuedEntry(deps, input, row, brief, values[i] ?? [], keyColumns, keyHeaders, now));
  });
  const launched = plan.entries.map((entry) => entry.row.rowHint);
  // Without key columns no row is told apart by its values: every launched row is tagged.
  plan.rowsToTag =
    keyColumns.length > 0 ? rowsNeedingTags(launched, deps.grid.readColumns(input.sheetId, keyColumns)) : launched;
  return plan;
}

/**
 * Checks that the row tags the plan needs fit the sheet's metadata budget: the refusal message, or null with the
 * sheet's tags as they are (tag id -> row).
 */
function checkTags(
  deps: JobDeps,
  sheetId: number,
  plan: LaunchPlan,
): { problem: string | null; existing: Map<string, number> } {
  if (plan.rowsToTag.length === 0) return { problem: null, existing: new Map() };
  const existing = deps.grid.rowIds(sheetId);
  const taggedRows = new Set(existing.values());
  const newTags = plan.rowsToTag.filter((row) => !taggedRows.has(row)).length;
  const problem =
    newTags > 0
      ? tagBudgetProblem(newTags, deps.grid.metadataUse(sheetId), plan.entries[0]?.row.keyHeaders ?? [])
      : null;
  return { problem, existing };
}

/** Tags the plan's rows whose key is shared and puts each tag id into its record. */
function tagPlannedRows(deps: JobDeps, sheetId: number, plan: LaunchPlan, existing: Map<string, number>): void {
  if (plan.rowsToTag.length === 0) return;
  const taken = new Set(existing.keys());
  const ids = deps.grid.tagRows(sheetId, plan.rowsToTag, () => {
    const id = newTagId(deps.newId, taken);
    taken.add(id);
    return id;
  });
  for (const entry of plan.entries) entry.row.rowId = ids.get(entry.row.rowHint) ?? null;
}

export interface LaunchOutcome {
  plan: LaunchPlan;
  /** Records after creation (created, queued for the next tick, sending, or refused). */
  entries: LedgerEntry[];
  /** Set when the launch was refused before anything was saved or sent. */
  refused: string | null;
  /** Rows left out because the spreadsheet's spending cap had no room for them (the user asked to fit). */
  overCap: number[];
  /**
   * What answering yes to the question about the rows left for the user to decide (already researched, or running
   * for another account) would launch, as the cap and the credits stand after this launch; null when none is left.
   */
  question: LaunchQuestion | null;
}

/** The spreadsheet's spending guard for a launch: its cap, calendar, and whether to launch only the rows that fit. */
export interface LaunchGuard {
  cap: SpendingCap;
  calendar: Calendar;
  fitToCap: boolean;
}

/**
 * Applies the spending guard to a plan (the ledger is loaded: every launch of this spreadsheet, finished or not, is
 * counted): a refusal message, or the rows left out when the user asked to launch only what fits.
 */
function guardPlan(
  deps: JobDeps,
  input: LaunchPlanInput,
  plan: LaunchPlan,
  guard: LaunchGuard,
): { refused: string | null; overCap: number[] } {
  const room = guardRoom(guard.cap, deps.ledger.all(), deps.clock.now(), guard.calendar, deps.ledger.spentByDay());
  const fit = rowsThatFit(room, input.depth, plan.entries.length);
  if (fit === plan.entries.length) return { refused: null, overCap: [] };
  if (!guard.fitToCap || fit === 0) return { refused: capMessage(room, input.depth, plan.entries.length), overCap: [] };
  const left = plan.entries.splice(fit);
  const overCap = left.map((entry) => entry.row.rowHint);
  plan.rowsToTag = plan.rowsToTag.filter((row) => !overCap.includes(row));
  return { refused: null, overCap };
}

export interface LaunchOptions {
  deadline: number;
  availableCredits: number | null;
  reservationPerTask: number;
  guard?: LaunchGuard;
  /**
   * The last check before anything is saved, tagged or sent: what finishing the launch needs beyond the plan (a timer
   * to collect the results, room for the records, requests left today). A refusal message, or null.
   */
  canFinish?: (plan: LaunchPlan) => string | null;
}

/**
 * The question about the rows a launch left for the user to decide (already researched, or running for another
 * account): the first of them that the cap and the account's credits leave room for after `launched` (this launch's
 * records, each reserving its depth's credits unless refused), in sheet order. Null when there are none.
 */
function questionOf(
  deps: JobDeps,
  plan: LaunchPlan,
  options: LaunchOptions,
  launched: readonly LedgerEntry[],
): LaunchQuestion | null {
  const asked = [...plan.skippedDone, ...plan.othersRunning].map((entry) => entry.row);
  if (asked.length === 0) return null;
  const guard = options.guard;
  const capLeft = guard
    ? guardRoom(guard.cap, deps.ledger.all(), deps.clock.now(), guard.calendar, deps.ledger.spentByDay()).left
    : null;
  const reserving = launched.filter((entry) => entry.state !== 'error').length;
  const creditsLeft =
    options.availableCredits === null
      ? null
      : Math.max(0, options.availableCredits - reserving * options.reservationPerTask);
  return questionFit(asked, options.reservationPerTask, capLeft, creditsLeft);
}

/**
 * Launches research for rows: plans the records, refuses a launch whose reservation exceeds `availableCredits`, whose
 * row tags do not fit or that cannot finish (`canFinish`), saves the records and shows `Queued`, then creates the
 * tasks in batches until `deadline` (the rest stays queued for the poll trigger) and writes each row's status.
 */
export function runLaunch(deps: JobDeps, input: LaunchPlanInput, options: LaunchOptions): LaunchOutcome {
  deps.ledger.load();
  const plan = planLaunch(deps, input);
  const refusal = (refused: string): LaunchOutcome => ({ plan, entries: [], refused, overCap: [], question: null });
  if (plan.errors.length > 0) return refusal(plan.errors.join('\n'));
  if (plan.entries.length === 0)
    return { plan, entries: [], refused: null, overCap: [], question: questionOf(deps, plan, options, []) };
  const guarded = options.guard ? guardPlan(deps, input, plan, options.guard) : { refused: null, overCap: [] };
  if (guarded.refused) return refusal(guarded.refused);
  const total = plan.entries.length * options.reservationPerTask;
  if (options.availableCredits !== null && total > options.availableCredits)
    return refusal(
      `Needs ${total} credits (${counted(plan.entries.length, 'row')} x ${options.reservationPerTask}), you have ${options.availableCredits}: try a lower depth or fewer rows`,
    );
  const tags = checkTags(deps, input.sheetId, plan);
  const refused = tags.problem ?? options.canFinish?.(plan) ?? null;
  if (refused) return refusal(refused);
  tagPlannedRows(deps, input.sheetId, plan, tags.existing);
  // Every check passed: the launch authorises one create per record (create-permits.ts), paid from its account.
  const launch = deps.newId();
  plan.entries = plan.entries.map((entry) => ({ ...entry, launch }));
  deps.permits.grant(launch, plan.entries, input.payer);
  deps.ledger.save([...plan.superseded, ...plan.entries]);
  const queuedShown = writeRows(deps, plan.entries, new Map());
  deps.ledger.save(queuedShown);
  createQueued(deps, options.deadline);
  const ids = new Set(plan.entries.map((entry) => entry.id));
  const current = deps.ledger.all().filter((entry) => ids.has(entry.id));
  deps.ledger.save(writeRows(deps, current.filter(rowNeedsWrite), new Map()));
  const final = deps.ledger.all().filter((entry) => ids.has(entry.id));
  return {
    plan,
    entries: final,
    refused: null,
    overCap: guarded.overCap,
    question: questionOf(deps, plan, options, final),
  };
}
