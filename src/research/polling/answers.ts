// What the service's answers make of research records, decided without a port: a create's answer (the task created,
// the create refused, nothing created, or the answer lost on the way), a poll's answer (the task's new state and
// counts, its report once done; failed when the service no longer has it), and the final answer of a task whose record
// was changed outside Sheet Scout (what its run settles in the spending history: tick-read.ts). The tick (tick.ts) and
// the sends (sends.ts) call the service and hand the answers here. Pure.
import type { ApiError, Result } from '../../api/errors';
import { clip, describeIssue, isUnreachable, userMessage } from '../../api/errors';
import type { ResearchTask, TaskReport } from '../../api/types';
import type { RecordOutcome } from '../../spending-history/history';
import type { LedgerEntry } from '../records/ledger';
import { taskCost } from '../spending/depth';
import type { Salvage } from './tick-read';

const ERROR_TEXT_MAX = 5000;

/** The message for a refused create: 422 lists every `detail` message; 402 says what is needed. */
function createErrorMessage(error: ApiError): string {
  if (error.kind === 'validation' && error.detail.length > 0)
    return `Rejected: ${error.detail.map(describeIssue).join('; ')}`;
  return userMessage(error);
}

/** The record with the task's state and counts (its cost, degradation and end once final). */
function applyTask(entry: LedgerEntry, task: ResearchTask, now: number): LedgerEntry {
  const next: LedgerEntry = {
    ...entry,
    taskId: task.id,
    state: task.status,
    iterations: task.iterations,
    agents: task.agents,
    sources: task.sources,
    updatedAt: now,
  };
  if (task.status !== 'done' && task.status !== 'failed') return next;
  const done = task.status === 'done';
  next.cost = done ? taskCost('done', task.agents) : 0;
  if (done) next.degradation = task.report?.degradation_reasons ?? [];
  next.finishedAt = entry.finishedAt ?? now;
  next.error = done ? null : clip(task.failure_reason || 'The service did not say why', ERROR_TEXT_MAX);
  next.written = false;
  return next;
}

/**
 * What a create's answer makes of its record (sent as `sending`): its task (created), an error (refused: a 4xx), or
 * `queued` again (nothing was created: a 503 after retries; it keeps its create for the next tick); null when the
 * answer was lost on the way (ambiguous): the record stays `sending` for the task list to settle.
 */
export function answeredCreate(entry: LedgerEntry, result: Result<ResearchTask>, now: number): LedgerEntry | null {
  if (result.ok) return applyTask(entry, result.value, now);
  const { error } = result;
  // Sent, and its answer lost (or a success that could not be read): the create may have started.
  if (
    error.kind === 'ambiguous' ||
    ((error.kind === 'network' || error.kind === 'timeout') && error.maybeSent) ||
    (error.kind === 'bad_response' && error.status >= 200 && error.status < 300)
  )
    return null;
  // The service could not be reached, or was busy or over quota: nothing was created.
  if (isUnreachable(error) || error.kind === 'quota') return { ...entry, state: 'queued', updatedAt: now };
  return ended(entry, 'error', clip(createErrorMessage(error), ERROR_TEXT_MAX), now);
}

/** The record ended without a result (`failed`, or `error`: its create refused), saying why. */
function ended(entry: LedgerEntry, state: 'failed' | 'error', error: string, now: number): LedgerEntry {
  return { ...entry, state, error, written: false, finishedAt: now, updatedAt: now };
}

/**
 * What a poll answer changes in a record: the task's new state and counts (its report kept in `fresh` when done), or
 * failed when the service no longer has it; null when nothing changed.
 */
function polledEntry(
  entry: LedgerEntry,
  result: Result<ResearchTask>,
  now: number,
  fresh: Map<string, TaskReport>,
): LedgerEntry | null {
  if (!result.ok)
    return result.error.kind === 'not_found'
      ? { ...ended(entry, 'failed', 'The service no longer has this task', now), cost: 0 }
      : null;
  const task = result.value;
  const refetch = entry.state === 'done' && task.status === 'done';
  const moved =
    task.status !== entry.state ||
    task.iterations !== entry.iterations ||
    task.agents !== entry.agents ||
    task.sources !== entry.sources;
  if (!refetch && !moved) return null;
  if (task.status === 'done' && task.report) fresh.set(task.id, task.report);
  return applyTask(entry, task, now);
}

/** What a final answer settles of a salvaged task (null while it runs, or when the answer says nothing). */
function salvagedOutcome(target: Salvage, answer: Result<ResearchTask> | undefined): RecordOutcome | null {
  if (!answer) return null;
  const base = { launch: target.launch, record: target.record, ordinal: target.ordinal };
  // Its result goes to no row (nothing is written for a changed record): the run counts it as not collected.
  if (answer.ok && answer.value.status === 'done')
    return { ...base, outcome: 'done', charged: taskCost('done', answer.value.agents), uncollected: true };
  const failed = answer.ok ? answer.value.status === 'failed' : answer.error.kind === 'not_found';
  return failed ? { ...base, outcome: 'failed', charged: 0 } : null;
}

/** What a poll's answers decide (pollDecisions). */
export interface PollDecisions {
  /** The polled records the answers changed. */
  polled: LedgerEntry[];
  /** The reports of the tasks found done, by task id. */
  fresh: Map<string, TaskReport>;
  /** What the salvaged tasks' answers settle in the spending history (the others are polled again by a later tick). */
  outcomes: RecordOutcome[];
}

/** What the poll's answers make of the polled records (`polling`) and of the salvaged tasks. */
export function pollDecisions(
  polling: readonly LedgerEntry[],
  salvage: readonly Salvage[],
  answers: ReadonlyMap<string, Result<ResearchTask>>,
  now: number,
): PollDecisions {
  const fresh = new Map<string, TaskReport>();
  const polled = polling.flatMap((entry) => {
    const result = answers.get(entry.taskId as string);
    return (result && polledEntry(entry, result, now, fresh)) || [];
  });
  const outcomes = salvage.flatMap((target) => salvagedOutcome(target, answers.get(target.taskId)) || []);
  return { polled, fresh, outcomes };
}
