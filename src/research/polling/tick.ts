// One polling tick: settle records the ledger lost (deleted or changed outside Sheet Scout), reconcile creates whose
// answer was lost, send queued creates, read the task list, and write finished tasks into their rows, inside the
// tick's time and request budget.
import type { ResearchTask, TaskReport } from '../../api/types';
import type { Result } from '../../api/errors';
import { isPending, needsRow, needsWork, type LedgerEntry } from '../records/ledger';
import { NO_POLL_MEMORY, pollTasks } from './poll';
import { applyTask, createQueued, limitsOf, reconcileSending, type JobDeps } from './jobs';
import { salvageTargets, settleSalvaged, type Salvage } from './salvage';
import { actingAccount, adoptEarlierPermits } from './queue';
import { releaseRowTags, rowNeedsWrite, writeRows } from '../rows/write-back';
import type { LedgerView } from '../records/stores';

export interface TickSummary {
  polled: number;
  changed: number;
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
 * What a poll answer changes in a record: the task's new state and counts (its report kept in `fresh` when done), or
 * failed when the service no longer has it; null when nothing changed.
 */
function polledEntry(
  entry: LedgerEntry,
  result: Result<ResearchTask>,
  now: number,
  fresh: Map<string, TaskReport>,
): LedgerEntry | null {
  if (!result.ok) {
    if (result.error.kind !== 'not_found') return null;
    return {
      ...entry,
      state: 'failed',
      error: 'The service no longer has this task',
      cost: 0,
      written: false,
      finishedAt: now,
      updatedAt: now,
    };
  }
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

/**
 * Loads the open records (and `view`'s), compacting the hidden sheets first when enough finished records are past
 * their retention. Then the runs' records the ledger no longer holds as written: tasks of records changed outside
 * Sheet Scout are settled by what the service says (returned: to poll), the others (deleted, or changed with claims
 * the properties do not bear out) are lost.
 */
function loadLedger(deps: JobDeps, view: LedgerView | undefined): Salvage[] {
  deps.ledger.loadOpen(view);
  const now = deps.clock.now();
  if (deps.ledger.compactionDue(now)) {
    deps.reports.removeAll(deps.ledger.compact(now));
    deps.permits.retainTasks(deps.ledger.knownTaskIds());
    deps.ledger.loadOpen(view);
  }
  // An earlier version's permits first: the task index then knows the tasks of its changed rows, to salvage them.
  adoptEarlierPermits(deps);
  const salvage = salvageTargets(deps, () => actingAccount(deps));
  deps.ledger.settleMissing(salvage);
  return salvage;
}

/**
 * One poll tick (caller holds the document lock): settle ambiguous creates, create queued tasks, fetch every pending
 * task, store finished reports, write changed rows, save the ledger. It reads the ledger's open records only, and
 * those of `view` (the panel's sheet) besides.
 */
export function runTick(deps: JobDeps, options: { startedAt?: number; view?: LedgerView } = {}): TickSummary {
  const limits = limitsOf(deps);
  const startedAt = options.startedAt ?? deps.clock.now();
  const deadline = startedAt + limits.budgetMs;
  const salvage = loadLedger(deps, options.view);
  const reconciled = reconcileSending(deps, deps.ledger.all());
  deps.ledger.save(reconciled);
  const { changed: created, waiting } = createQueued(deps, deadline);
  const latest = new Map<string, LedgerEntry>();
  for (const entry of deps.ledger.all()) latest.set(entry.id, entry);
  // Pending tasks, and finished ones whose report never reached the report store (fetched again).
  const toPoll = [...latest.values()].filter(
    (entry) =>
      entry.taskId &&
      (entry.state === 'created' ||
        entry.state === 'in_progress' ||
        (entry.state === 'done' && !entry.written && !entry.detached && !deps.reports.has(entry.taskId))),
  );
  const fresh = new Map<string, TaskReport>();
  const changed = new Map<string, LedgerEntry>();
  for (const entry of created) changed.set(entry.id, latest.get(entry.id) ?? entry);
  // The task list gives the state of 100 tasks per request, read down to the pending tasks while that is cheaper than
  // reading them one by one (poll.ts).
  const poll = pollTasks(
    { client: deps.client, clock: deps.clock, memory: deps.pollMemory ?? NO_POLL_MEMORY },
    [
      ...toPoll.map((entry) => ({ taskId: entry.taskId as string, sentAt: entry.sentAt ?? entry.launchedAt })),
      // Their records' times are not trusted: read as if sent now (the list's first page, else on their own).
      ...salvage.map((target) => ({ taskId: target.taskId, sentAt: startedAt })),
    ],
    {
      getBatch: limits.pollBatch,
      clockSkewMs: limits.reconcileWindowMs,
      deadline,
    },
  );
  const now = deps.clock.now();
  settleSalvaged(deps, salvage, poll.answers);
  const polled = poll.answers.size;
  const partial = poll.partial;
  const unreadable = new Set(
    toPoll.filter((entry) => poll.unreadable.has(entry.taskId as string)).map((entry) => entry.id),
  );
  for (const entry of toPoll) {
    const result = poll.answers.get(entry.taskId as string);
    const next = result ? polledEntry(entry, result, now, fresh) : null;
    // A 403 (another account's task, launched here by another user outside this user's organization) is in
    // `unreadable`: its owner's panel or trigger polls it; it does not keep this user's trigger alive.
    if (next) {
      changed.set(next.id, next);
      latest.set(next.id, next);
    }
  }
  if (fresh.size > 0) deps.reports.putAll([...fresh].map(([taskId, report]) => ({ taskId, report })));
  // Rows to write: anything whose status text changed, and final records not yet written (a killed tick's leftovers).
  const written = writeRows(deps, [...latest.values()].filter(rowNeedsWrite), fresh);
  for (const entry of written) changed.set(entry.id, entry);
  deps.ledger.save([...changed.values()]);
  releaseRowTags(
    deps,
    written.filter((entry) => !isPending(entry)).map((entry) => entry.row.sheetId),
  );
  // A launch's permits are kept while a record of it is open (who launched it: a re-run over its rows asks them
  // first); so is a task's give-back.
  deps.permits.keepOpen(deps.ledger.all().filter(needsRow));
  const pending = deps.ledger
    .all()
    .filter((entry) => needsWork(entry) && !unreadable.has(entry.id) && !waiting.has(entry.id)).length;
  return {
    polled,
    changed: changed.size,
    created: created.filter((e) => e.taskId).length,
    pending,
    unreadable: unreadable.size,
    waiting: waiting.size,
    partial,
  };
}
