// "Launch": checks what the panel sends (rows, output), reads the user's credits, then, under the document lock, hands
// the rows to the launch's pipeline (launch.ts), remembers the panel's settings, and sums up what happened in one line
// for the panel.
import { researchContext, withLock, type Research } from '../context';
import type { LaunchResponse, ResearchContextDto } from '../contract';
import { failureCause, isUnreachable, userMessage, type ApiError } from '../../api/errors';
import { counted, reservationFor } from '../spending/depth';
import type { LaunchOutcome, LaunchPlan } from './launch';
import { launchPaidBy, roomProblem } from './paid-launch';
import { isPending, type LedgerEntry } from '../records/ledger';
import { jsonSchemaProblems } from '../brief/json-schema-check';
import { resolveOutput, type LaunchRequest } from './launch-request';
import { readRecord, writeRecord } from '../../shared/storage/record-sheet';
import { removeTimerIfIdle, reserveTimer } from '../../scheduler/timer';
import { BUSY_MESSAGE } from '../../shared/busy';

const PANEL_STATE_KEY = 'sheetscout.research.panel';
export const LAUNCH_BUDGET_MS = 4 * 60 * 1000;

export type LaunchRowsRequest = LaunchRequest & { sheetId: number; rows: number[]; fitToCap?: boolean };

/** The answer to a launch that sent nothing. */
const NOTHING_LAUNCHED: LaunchResponse = {
  ok: false,
  message: 'Nothing was launched',
  errors: [],
  created: 0,
  queued: 0,
  rows: 0,
  reused: 0,
  skippedEmpty: [],
  skippedRunning: [],
  skippedDone: [],
  othersRunning: [],
  question: null,
  tooLong: [],
  overCap: [],
  failed: [],
};

export function refusedLaunch(errors: string[]): LaunchResponse {
  return { ...NOTHING_LAUNCHED, message: errors[0] ?? NOTHING_LAUNCHED.message, errors };
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
 * Launches research for the given rows of the given sheet (the panel sends what it previewed): the request checked,
 * the account's credits read, then under the document lock the launch's one pipeline (launch.ts: read, plan, check,
 * spend), and the panel's settings remembered for its next opening.
 */
export function launchRows(request: LaunchRowsRequest): LaunchResponse {
  const rows = request.rows.filter((row) => Number.isInteger(row) && row >= 2);
  if (rows.length === 0) return refusedLaunch(['Select the rows to research (below the header row)']);
  const output = resolveOutput(request.output, jsonSchemaProblems);
  if (!output.ok) return { ...NOTHING_LAUNCHED, message: output.errors[0], errors: output.errors };
  const r = researchContext(LAUNCH_BUDGET_MS);
  const user = r.deps.client.getUser();
  if (!user.ok) return refusedLaunch([notStarted(user.error)]);
  let notice: string | null = null;
  return withLock(
    r,
    30000,
    () => refusedLaunch([BUSY_MESSAGE]),
    () => {
      // The panel's settings for its next opening, launched or refused, in the records sheet (a brief of any length
      // and its schema), first: what the launch's checks count as free storage is then what is left. A spreadsheet at
      // Google's 10 million cells keeps the defaults (the launch says why).
      try {
        const settings = { template: request.template, depth: request.depth, output: request.output };
        writeRecord(r.records, PANEL_STATE_KEY, 'chunked', JSON.stringify(settings));
      } catch {
        // Nothing more to do: see above.
      }
      const outcome = launchPaidBy(
        r,
        user.value.email,
        {
          sheetId: request.sheetId,
          rows,
          template: request.template,
          depth: request.depth,
          schema: output.schema,
          mapping: output.mapping,
          rerun: request.rerun === true,
          again: request.again === true,
          outputHeaders: output.headers,
          replacing: request.replacing ?? [],
          ...(request.reuse ? { reuse: request.reuse } : {}),
        },
        {
          deadline: r.context.clock.now() + LAUNCH_BUDGET_MS,
          availableCredits: user.value.available_credits,
          reservationPerTask: reservationFor(request.depth),
          fitToCap: request.fitToCap === true,
          canFinish: (plan) => launchPreconditions(r, plan, (text) => (notice = text)),
          run: 'launch',
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
 * A launch that stopped at its first request (who the token is): nothing else was sent, so nothing was created,
 * reserved or charged, and the answer says so with what the request met.
 */
function notStarted(error: ApiError): string {
  return isUnreachable(error)
    ? `Nothing was launched and nothing charged: ${failureCause(error)}. No task was created and no credits were ` +
        'reserved; launch again when the service answers.'
    : `Nothing was launched: ${userMessage(error)}`;
}

/**
 * What finishing a launch needs, checked before anything is sent: today's requests for its creates and polls, room
 * for its records in the spreadsheet, and (last, as it creates it) the timer that collects the results while the
 * panels are closed: the user's own, as another editor's timer may not read this account's tasks (another
 * organization's). The refusal message, or null.
 */
function launchPreconditions(r: Research, plan: LaunchPlan, noted: (notice: string) => void): string | null {
  const problem = roomProblem(r, plan);
  // A launch that only reuses earlier results leaves nothing to collect: it needs no timer.
  if (problem || plan.entries.length === 0) return problem;
  const timer = reserveTimer(r.trigger, 'research', { ownTimer: true });
  if (timer?.blocksSpending) return `Nothing was sent: ${timer.message}`;
  // No timer runs in this installation at all (a test deployment): the open panel collects the results.
  if (timer) noted(`${timer.message} Results are collected while this panel is open.`);
  return null;
}

/** "used earlier results for 12 rows (7 questions, 0 credits)", capitalized `first` in the answer. */
const reusedText = (rows: number, questions: number, first: boolean) =>
  `${first ? 'Used' : 'used'} earlier results for ${counted(rows, 'row')} (${counted(questions, 'question')}, 0 credits)`;

/** The panel's answer to a launch that went ahead: counts, and one line saying what happened to every row. */
function launchSummary(outcome: LaunchOutcome): LaunchResponse {
  const created = outcome.entries.filter((entry) => entry.taskId !== null).length;
  const failed = outcome.entries
    .filter((entry) => entry.state === 'error')
    .map((entry) => ({ row: entry.row.rowHint, message: entry.error ?? 'Refused' }));
  const queued = outcome.entries.filter((entry) => entry.state === 'queued').length;
  const lost = outcome.entries.filter((entry) => entry.state === 'sending').length;
  const sent = outcome.entries.length > 0;
  const perTask = outcome.entries[0] ? reservationFor(outcome.entries[0].depth) : 0;
  const rowsOf = (entries: LedgerEntry[]) =>
    entries.reduce((sum, entry) => sum + (outcome.plan.groups.get(entry.id)?.length ?? 1), 0);
  const rows = rowsOf(outcome.entries);
  const reused = rowsOf(outcome.reused);
  // Rows asking the same question share one task: said when they did.
  const shared =
    rows > outcome.entries.length ? ` for ${counted(rows, 'row')} (rows asking the same question share one)` : '';
  const parts =
    created > 0 || (sent && lost === 0 && queued === 0)
      ? [`Queued ${counted(created, 'task')} at the service${shared}`]
      : [];
  if (reused > 0) parts.push(reusedText(reused, outcome.reused.length, parts.length === 0));
  if (lost)
    parts.push(
      `${lost} sent but the service's answer was lost: checking whether ${lost === 1 ? 'it' : 'they'} started ` +
        `(each may have reserved up to ${perTask} credits; none is sent again meanwhile)`,
    );
  if (queued)
    parts.push(
      `${queued} not created yet: the service did not take ${queued === 1 ? 'it' : 'them'}, so nothing was reserved or ` +
        `charged for ${queued === 1 ? 'it' : 'them'}; the timer sends ${queued === 1 ? 'it' : 'them'} when it answers`,
    );
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
    message: sent || reused > 0 ? parts.join(', ') : `Nothing was sent: ${parts.join(', ')}`,
    errors: [],
    created,
    queued,
    rows,
    reused,
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
