// Launching research, as one pipeline: read what the launch needs of the spreadsheet once (launch-sheet.ts: with the
// earlier results of its questions when the user answered the offer of them, reuse.ts), plan its records (plan.ts,
// pure; a launch that would pay for more tasks than the answered preview said is refused), check every precondition
// of finishing (preconditions.ts: the spending cap, the account's credits, room for row tags, and the caller's own:
// requests left today, room for the records in the sheets and the document's properties, a timer), and only then
// spend (spend.ts: tags, create grants, records, the reused results and the rows' status, the creates). A refused
// launch wrote nothing.
import type { LedgerEntry } from '../records/ledger';
import { guardRoom, questionFit, type LaunchQuestion } from '../spending/spending-guard';
import type { RunKind } from '../../spending-history/history';
import type { JobDeps } from '../polling/jobs';
import { readLaunchSheet } from './launch-sheet';
import { planLaunch, type LaunchPlan, type LaunchPlanInput } from './plan';
import { launchProblem, type LaunchChecks } from './preconditions';
import { spendLaunch, type PayingDeps } from './spend';

export type { LaunchPlan, LaunchPlanInput } from './plan';
export type { LaunchGuard } from './preconditions';
export type { PayingDeps } from './spend';

export interface LaunchOutcome {
  plan: LaunchPlan;
  /** Records after creation (created, queued for the next tick, sending, or refused). */
  entries: LedgerEntry[];
  /** Records of questions given an earlier result, as written (the user chose to reuse them). */
  reused: LedgerEntry[];
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

/**
 * The question about the rows a launch left for the user to decide (already researched, or running for another
 * account): the first of them that the cap and the account's credits leave room for after `launched` (this launch's
 * records, each reserving its depth's credits unless refused), in sheet order. Null when there are none.
 */
function questionOf(
  deps: JobDeps,
  plan: LaunchPlan,
  checks: LaunchChecks,
  launched: readonly LedgerEntry[],
): LaunchQuestion | null {
  const asked = [...plan.skippedDone, ...plan.othersRunning].map((entry) => entry.row);
  if (asked.length === 0) return null;
  const guard = checks.guard;
  const capLeft = guard
    ? guardRoom(guard.cap, deps.ledger.all(), deps.clock.now(), guard.calendar, deps.ledger.spentByDay()).left
    : null;
  const reserving = launched.filter((entry) => entry.state !== 'error').length;
  const creditsLeft =
    checks.availableCredits === null
      ? null
      : Math.max(0, checks.availableCredits - reserving * checks.reservationPerTask);
  return questionFit(asked, checks.reservationPerTask, capLeft, creditsLeft);
}

/**
 * Refuses a launch that would pay for more tasks than the preview the user answered said (some earlier results it
 * offered are no longer there: past the period, or their hidden rows changed since), or null.
 */
function reuseProblem(plan: LaunchPlan, input: LaunchPlanInput): string | null {
  const said = input.reuse && input.reuse.tasks;
  if (said === undefined || plan.entries.length <= said) return null;
  return (
    `Nothing was sent: the preview counted ${said} tasks to pay for and this launch needs ${plan.entries.length} ` +
    '(earlier results it offered are gone since). Check the new figures and launch again.'
  );
}

/**
 * Launches research for rows: reads the sheet, plans the records, refuses a launch that fails a precondition
 * (preconditions.ts: the spending cap, the account's credits, room for row tags, the caller's `canFinish`), and only
 * then spends: saves the records and shows `Queued`, creates the tasks in batches until `deadline` (the rest stays
 * queued for the poll trigger) and writes each row's status.
 */
export function runLaunch(
  deps: PayingDeps,
  input: LaunchPlanInput,
  options: LaunchChecks & {
    deadline: number;
    /**
     * Why the launch runs: the kind of run it is listed as in the spending history (Settings > Spending), started by
     * the account that pays (`deps.account`). Every caller that reserves credits says so: 'launch' (the panel),
     * 'watch', 'new-rows' (research on new rows).
     */
    run: RunKind;
  },
): LaunchOutcome {
  const sheet = readLaunchSheet(deps, input);
  const plan = planLaunch(sheet, input, deps.account, deps.newId);
  const planned = plan.errors.length > 0 ? plan.errors.join('\n') : reuseProblem(plan, input);
  if (planned) return { plan, entries: [], reused: [], refused: planned, overCap: [], question: null };
  let launched = { entries: [] as LedgerEntry[], reused: [] as LedgerEntry[], overCap: [] as number[] };
  if (plan.entries.length + plan.reused.length > 0) {
    const { refused, overCap } = launchProblem(sheet, plan, input.depth, options);
    if (refused) return { plan, entries: [], reused: [], refused, overCap: [], question: null };
    const written = spendLaunch(deps, sheet, plan, input, options.deadline, options.run);
    launched = { ...written, overCap };
  }
  return { plan, ...launched, refused: null, question: questionOf(deps, plan, options, launched.entries) };
}
