// Spending a launch that passed every check (launch.ts): the output columns made where missing, row tags on the rows
// whose key is shared, one create grant per record to pay for (create-permits.ts) and the run it is in the spending
// history (who started it and why: src/spending-history/history.ts; its reused rows counted there, at 0 credits), the
// records saved before anything is sent, the reused results written into their rows (with the reports the launch
// read: reuse.ts) and the other rows' `Queued` status, the creates until the deadline (the rest stays queued for the
// timer), and each row's status after them.
import { byId, type LedgerEntry } from '../records/ledger';
import { newTagId } from '../rows/row-tags';
import { writeRows, rowNeedsWrite } from '../rows/write-back';
import type { JobDeps } from '../polling/jobs';
import { createQueued } from '../polling/sends';
import type { LaunchSheet } from './launch-sheet';
import type { LaunchPlan, LaunchPlanInput } from './plan';
import type { RunKind } from '../../spending-history/history';

/**
 * Tags the plan's rows whose question rows outside the launch ask too (a row tagged before keeps its tag) and puts
 * the tag ids of each record's rows into it.
 */
function tagPlannedRows(deps: JobDeps, sheet: LaunchSheet, plan: LaunchPlan): void {
  if (plan.rowsToTag.length === 0) return;
  const taken = new Set(sheet.tags?.rowIds.keys() ?? []);
  const ids = deps.grid.tagRows(sheet.sheetId, plan.rowsToTag, () => {
    const id = newTagId(deps.newId, taken);
    taken.add(id);
    return id;
  });
  for (const entry of [...plan.entries, ...plan.reused]) {
    const tags = (plan.groups.get(entry.id) ?? []).flatMap((row) => ids.get(row) ?? []);
    if (tags.length > 0) entry.row.rowIds = tags;
  }
}

/** A launch's dependencies: the launching account (`account`) is the one it is paid from. */
export type PayingDeps = JobDeps & { account: string };

/**
 * Spends the launch (see the file's header); returns its records to pay for as they are after the creates, and its
 * reused ones as written.
 */
export function spendLaunch(
  deps: PayingDeps,
  sheet: LaunchSheet,
  plan: LaunchPlan,
  input: LaunchPlanInput,
  deadline: number,
  run: RunKind,
): { entries: LedgerEntry[]; reused: LedgerEntry[] } {
  if (input.outputHeaders) deps.grid.ensureHeaders(sheet.sheetId, input.outputHeaders);
  tagPlannedRows(deps, sheet, plan);
  // The launch authorises one create per record to pay for (create-permits.ts: each numbered in it), paid from its
  // account; its records, and its reused ones (no permit, no task of their own), name its run in the spending history
  // (who started it, why and when).
  const launch = deps.newId();
  const started = { kind: run, startedBy: deps.account, at: deps.clock.now() };
  if (plan.entries.length > 0)
    plan.entries = deps.permits.grant(
      launch,
      plan.entries.map((entry) => ({ ...entry, run: started })),
      deps.account,
    );
  plan.reused = plan.reused.map((entry) => ({ ...entry, launch, run: started }));
  const superseded = [...byId(plan.superseded).values()];
  deps.ledger.save([...superseded, ...plan.entries, ...plan.reused]);
  const reports = new Map([...sheet.earlier.values()].map(({ entry, report }) => [entry.taskId as string, report]));
  deps.ledger.save(writeRows(deps, [...plan.entries, ...plan.reused], reports));
  createQueued(deps, deadline);
  const ids = new Set(plan.entries.map((entry) => entry.id));
  const current = deps.ledger.all().filter((entry) => ids.has(entry.id));
  deps.ledger.save(writeRows(deps, current.filter(rowNeedsWrite), new Map()));
  const reusedIds = new Set(plan.reused.map((entry) => entry.id));
  return {
    entries: deps.ledger.all().filter((entry) => ids.has(entry.id)),
    reused: deps.ledger.all().filter((entry) => reusedIds.has(entry.id)),
  };
}
