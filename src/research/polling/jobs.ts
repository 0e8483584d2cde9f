// The research job engine's core: its limits and ports, and what the user decides about creates whose answer was
// lost (Check again, Send anyway). launch.ts plans and starts a launch, sends.ts sends queued creates, tick.ts is the
// poll tick, reconcile.ts looks for lost creates in the task list (a task is never paid twice), write-back.ts writes
// results into rows. Callers hold the document lock. Every step is idempotent, so an execution killed at any point
// leaves a state the next tick completes: the sheet ends as an uninterrupted run's, no task created twice.
import type { ClockPort } from '../../ports';
import { type LedgerEntry } from '../records/ledger';
import type { GridPort, ResearchClient } from '../ports';
import type { CreatePermits } from '../spending/create-permits';
import type { LedgerStore } from '../records/stores';
import type { ReportStore } from '../records/report-store';
import { type PollMemory } from './poll';
import { findInTaskList } from './reconcile';
import type { DigestOutboxPort } from '../../shared/storage/digest-outbox';

export interface JobLimits {
  /** Creates sent per fetchAll round. */
  createBatch: number;
  /** Task ids per getTasks call (the client splits them into fetchAll rounds). */
  pollBatch: number;
  /** Stop starting new work after this many ms of an execution (Apps Script stops it at 6 minutes). */
  budgetMs: number;
  /** Look this far before the first ambiguous send when reconciling through the task list. */
  reconcileWindowMs: number;
  /** Pages of the task list read when reconciling (a tick, or the user's Check again). */
  reconcilePages: number;
  /**
   * A create whose answer was lost is looked for in the task list every tick for this long after the send; then the
   * row says "Unconfirmed" and waits for the user (Check again, or Send anyway). It is never re-sent on its own.
   */
  unconfirmAfterMs: number;
}

export const DEFAULT_LIMITS: JobLimits = {
  createBatch: 10,
  pollBatch: 100,
  budgetMs: 4.5 * 60 * 1000,
  reconcileWindowMs: 10 * 60 * 1000,
  reconcilePages: 10,
  unconfirmAfterMs: 30 * 60 * 1000,
};

export interface JobDeps {
  client: ResearchClient;
  grid: GridPort;
  ledger: LedgerStore;
  /** Which creates a launch authorised, and which tasks may give back their unused reservation (once each). */
  permits: CreatePermits;
  reports: ReportStore;
  clock: ClockPort;
  newId: () => string;
  limits?: Partial<JobLimits>;
  /**
   * The acting user's Sheet Scout account (its e-mail), when the caller has read it; otherwise it is read from the
   * service the first time a queued create needs it (a create is paid by the account that sends it).
   */
  account?: string | null;
  /** Spaces out the reads of tasks the task list does not show (poll.ts); without it they are read every tick. */
  pollMemory?: PollMemory;
  /** Where a watch run's signals wait for the digest (shared/storage/digest-outbox.ts), if the spreadsheet has one. */
  digest?: DigestOutboxPort;
}

export function limitsOf(deps: JobDeps): JobLimits {
  return { ...DEFAULT_LIMITS, ...deps.limits };
}

/** "Check again": looks for the tasks of the given unconfirmed records once more, further back in the list. */
export function recheckUnconfirmed(
  deps: JobDeps,
  ids: ReadonlySet<string>,
): { found: LedgerEntry[]; stillMissing: number } {
  deps.ledger.load();
  const entries = deps.ledger.all();
  const unconfirmed = entries.filter((entry) => entry.state === 'unconfirmed' && ids.has(entry.id));
  const limits = limitsOf(deps);
  const { adopted, missing } = findInTaskList(
    deps,
    entries,
    unconfirmed,
    { ...limits, pages: limits.reconcilePages * 3 },
    () => deps.ledger.knownTaskIds(),
  );
  deps.ledger.save(adopted);
  return { found: adopted, stillMissing: missing.length };
}

/**
 * "Send anyway": the given unconfirmed records (from `unconfirmedOf`) go back to the queue (the user accepted that
 * this may pay twice, from the account `payer`); each keeps counting its first create, which may have started
 * (`maybeStarted`). Each depth's records are one launch: a run of the spending history started by `payer`.
 */
export function sendUnconfirmedAnyway(
  deps: JobDeps,
  unconfirmed: readonly LedgerEntry[],
  payer: string | null,
): LedgerEntry[] {
  const now = deps.clock.now();
  const requeued: LedgerEntry[] = [];
  for (const depth of new Set(unconfirmed.map((entry) => entry.depth))) {
    const launch = deps.newId();
    const run = { kind: 'send-anyway' as const, startedBy: payer ?? '', at: now };
    const again = { state: 'queued' as const, written: false, updatedAt: now, launch, run };
    const group = unconfirmed
      .filter((entry) => entry.depth === depth)
      .map((entry) => ({ ...entry, ...again, maybeStarted: (entry.maybeStarted ?? 0) + 1 }));
    // The user's "Send anyway" passed the cap (sendAgainProblem): it authorises one more create for each (numbered
    // in the new launch).
    requeued.push(...deps.permits.grant(launch, group, payer));
  }
  deps.ledger.save(requeued);
  return requeued;
}

/** The given records that are unconfirmed, from the ledger as it is now (it is loaded here). */
export function unconfirmedOf(deps: JobDeps, ids: ReadonlySet<string>): LedgerEntry[] {
  deps.ledger.load();
  return deps.ledger.all().filter((entry) => entry.state === 'unconfirmed' && ids.has(entry.id));
}
