// Launching research, as one pipeline: read what the launch needs of the spreadsheet once (launch-sheet.ts), plan its
// records (plan.ts, pure), check every precondition of finishing (the spending cap, the account's credits, room for
// row tags, and the caller's own: requests left today, room for the records, a timer), and only then spend
// (spend.ts: tags, create grants, records, the rows' status, the creates). A refused launch has written nothing.
import type { TaskDepth } from '../../api/types';
import type { LedgerEntry } from '../records/ledger';
import { tagBudgetProblem } from '../rows/row-tags';
import { capMessage, guardRoom, rowsThatFit, type SpendingCap } from '../spending/spending-guard';
import type { Calendar } from '../spending/calendar';
import type { JobDeps } from '../polling/jobs';
import { readLaunchSheet, type LaunchSheet } from './launch-sheet';
import { planLaunch, type LaunchPlan, type LaunchPlanInput } from './plan';
import { spendLaunch } from './spend';

export type { LaunchPlan, LaunchPlanInput } from './plan';

export interface LaunchOutcome {
  plan: LaunchPlan;
  /** Records after creation (created, queued for the next tick, sending, or refused). */
  entries: LedgerEntry[];
  /** Set when the launch was refused before anything was saved or sent. */
  refused: string | null;
  /** Rows left out because the spreadsheet's spending cap had no room for them (the user asked to fit). */
  overCap: number[];
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
  if (!guard.fitToCap || fit === 0) return { refused: capMessage(room, depth, plan.entries.length), overCap: [] };
  const left = plan.entries.splice(fit);
  const overCap = left.map((entry) => entry.row.rowHint);
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

/** Refuses a launch whose reservation exceeds the account's available credits (null: not known, not checked). */
function creditsProblem(plan: LaunchPlan, availableCredits: number | null, perTask: number): string | null {
  const rows = plan.entries.length;
  const total = rows * perTask;
  if (availableCredits === null || total <= availableCredits) return null;
  return `Needs ${total} credits (${rows} row${rows === 1 ? '' : 's'} x ${perTask}), you have ${availableCredits}: try a lower depth or fewer rows`;
}

/**
 * Launches research for rows: reads the sheet, plans the records, refuses a launch over the spending cap, over
 * `availableCredits`, whose row tags do not fit or that cannot finish (`canFinish`), and only then spends: saves the
 * records and shows `Queued`, creates the tasks in batches until `deadline` (the rest stays queued for the poll
 * trigger) and writes each row's status.
 */
export function runLaunch(
  deps: JobDeps,
  input: LaunchPlanInput,
  options: {
    deadline: number;
    availableCredits: number | null;
    reservationPerTask: number;
    guard?: LaunchGuard;
    /**
     * The last check before anything is saved, tagged or sent: what finishing the launch needs beyond the plan (a
     * timer to collect the results, room for the records, requests left today). A refusal message, or null.
     */
    canFinish?: (plan: LaunchPlan) => string | null;
  },
): LaunchOutcome {
  const sheet = readLaunchSheet(deps, input.sheetId, input.rows, input.template);
  const plan = planLaunch(sheet, input, deps.newId);
  const refusal = (refused: string): LaunchOutcome => ({ plan, entries: [], refused, overCap: [] });
  if (plan.errors.length > 0) return refusal(plan.errors.join('\n'));
  if (plan.entries.length === 0) return { plan, entries: [], refused: null, overCap: [] };
  const guarded = options.guard ? guardPlan(sheet, input.depth, plan, options.guard) : { refused: null, overCap: [] };
  const refused =
    guarded.refused ??
    creditsProblem(plan, options.availableCredits, options.reservationPerTask) ??
    tagsProblem(sheet, plan) ??
    options.canFinish?.(plan) ??
    null;
  if (refused) return refusal(refused);
  return {
    plan,
    entries: spendLaunch(deps, sheet, plan, input, options.deadline),
    refused: null,
    overCap: guarded.overCap,
  };
}
