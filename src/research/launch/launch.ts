// Launching research, as one pipeline: read what the launch needs of the spreadsheet once (launch-sheet.ts), plan its
// records (plan.ts, pure), check every precondition of finishing (the spending cap, the account's credits, room for
// row tags, and the caller's own: requests left today, room for the records, a timer; preconditions.ts), and only then spend
// (spend.ts: tags, create grants, records, the rows' status, the creates). A refused launch has written nothing.
import type { LedgerEntry } from '../records/ledger';
import type { JobDeps } from '../polling/jobs';
import { readLaunchSheet } from './launch-sheet';
import { planLaunch, type LaunchPlan, type LaunchPlanInput } from './plan';
import { launchProblem, type LaunchChecks } from './preconditions';
import { spendLaunch } from './spend';

export type { LaunchPlan, LaunchPlanInput } from './plan';
export type { LaunchGuard } from './preconditions';

export interface LaunchOutcome {
  plan: LaunchPlan;
  /** Records after creation (created, queued for the next tick, sending, or refused). */
  entries: LedgerEntry[];
  /** Set when the launch was refused before anything was saved or sent. */
  refused: string | null;
  /** Rows left out because the spreadsheet's spending cap had no room for them (the user asked to fit). */
  overCap: number[];
}

/**
 * Launches research for rows: reads the sheet, plans the records, refuses a launch that fails a precondition
 * (preconditions.ts: the spending cap, the account's credits, room for row tags, the caller's `canFinish`), and only
 * then spends: saves the records and shows `Queued`, creates the tasks in batches until `deadline` (the rest stays
 * queued for the poll trigger) and writes each row's status.
 */
export function runLaunch(
  deps: JobDeps,
  input: LaunchPlanInput,
  options: LaunchChecks & { deadline: number },
): LaunchOutcome {
  const sheet = readLaunchSheet(deps, input);
  const plan = planLaunch(sheet, input, deps.newId);
  if (plan.errors.length > 0) return { plan, entries: [], refused: plan.errors.join('\n'), overCap: [] };
  if (plan.entries.length === 0) return { plan, entries: [], refused: null, overCap: [] };
  const { refused, overCap } = launchProblem(sheet, plan, input.depth, options);
  if (refused) return { plan, entries: [], refused, overCap: [] };
  return { plan, entries: spendLaunch(deps, sheet, plan, input, options.deadline), refused: null, overCap };
}
