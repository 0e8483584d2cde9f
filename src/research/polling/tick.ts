// One polling tick, as one pipeline, inside the tick's time and request budget: read what it needs once (tick-read.ts:
// the ledger's open records, the permits, who is acting), then the service phases, each deciding over what the tick
// holds in memory (sends.ts: creates whose answer was lost looked for in the task list, reconcile.ts, and the queued
// creates sent, each batch written ahead as `sending`: the one write before sending; poll.ts: the task list read down
// to the pending tasks; answers.ts: what each answer makes of a record), then write once (tick-write.ts: reports,
// rows, the ledger, row tags, permits). A tick killed anywhere leaves a state the next tick completes.
import { byId, needsWork, sentAt } from '../records/ledger';
import type { LedgerView } from '../records/stores';
import { pollDecisions } from './answers';
import { limitsOf, type JobDeps } from './jobs';
import { NO_POLL_MEMORY, pollTasks } from './poll';
import { sendQueued } from './sends';
import { readTick } from './tick-read';
import { writeTick } from './tick-write';

export interface TickSummary {
  polled: number;
  /** Records the tick's sends gave a task (created, or found in the task list). */
  created: number;
  /** Records still needing work that this user can read. */
  pending: number;
  /** Pending records this user may not read (403: another account's task). */
  unreadable: number;
  /** Queued creates another account launched: that account's ticks send them (it pays for them). */
  waiting: number;
  /** Stopped early for lack of time; the next tick continues. */
  partial: boolean;
}

/**
 * One poll tick (caller holds the document lock): see the file's header. It reads the ledger's open records only, and
 * those of `view` (the panel's sheet) besides.
 */
export function runTick(deps: JobDeps, options: { startedAt?: number; view?: LedgerView } = {}): TickSummary {
  const limits = limitsOf(deps);
  const startedAt = options.startedAt ?? deps.clock.now();
  const deadline = startedAt + limits.budgetMs;
  const read = readTick(deps, options.view);
  const sends = sendQueued(deps, read, deadline);
  const latest = byId([...read.records, ...sends.changed]);
  // What the ledger does not hold yet: written once, at the end.
  const unsaved = byId(sends.written ? [] : sends.changed);
  // Pending tasks, and finished ones whose report never reached the report store (fetched again).
  const polling = [...latest.values()].filter(
    ({ taskId, state, written, detached }) =>
      taskId &&
      (state === 'created' ||
        state === 'in_progress' ||
        (state === 'done' && !written && !detached && !deps.reports.has(taskId))),
  );
  // The task list gives the state of 100 tasks per request, read down to the pending tasks while that is cheaper than
  // reading them one by one (poll.ts).
  const poll = pollTasks(
    { client: deps.client, clock: deps.clock, memory: deps.pollMemory ?? NO_POLL_MEMORY },
    [
      ...polling.map((entry) => ({ taskId: entry.taskId as string, sentAt: sentAt(entry) })),
      // Their records' times are not trusted: read as if sent now (the list's first page, else on their own).
      ...read.salvage.map((target) => ({ taskId: target.taskId, sentAt: startedAt })),
    ],
    { getBatch: limits.pollBatch, clockSkewMs: limits.reconcileWindowMs, deadline },
  );
  const decided = pollDecisions(polling, read.salvage, poll.answers, deps.clock.now());
  for (const entry of decided.polled) {
    latest.set(entry.id, entry);
    unsaved.set(entry.id, entry);
  }
  writeTick(deps, { ...decided, latest, unsaved, salvage: read.salvage });
  // A 403 (another account's task, launched here by another user outside this user's organization) is `unreadable`:
  // its owner's panel or trigger polls it; it does not keep this user's trigger alive.
  const unreadable = new Set(
    polling.filter((entry) => poll.unreadable.has(entry.taskId as string)).map((entry) => entry.id),
  );
  return {
    polled: poll.answers.size,
    created: sends.changed.filter((entry) => entry.taskId).length,
    pending: [...latest.values()].filter(
      (entry) => needsWork(entry) && !unreadable.has(entry.id) && !sends.waiting.has(entry.id),
    ).length,
    unreadable: unreadable.size,
    waiting: sends.waiting.size,
    partial: poll.partial,
  };
}
