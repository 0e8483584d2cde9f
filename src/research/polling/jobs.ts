// The research job engine's core: its limits and ports, and task creation (ledger records first, then creates in
// small parallel batches), reconciling ambiguous creates through the task list before any retry (a task is never
// paid twice). launch.ts plans and starts a launch, tick.ts is the poll tick, write-back.ts writes results into rows.
// Callers hold the document lock. Every step is idempotent, so an execution killed at any point leaves a state the
// next tick completes: the sheet ends as an uninterrupted run's, no task created twice.
import type { ApiError, Result } from '../../api/errors';
import { userMessage } from '../../api/errors';
import type { JsonSchemaObject, ResearchTask } from '../../api/types';
import type { ClockPort } from '../../ports';
import { type LedgerEntry } from '../records/ledger';
import type { GridPort, ResearchClient } from '../ports';
import type { CreatePermits } from '../spending/create-permits';
import { authorisedQueue } from './queue';
import type { LedgerStore } from '../records/stores';
import type { ReportStore } from '../records/report-store';
import { type PollMemory } from './poll';
import { taskCost } from '../spending/depth';
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

const ERROR_TEXT_MAX = 5000;
const LIST_PAGE = 100;

export function limitsOf(deps: JobDeps): JobLimits {
  return { ...DEFAULT_LIMITS, ...deps.limits };
}

function clip(text: string): string {
  return text.length > ERROR_TEXT_MAX ? `${text.slice(0, ERROR_TEXT_MAX - 1)}…` : text;
}

/** The message for a refused create: 422 lists every `detail` message; 402 says what is needed. */
export function createErrorMessage(error: ApiError): string {
  if (error.kind === 'validation' && error.detail.length > 0) {
    return `Rejected: ${error.detail
      .map((issue) => {
        const where = issue.loc.filter((part) => part !== 'body').join('.');
        return where ? `${issue.msg} (${where})` : issue.msg;
      })
      .join('; ')}`;
  }
  return userMessage(error);
}

type CreateOutcome = 'created' | 'refused' | 'nothing_created' | 'ambiguous';

function classifyCreate(result: Result<ResearchTask>): CreateOutcome {
  if (result.ok) return 'created';
  const error = result.error;
  switch (error.kind) {
    case 'ambiguous':
      return 'ambiguous';
    case 'network':
    case 'timeout':
      return error.maybeSent ? 'ambiguous' : 'nothing_created';
    case 'bad_response':
      return error.status >= 200 && error.status < 300 ? 'ambiguous' : 'refused';
    case 'unavailable':
    case 'rate_limited':
    case 'quota':
      return 'nothing_created';
    default:
      return 'refused';
  }
}

export function applyTask(entry: LedgerEntry, task: ResearchTask, now: number): LedgerEntry {
  const next: LedgerEntry = {
    ...entry,
    taskId: task.id,
    state: task.status,
    iterations: task.iterations,
    agents: task.agents,
    sources: task.sources,
    updatedAt: now,
  };
  if (task.status === 'done') {
    next.cost = taskCost('done', task.agents);
    next.degradation = task.report?.degradation_reasons ?? [];
    next.finishedAt = entry.finishedAt ?? now;
    next.error = null;
  } else if (task.status === 'failed') {
    next.cost = 0;
    next.error = clip(task.failure_reason || 'The service did not say why');
    next.finishedAt = entry.finishedAt ?? now;
  }
  if (task.status === 'done' || task.status === 'failed') next.written = false;
  return next;
}

function sameSchema(a: JsonSchemaObject | null | undefined, b: JsonSchemaObject | null | undefined): boolean {
  return (a ? 1 : 0) === (b ? 1 : 0);
}

/** Briefs compared as the service may echo them (line endings and surrounding white space may differ). */
function sameBrief(echoed: string, sent: string): boolean {
  const normal = (text: string) => text.replace(/\r\n?/g, '\n').trim();
  return echoed === sent || normal(echoed) === normal(sent);
}

/**
 * Looks for the tasks of records whose create answer was lost (`sending`, or `unconfirmed` when the user asks) in
 * the task list: a task with the same brief, depth and output kind, created since shortly before the send and not
 * yet in the ledger, is adopted (one task per record, oldest first). Returns the adopted records, the ones not
 * found, and whether the list could be read at all.
 */
function findInTaskList(
  deps: JobDeps,
  entries: LedgerEntry[],
  lost: LedgerEntry[],
  pages: number,
): { adopted: LedgerEntry[]; missing: LedgerEntry[]; listRead: boolean } {
  if (lost.length === 0) return { adopted: [], missing: [], listRead: true };
  const limits = limitsOf(deps);
  // Every task the ledger knows, finished ones too (a partial load holds only the open records).
  const known = deps.ledger.knownTaskIds();
  for (const entry of entries) if (entry.taskId) known.add(entry.taskId);
  const since = Math.min(...lost.map((entry) => entry.sentAt ?? entry.launchedAt)) - limits.reconcileWindowMs;
  const candidates: ResearchTask[] = [];
  for (let page = 0; page < pages; page++) {
    const result = deps.client.listTasks({ offset: page * LIST_PAGE, limit: LIST_PAGE });
    if (!result.ok) return { adopted: [], missing: lost, listRead: false };
    candidates.push(...result.value);
    const oldest = result.value[result.value.length - 1];
    if (result.value.length < LIST_PAGE || !oldest || Date.parse(oldest.created_at) < since) break;
  }
  const now = deps.clock.now();
  const adopted: LedgerEntry[] = [];
  const missing: LedgerEntry[] = [];
  const pool = candidates.filter((task) => !known.has(task.id) && Date.parse(task.created_at) >= since).reverse();
  for (const entry of [...lost].sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0))) {
    const at = pool.findIndex(
      (task) =>
        sameBrief(task.brief, entry.brief) &&
        task.depth === entry.depth &&
        sameSchema(task.output_schema, entry.schema),
    );
    if (at < 0) {
      missing.push(entry);
      continue;
    }
    // Adopted as `created`: the poll that follows reads its current state and report.
    const [task] = pool.splice(at, 1);
    adopted.push({ ...entry, taskId: task.id, state: 'created', written: false, updatedAt: now });
  }
  return { adopted, missing, listRead: true };
}

/**
 * Settles records in state `sending` through the task list. One the list does not show yet stays `sending` (its
 * row says it may have started); once `unconfirmAfterMs` has passed since the send, and the list was read, it
 * becomes `unconfirmed`, for the user to decide. Nothing is ever sent again here.
 */
export function reconcileSending(deps: JobDeps, entries: LedgerEntry[]): LedgerEntry[] {
  const sending = entries.filter((entry) => entry.state === 'sending');
  const limits = limitsOf(deps);
  const { adopted, missing, listRead } = findInTaskList(deps, entries, sending, limits.reconcilePages);
  if (!listRead) return [];
  const now = deps.clock.now();
  const given = missing
    .filter((entry) => now - (entry.sentAt ?? entry.launchedAt) >= limits.unconfirmAfterMs)
    .map((entry) => ({ ...entry, state: 'unconfirmed' as const, written: false, updatedAt: now }));
  return [...adopted, ...given];
}

/** "Check again": looks for the tasks of the given unconfirmed records once more, further back in the list. */
export function recheckUnconfirmed(
  deps: JobDeps,
  ids: ReadonlySet<string>,
): { found: LedgerEntry[]; stillMissing: number } {
  deps.ledger.load();
  const entries = deps.ledger.all();
  const unconfirmed = entries.filter((entry) => entry.state === 'unconfirmed' && ids.has(entry.id));
  const { adopted, missing } = findInTaskList(deps, entries, unconfirmed, limitsOf(deps).reconcilePages * 3);
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

/**
 * Creates the tasks of the queued records this execution may send (authorisedQueue) in batches until done or out of
 * time. Each batch is marked `sending` in the ledger before the requests go out; answers are saved right after.
 * Returns the records it changed, last version, and the records left to the accounts that launched them.
 */
export function createQueued(deps: JobDeps, deadline: number): { changed: LedgerEntry[]; waiting: Set<string> } {
  const limits = limitsOf(deps);
  const touched = new Map<string, LedgerEntry>();
  const { queue, waiting } = authorisedQueue(deps);
  let sentUpTo = 0;
  // Each batch's answers are saved together with the next batch's `sending` mark (one ledger write per batch): a
  // kill in between leaves `sending` records, which reconciliation settles. The permits hear what was sent, created
  // and given back once, at the end (a kill before leaves them taken: sent records never are queued again by the
  // add-in, and created tasks that were not noted only give back nothing, the safe side).
  let unsaved: LedgerEntry[] = [];
  const sent: LedgerEntry[] = [];
  const created: LedgerEntry[] = [];
  const givenBack: LedgerEntry[] = [];
  const refused = new Set<string>();
  for (let start = 0; start < queue.length; start += limits.createBatch) {
    if (deps.clock.now() >= deadline) break;
    const now = deps.clock.now();
    const batch = queue
      .slice(start, start + limits.createBatch)
      .map((entry) => ({ ...entry, state: 'sending' as const, sentAt: now, updatedAt: now }));
    sentUpTo = start + batch.length;
    deps.ledger.save([...unsaved, ...batch], refused);
    sent.push(...batch);
    unsaved = [];
    const results = deps.client.createTasks(
      batch.map((entry) => ({
        brief: entry.brief,
        depth: entry.depth,
        ...(entry.schema ? { output_schema: entry.schema } : {}),
      })),
    );
    const after = deps.clock.now();
    let ambiguous = false;
    batch.forEach((entry, i) => {
      const result = results[i];
      switch (classifyCreate(result)) {
        case 'created':
          if (result.ok) unsaved.push(applyTask(entry, result.value, after));
          break;
        case 'refused':
          if (!result.ok) {
            refused.add(entry.id);
            unsaved.push({
              ...entry,
              state: 'error',
              error: clip(createErrorMessage(result.error)),
              written: false,
              finishedAt: after,
              updatedAt: after,
            });
          }
          break;
        case 'nothing_created':
          // 503 after retries: nothing was created; the record keeps its create for the next tick.
          givenBack.push({ ...entry, state: 'queued', updatedAt: after });
          unsaved.push({ ...entry, state: 'queued', updatedAt: after });
          break;
        case 'ambiguous':
          ambiguous = true;
          break;
      }
    });
    created.push(...unsaved.filter((entry) => entry.state !== 'queued'));
    for (const entry of unsaved) touched.set(entry.id, entry);
    if (ambiguous) {
      deps.ledger.save(unsaved, refused);
      unsaved = [];
      const reconciled = reconcileSending(deps, deps.ledger.all());
      deps.ledger.save(reconciled);
      for (const entry of reconciled) touched.set(entry.id, entry);
    }
  }
  deps.ledger.save(unsaved, refused);
  // Creates not sent before the deadline stay authorised for the next tick.
  deps.permits.settle({ sending: sent, answered: created, givenBack: [...givenBack, ...queue.slice(sentUpTo)] });
  return { changed: [...touched.values()], waiting };
}

/**
 * Reads what row location needs for one sheet: headers, row tags and the key columns of `entries`. `owners` are the
 * records whose tags a key match must not take (every record of the sheet that still needs its row).
 */
