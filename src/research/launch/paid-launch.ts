// A launch paid by one account, as every caller in a research context starts it (the panel, an account watch's run,
// research on new rows): the payer is the account its records and its spending history are listed under, and the
// spreadsheet's spending cap, as stored in the document, guards it. Also the preconditions of finishing that the
// callers share: requests left today, room for the records and in the document's properties, the open tasks one
// spreadsheet holds, and for a timer's launch (every panel closed) a timer that collects the results.
import type { Research } from '../context';
import { reserveTimer } from '../../scheduler/timer';
import { capCalendar } from '../spending/calendar';
import { storedCap } from '../spending/guard-service';
import { runLaunch, type LaunchOutcome, type LaunchPlan, type LaunchPlanInput } from './launch';
import { needsRow } from '../records/ledger';
import {
  openTasksProblem,
  propertiesProblem,
  requestProblem,
  storageProblem,
  type LaunchChecks,
} from './preconditions';
import type { RunKind } from '../../spending-history/history';

export interface PaidLaunchChecks extends Omit<LaunchChecks, 'guard'> {
  deadline: number;
  /** Whether the rows over the spending cap are left out (else the launch is refused). */
  fitToCap: boolean;
  /** The kind of run the launch is listed as in the spending history. */
  run: RunKind;
}

/** Launches research for rows (launch.ts), paid by `payer` and guarded by the document's spending cap. */
export function launchPaidBy(
  r: Research,
  payer: string,
  input: LaunchPlanInput,
  checks: PaidLaunchChecks,
): LaunchOutcome {
  const { fitToCap, ...rest } = checks;
  const guard = { cap: storedCap(r.document), calendar: capCalendar(r.document), fitToCap };
  return runLaunch({ ...r.deps, account: payer }, input, { ...rest, guard });
}

/**
 * Whether the plan's tasks can be created and recorded: requests left today, cells for their records (and for its
 * reused ones), room in the document's properties while they run, and the open tasks the spreadsheet holds (the
 * launch read the whole ledger; reused records open no task).
 */
export function roomProblem(r: Research, plan: LaunchPlan): string | null {
  return (
    requestProblem(plan.entries.length, r.context.requestBudget.status()) ??
    storageProblem([...plan.entries, ...plan.reused], r.deps.grid.cellsInUse()) ??
    propertiesProblem(plan.entries.length, r.document.bytesFree()) ??
    openTasksProblem(plan.entries.length, r.deps.ledger.all().filter(needsRow).length)
  );
}

/** A timer's launch (every panel closed) also needs a timer to collect its results. */
export function timerLaunchProblem(r: Research, plan: LaunchPlan): string | null {
  return (
    roomProblem(r, plan) ??
    (reserveTimer(r.trigger, 'research')?.blocksSpending ? 'no timer can collect the results' : null)
  );
}
