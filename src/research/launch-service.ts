// "Launch": checks what the panel sends against the sheet (rows, output, brief template, the user's credits), then,
// under the document lock, remembers the panel's settings and hands the rows to runLaunch (launch.ts), and sums up
// what happened in one line for the panel.
import { researchContext, withLock, type Research } from './context';
import type { LaunchResponse, ResearchContextDto } from './contract';
import { userMessage } from '../api/errors';
import { parseTemplate } from './brief-template';
import { counted, reservationFor } from './depth';
import { runLaunch, type LaunchOutcome, type LaunchPlan } from './launch';
import { isPending } from './ledger';
import { jsonSchemaProblems } from './json-schema-check';
import { outputClashes, resolveOutput, type LaunchRequest } from './launch-request';
import { readRecord, writeRecord } from '../shared/record-sheet';
import { removeTimerIfIdle, reserveTimer } from '../scheduler/timer';
import { requestProblem, storageProblem, targetHeaders } from './preconditions';
import { BUSY_MESSAGE } from '../shared/busy';
import { capCalendar, storedCap } from './guard-service';

const PANEL_STATE_KEY = 'sheetscout.research.panel';
export const LAUNCH_BUDGET_MS = 4 * 60 * 1000;

export type LaunchRowsRequest = LaunchRequest & { sheetId: number; rows: number[]; fitToCap?: boolean };

export function refusedLaunch(errors: string[]): LaunchResponse {
  return {
    ok: false,
    message: errors[0] ?? 'Nothing was launched',
    errors,
    created: 0,
    queued: 0,
    skippedEmpty: [],
    skippedRunning: [],
    skippedDone: [],
    othersRunning: [],
    question: null,
    tooLong: [],
    overCap: [],
    failed: [],
  };
}

/** The panel's last launch settings in this spreadsheet (null when none, or unreadable). */
export function savedPanelState(r: Research): ResearchContextDto['saved'] {
  const savedText = readRecord(r.records, PANEL_STATE_KEY, 'chunked');
  try {
    return savedText ? (JSON.parse(savedText) as ResearchContextDto['saved']) : null;
  } catch {
    return null;
  }
}

/**
 * Remembers the launch settings for the panel's next opening, before anything is sent, in the records sheet (a brief
 * of any length and its schema; an older version's copy in DocumentProperties is removed then).
 */
function rememberPanelState(r: Research, request: LaunchRequest): void {
  try {
    writeRecord(
      r.records,
      PANEL_STATE_KEY,
      'chunked',
      JSON.stringify({ template: request.template, depth: request.depth, output: request.output }),
    );
  } catch {
    // A spreadsheet at Google's 10 million cells: the panel opens with its defaults next time (the launch's own
    // storage check says so).
  }
}

/** Launches research for the given rows of the given sheet (the panel sends what it previewed). */
export function launchRows(request: LaunchRowsRequest): LaunchResponse {
  const rows = request.rows.filter((row) => Number.isInteger(row) && row >= 2);
  if (rows.length === 0) return refusedLaunch(['Select the rows to research (below the header row)']);
  const output = resolveOutput(request.output, jsonSchemaProblems);
  if (!output.ok) return refusedLaunch(output.errors);
  const r = researchContext(LAUNCH_BUDGET_MS);
  const headers = targetHeaders(r.deps.grid, request.sheetId);
  if (typeof headers === 'string') return refusedLaunch([headers]);
  const template = parseTemplate(request.template, headers);
  if (!template.ok) return refusedLaunch(template.errors);
  const clashes = outputClashes(output.headers, headers, template.template.columns);
  if (clashes.length > 0) return refusedLaunch(clashes);
  const user = r.deps.client.getUser();
  if (!user.ok) return refusedLaunch([userMessage(user.error)]);
  let notice: string | null = null;
  return withLock(
    r,
    30000,
    () => refusedLaunch([BUSY_MESSAGE]),
    () => {
      r.deps.grid.ensureHeaders(request.sheetId, output.headers);
      rememberPanelState(r, request);
      const outcome = runLaunch(
        r.deps,
        {
          sheetId: request.sheetId,
          rows,
          template: request.template,
          depth: request.depth,
          schema: output.schema,
          mapping: output.mapping,
          rerun: request.rerun === true,
          again: request.again === true,
          payer: user.value.email,
          replacing: request.replacing ?? [],
        },
        {
          deadline: r.context.clock.now() + LAUNCH_BUDGET_MS,
          availableCredits: user.value.available_credits,
          reservationPerTask: reservationFor(request.depth),
          guard: {
            cap: storedCap(r.document),
            calendar: capCalendar(r.document),
            fitToCap: request.fitToCap === true,
          },
          canFinish: (plan) => launchPreconditions(r, plan, (text) => (notice = text)),
        },
      );
      // The timer reserved for this launch goes again when the launch left nothing to collect.
      if (!r.deps.ledger.all().some(isPending)) removeTimerIfIdle(r.trigger, 'research');
      if (outcome.refused)
        return {
          ...refusedLaunch(outcome.refused.split('\n')),
          skippedEmpty: outcome.plan.skippedEmpty,
          tooLong: outcome.plan.tooLong,
        };
      const summary = launchSummary(outcome);
      return notice ? { ...summary, message: `${summary.message}. ${notice}` } : summary;
    },
  );
}

/**
 * What finishing a launch needs, checked before anything is sent: today's requests for its creates and polls, room
 * for its records in the spreadsheet, and (last, as it creates it) the timer that collects the results while the
 * panels are closed: the user's own, as another editor's timer may not read this account's tasks (another
 * organization's). The refusal message, or null.
 */
function launchPreconditions(r: Research, plan: LaunchPlan, noted: (notice: string) => void): string | null {
  const problem =
    requestProblem(plan.entries.length, r.context.requestBudget.status()) ??
    storageProblem(plan.entries, r.deps.grid.cellsInUse());
  if (problem) return problem;
  const timer = reserveTimer(r.trigger, 'research', { ownTimer: true });
  if (timer?.blocksSpending) return `Nothing was sent: ${timer.message}`;
  // No timer runs in this installation at all (a test deployment): the open panel collects the results.
  if (timer) noted(`${timer.message} Results are collected while this panel is open.`);
  return null;
}

/** The panel's answer to a launch that went ahead: counts, and one line saying what happened to every row. */
function launchSummary(outcome: LaunchOutcome): LaunchResponse {
  const created = outcome.entries.filter((entry) => entry.taskId !== null).length;
  const failed = outcome.entries
    .filter((entry) => entry.state === 'error')
    .map((entry) => ({ row: entry.row.rowHint, message: entry.error ?? 'Refused' }));
  const queued = outcome.entries.filter((entry) => entry.state === 'queued').length;
  const lost = outcome.entries.filter((entry) => entry.state === 'sending').length;
  const sent = outcome.entries.length > 0;
  const parts = created > 0 || (sent && lost === 0) ? [`Queued ${counted(created, 'task')} at the service`] : [];
  if (lost)
    parts.push(
      `${lost} sent but the service's answer was lost: checking whether ${lost === 1 ? 'it' : 'they'} started`,
    );
  if (queued) parts.push(`${queued} waiting to be sent`);
  if (failed.length) parts.push(`${failed.length} refused`);
  if (outcome.plan.skippedEmpty.length) parts.push(`${outcome.plan.skippedEmpty.length} skipped (empty brief)`);
  if (outcome.plan.skippedRunning.length) parts.push(`${outcome.plan.skippedRunning.length} already running`);
  if (outcome.plan.skippedDone.length) parts.push(`${outcome.plan.skippedDone.length} already researched`);
  if (outcome.plan.othersRunning.length)
    parts.push(`${outcome.plan.othersRunning.length} running, launched by another editor`);
  if (outcome.plan.tooLong.length) parts.push(`${outcome.plan.tooLong.length} over 20,000 characters`);
  if (outcome.overCap.length) parts.push(`${outcome.overCap.length} left out by the spending cap`);
  return {
    ok: true,
    message: sent ? parts.join(', ') : `Nothing was sent: ${parts.join(', ')}`,
    errors: [],
    created,
    queued,
    skippedEmpty: outcome.plan.skippedEmpty,
    skippedRunning: outcome.plan.skippedRunning,
    skippedDone: outcome.plan.skippedDone,
    othersRunning: outcome.plan.othersRunning,
    question: outcome.question,
    tooLong: outcome.plan.tooLong,
    overCap: outcome.overCap,
    failed,
  };
}
