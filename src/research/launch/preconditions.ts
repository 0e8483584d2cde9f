// What a research launch needs in order to finish, checked over its plan before anything is paid for (launchProblem,
// in this order): room under the spreadsheet's spending cap, the account's credits, room for the row tags, today's
// requests (one create per task and the polls that collect the results), room in the spreadsheet for the hidden
// records (Google allows 10 million cells per spreadsheet), room in the document's properties for what the running
// tasks keep there (Google allows 500 KB, shared by every feature), the open tasks one spreadsheet holds (20,000, as
// the scale benchmark measures), and last the timer that collects the results
// with the panels closed (scheduler/timer.ts, reserveTimer; the caller's). Each check answers the refusal message
// with what does fit, or null. Pure.
import type { LedgerEntry } from '../records/ledger';
import { entryToRow } from '../records/ledger';
import type { TaskDepth } from '../../api/types';
import { tagBudgetProblem } from '../rows/row-tags';
import { capMessage, guardRoom, rowsThatFit, type SpendingCap } from '../spending/spending-guard';
import type { Calendar } from '../spending/calendar';
import { counted } from '../spending/depth';
import type { LaunchSheet } from './launch-sheet';
import type { LaunchPlan } from './plan';

/** Google's limit of cells per spreadsheet (every sheet's rows x columns, filled or not). */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;
/** A finished task's report row: task id, part count, and one part (a longer report takes a cell per 45,000 chars). */
const REPORT_ROW_CELLS = 3;
/**
 * Room kept for the ledger's and the reports' hidden sheets, which Google makes 1,000 x 26 before the add-in trims
 * them to their tables.
 */
const NEW_SHEETS_CELLS = 2 * 1000 * 26;

/**
 * What a running task takes of the document's properties at most: three bits of its launch's create permits
 * (create-permits.ts) and one of its run in the spending history, six to a character; each value is written anew
 * before the old one is removed (chunked-store.ts), so for a moment it is held twice: 1.3 bytes, counted as 2. The
 * scale benchmark measures what 20,000 open tasks keep (bench/scale/open-tasks.ts, `open_tasks`).
 */
export const PROPERTY_BYTES_PER_TASK = 2;
/** What a launch keeps there besides its tasks' bits: its permits' and its run's own entries (held twice too). */
export const PROPERTY_BYTES_PER_LAUNCH = 1024;
/** Left free in the document's properties for what the other features write while the tasks run. */
export const PROPERTY_HEADROOM_BYTES = 48 * 1024;
/**
 * The most research tasks one spreadsheet keeps open at once (queued, running, or finished and not yet written into
 * their rows): what the scale benchmark holds (bench/scale/open-tasks.ts, `open_tasks: document_max`) with the
 * hourly timer alone collecting them, every one of its runs reading the open records whole.
 */
export const OPEN_TASKS_MAX = 20_000;

const figure = (n: number) => n.toLocaleString('en-US');
const tasksText = (n: number) => `${figure(n)} task${n === 1 ? '' : 's'}`;
const kilobytes = (bytes: number) => figure(Math.ceil(Math.max(0, bytes) / 1024));

/** Requests the polls of a launch of `rows` tasks take, beyond the creates: a list page per 100 tasks, twice over. */
export function pollAllowance(rows: number): number {
  return 2 * Math.ceil(rows / 100) + 5;
}

/** Refuses a launch of `tasks` whose creates and polls do not fit the requests left today. */
export function requestProblem(
  tasks: number,
  budget: { used: number; limit: number; googleLimit: number },
): string | null {
  const left = Math.max(0, budget.limit - budget.used);
  const needed = tasks + pollAllowance(tasks);
  if (needed <= left) return null;
  let fit = Math.max(0, left - pollAllowance(left));
  while (fit > 0 && fit + pollAllowance(fit) > left) fit -= 1;
  return (
    `Nothing was sent: research of ${tasksText(tasks)} sends ${figure(tasks)} requests to start and about ` +
    `${figure(pollAllowance(tasks))} more to collect the results, and Sheet Scout has ${figure(left)} of its ` +
    `${figure(budget.limit)} daily requests left (Google allows ${figure(budget.googleLimit)} a day). ` +
    (fit > 0 ? `Launch up to ${tasksText(fit)} now, and the rest tomorrow.` : 'Launch them tomorrow.')
  );
}

/** Cells the hidden records of these new tasks take: each ledger row as wide as its record, and its report row. */
export function recordCells(entries: readonly LedgerEntry[]): number {
  return entries.reduce((sum, entry) => sum + entryToRow(entry).length + REPORT_ROW_CELLS, 0);
}

/** Refuses a launch whose hidden records would take the spreadsheet past Google's cell limit. */
export function storageProblem(entries: readonly LedgerEntry[], cellsInUse: number): string | null {
  const records = recordCells(entries);
  const needed = records + NEW_SHEETS_CELLS;
  if (cellsInUse + needed <= SPREADSHEET_CELL_LIMIT) return null;
  const perRow = Math.max(1, Math.ceil(records / Math.max(1, entries.length)));
  const fit = Math.max(0, Math.floor((SPREADSHEET_CELL_LIMIT - cellsInUse - NEW_SHEETS_CELLS) / perRow));
  return (
    `Nothing was sent: this spreadsheet holds ${figure(cellsInUse)} of the ${figure(SPREADSHEET_CELL_LIMIT)} cells ` +
    `Google allows, and research of ${tasksText(entries.length)} needs about ${figure(needed)} more for its records. ` +
    'Delete unused rows, columns or sheets' +
    (fit > 0 ? `, or launch up to ${tasksText(fit)}.` : '.')
  );
}

/**
 * Refuses a launch of `tasks` whose running tasks would leave the document's properties (`bytesFree` left of Google's
 * 500 KB) less room than the other features need meanwhile; says how many tasks fit now.
 */
export function propertiesProblem(tasks: number, bytesFree: number): string | null {
  const needed = PROPERTY_BYTES_PER_LAUNCH + tasks * PROPERTY_BYTES_PER_TASK;
  const room = bytesFree - PROPERTY_HEADROOM_BYTES;
  if (needed <= room) return null;
  const fit = Math.max(0, Math.floor((room - PROPERTY_BYTES_PER_LAUNCH) / PROPERTY_BYTES_PER_TASK));
  return (
    `Nothing was sent: research of ${tasksText(tasks)} keeps about ${kilobytes(needed)} KB in Sheet Scout's storage ` +
    `in this spreadsheet while it runs. ${kilobytes(bytesFree)} KB of the 500 KB Google allows are free, and ` +
    `${kilobytes(PROPERTY_HEADROOM_BYTES)} KB of them stay kept for the other features meanwhile (schedules, ` +
    `watches, enrichment, the digest): ${kilobytes(room)} KB are left for research. ${launchLater(fit)}`
  );
}

/** What a launch refused for the running research can do: the tasks that fit now, or to wait for it. */
const launchLater = (fit: number) =>
  fit > 0
    ? `Launch up to ${tasksText(fit)} now, and the rest once they have finished.`
    : 'Launch again once the research running here has finished.';

/**
 * Refuses a launch of `tasks` that would take the research tasks open in this spreadsheet (`open`) past
 * OPEN_TASKS_MAX, naming it and what that many keep of the document's properties; says how many tasks fit now.
 */
export function openTasksProblem(tasks: number, open: number): string | null {
  if (open + tasks <= OPEN_TASKS_MAX) return null;
  const fit = Math.max(0, OPEN_TASKS_MAX - open);
  const kept = PROPERTY_BYTES_PER_LAUNCH + OPEN_TASKS_MAX * PROPERTY_BYTES_PER_TASK;
  return (
    `Nothing was sent: this spreadsheet has ${figure(open)} research task${open === 1 ? '' : 's'} open, and Sheet ` +
    `Scout keeps up to ${figure(OPEN_TASKS_MAX)} open in one spreadsheet (at most ${kilobytes(kept)} KB of the ` +
    `500 KB of its storage here, and its timer reads them all every hour): research of ${tasksText(tasks)} would ` +
    `make ${figure(open + tasks)}. ${launchLater(fit)}`
  );
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
  sheet: LaunchSheet,
  depth: TaskDepth,
  plan: LaunchPlan,
  guard: LaunchGuard,
): { refused: string | null; overCap: number[] } {
  const room = guardRoom(guard.cap, sheet.ledger, sheet.now, guard.calendar, sheet.spentByDay);
  const fit = rowsThatFit(room, depth, plan.entries.length);
  if (fit === plan.entries.length) return { refused: null, overCap: [] };
  if (!guard.fitToCap || fit === 0)
    return { refused: capMessage(room, depth, plan.entries.length, plannedRows(plan)), overCap: [] };
  const left = plan.entries.splice(fit);
  const overCap = left.flatMap((entry) => plan.groups.get(entry.id) ?? [entry.row.rowHint]);
  plan.rowsToTag = plan.rowsToTag.filter((row) => !overCap.includes(row));
  return { refused: null, overCap };
}

/** Refuses a plan whose new row tags do not fit the sheet's metadata room (the rows' own tags are kept). */
function tagsProblem(sheet: LaunchSheet, plan: LaunchPlan): string | null {
  if (plan.rowsToTag.length === 0 || !sheet.tags) return null;
  const taggedRows = new Set(sheet.tags.rowIds.values());
  const newTags = plan.rowsToTag.filter((row) => !taggedRows.has(row)).length;
  return newTags > 0 ? tagBudgetProblem(newTags, sheet.tags.metadataUse, plan.entries[0]?.row.keyHeaders ?? []) : null;
}

/** The rows a plan's records are for (rows asking the same question share one record). */
const plannedRows = (plan: LaunchPlan) =>
  plan.entries.reduce((sum, entry) => sum + (plan.groups.get(entry.id)?.length ?? 1), 0);

/** Refuses a launch whose reservation exceeds the account's available credits (null: not known, not checked). */
function creditsProblem(plan: LaunchPlan, availableCredits: number | null, perTask: number): string | null {
  const tasks = plan.entries.length;
  const total = tasks * perTask;
  if (availableCredits === null || total <= availableCredits) return null;
  const rows = plannedRows(plan);
  const what = rows === tasks ? counted(tasks, 'row') : `${counted(tasks, 'task')} for ${counted(rows, 'row')}`;
  return `Needs ${total} credits (${what} x ${perTask}), you have ${availableCredits}: try a lower depth or fewer rows`;
}

/** What a launch's checks weigh beside the plan: the cap, the account's credits, and the caller's own preconditions. */
export interface LaunchChecks {
  availableCredits: number | null;
  reservationPerTask: number;
  guard?: LaunchGuard;
  /**
   * The last check before anything is saved, tagged or sent: what finishing the launch needs beyond the plan (a timer
   * to collect the results, room for the records and in the document's properties, requests left today). A refusal
   * message, or null.
   */
  canFinish?: (plan: LaunchPlan) => string | null;
}

/**
 * Every precondition of finishing a planned launch, in order: the spending cap (which may leave out the rows over it
 * when the user asked to launch what fits), the account's credits, room for row tags, then the caller's. The refusal
 * message or null, and the rows the cap left out.
 */
export function launchProblem(
  sheet: LaunchSheet,
  plan: LaunchPlan,
  depth: TaskDepth,
  checks: LaunchChecks,
): { refused: string | null; overCap: number[] } {
  const guarded = checks.guard ? guardPlan(sheet, depth, plan, checks.guard) : { refused: null, overCap: [] };
  const refused =
    guarded.refused ??
    creditsProblem(plan, checks.availableCredits, checks.reservationPerTask) ??
    tagsProblem(sheet, plan) ??
    checks.canFinish?.(plan) ??
    null;
  return { refused, overCap: guarded.overCap };
}
