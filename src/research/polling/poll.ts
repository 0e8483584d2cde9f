// Reads the current state of a ledger's research tasks at little cost, however many tasks the account holds. The task
// list (newest first, 100 per page, the pages of a round sent in one fetchAll) gives the status of 100 tasks per
// request; a task's own GET gives one. A tick reads list pages from the newest while that is the cheaper way to reach
// the pending tasks not seen yet: before each round it estimates the pages still needed to reach the oldest of them
// (from how densely the pages read so far were filled) and, once that is more than one GET per task, reads the rest
// on their own. A task read on its own is then due again only after a quarter of its age (a per-user memory), so
// every pending task is read at least every 30 minutes, at a cost per tick of about min(pages down to the oldest due
// task, due tasks) plus one GET per finished task whose list item lacks the report. Tasks the list did not show
// (another account's task, one the list does not carry yet, one deleted) are read on their own the same way. Pure:
// works over the ResearchClient port.
import type { ApiError, Result } from '../../api/errors';
import type { ResearchTask } from '../../api/types';
import type { CachePort, ClockPort } from '../../ports';
import type { ResearchClient } from '../ports';

/** The service's largest task-list page (the sandbox's MAX_TASK_PAGE). */
export const TASK_LIST_PAGE = 100;
/** Most list pages sent in one round (so the deadline is checked between rounds). */
const MAX_ROUND_PAGES = 50;

const MINUTE = 60 * 1000;
/** A task read on its own is read again after a quarter of its age, between these bounds. */
const UNSEEN_RECHECK_MIN_MS = 1 * MINUTE;
const UNSEEN_RECHECK_MAX_MS = 30 * MINUTE;
/** Another account's task (403) is tried again after this long (it may have become readable). */
const FORBIDDEN_RECHECK_MS = 30 * MINUTE;

/** A task to read: its id and when it was sent (script clock), which bounds how far back the list is read. */
export interface PollTarget {
  taskId: string;
  sentAt: number;
}

/** What was last learned about a task read on its own: read recently, or not readable by this user. */
export type UnseenNote = 'read' | 'forbidden';

/** Per-user memory of the individual reads of tasks (a hint: forgetting costs one more read). */
export interface PollMemory {
  recall(taskIds: string[]): Map<string, UnseenNote>;
  remember(notes: Array<{ taskId: string; note: UnseenNote; forMs: number }>): void;
}

/** No memory: tasks the list does not give are read every tick. */
export const NO_POLL_MEMORY: PollMemory = { recall: () => new Map(), remember: () => undefined };

const MEMORY_KEY_PREFIX = 'sheetscout.poll.';

/** The memory over a cache (the user's: a 403 is about this user), one entry per task expiring when due again. */
export function cachePollMemory(cache: CachePort): PollMemory {
  return {
    recall(taskIds) {
      const notes = new Map<string, UnseenNote>();
      if (taskIds.length === 0) return notes;
      const found = cache.getAll(taskIds.map((id) => MEMORY_KEY_PREFIX + id));
      for (const id of taskIds) {
        const note = found[MEMORY_KEY_PREFIX + id];
        if (note === 'read' || note === 'forbidden') notes.set(id, note);
      }
      return notes;
    },
    remember(notes) {
      // One putAll per expiry (CacheService takes one expiry per call).
      const byExpiry = new Map<number, Record<string, string>>();
      for (const { taskId, note, forMs } of notes) {
        const seconds = Math.max(1, Math.round(forMs / 1000));
        byExpiry.set(seconds, { ...byExpiry.get(seconds), [MEMORY_KEY_PREFIX + taskId]: note });
      }
      for (const [seconds, values] of byExpiry) cache.putAll(values, seconds);
    },
  };
}

export interface PollOptions {
  /** Task ids per getTasks call. */
  getBatch: number;
  /** Allowance for the difference between the script's clock and the service's when comparing creation times. */
  clockSkewMs: number;
  /** No new request is started at or after this time. */
  deadline: number;
}

export interface PollDeps {
  client: ResearchClient;
  clock: ClockPort;
  memory: PollMemory;
}

export interface PollResult {
  /** What the service said about each task that was read (from its list item or its own GET). */
  answers: Map<string, Result<ResearchTask>>;
  /** Tasks this user may not read (403 now, or remembered from an earlier tick). */
  unreadable: Set<string>;
  /** Requests sent: list pages plus individual reads. */
  requests: number;
  /** Requests sent for list pages. */
  pages: number;
  /** Stopped for lack of time; the next tick continues. */
  partial: boolean;
  /** The list could not be read: nothing was read on its own either (the next tick tries again). */
  listError: ApiError | null;
}

interface ListScan {
  seen: Map<string, ResearchTask>;
  pages: number;
  /** Creation time of the oldest list item read (null: no item read). */
  oldestRead: number | null;
  /**
   * Whether the targets not seen may be read on their own: the list ended, passed the oldest target, or reading them
   * on their own is cheaper than reading on (false only when the clock cut the scan short).
   */
  settled: boolean;
  error: ApiError | null;
}

/**
 * List pages still needed to reach the oldest of the `behind` targets (those not seen, sent before the oldest item
 * read): at least one page per 100 of them, and as many as the pages read so far suggest, from the number of tasks the
 * account created per millisecond between the newest item and the oldest one read.
 */
export function pagesStillNeeded(
  behind: PollTarget[],
  read: { items: number; newest: number; oldest: number },
): number {
  if (behind.length === 0) return 0;
  const byCount = Math.ceil(behind.length / TASK_LIST_PAGE);
  const oldestBehind = Math.min(...behind.map((target) => target.sentAt));
  const perMs = read.items / Math.max(1, read.newest - read.oldest);
  const byDensity = Math.ceil((perMs * Math.max(0, read.oldest - oldestBehind)) / TASK_LIST_PAGE);
  return Math.max(byCount, byDensity);
}

/**
 * Reads list pages, several per fetchAll round, while that is cheaper than reading the targets not seen yet on their
 * own, and until every target was seen or the list is past them.
 */
function scanList(deps: PollDeps, targets: PollTarget[], options: PollOptions): ListScan {
  const since = Math.min(...targets.map((target) => target.sentAt)) - options.clockSkewMs;
  const scan: ListScan = { seen: new Map(), pages: 0, oldestRead: null, settled: false, error: null };
  const wanted = new Set(targets.map((target) => target.taskId));
  let newestRead: number | null = null;
  let items = 0;
  for (;;) {
    if (deps.clock.now() >= options.deadline) return scan;
    const unseen = targets.filter((target) => !scan.seen.has(target.taskId));
    const oldest = scan.oldestRead;
    const behind = oldest === null ? unseen : unseen.filter((target) => target.sentAt - options.clockSkewMs <= oldest);
    const needed =
      oldest === null || newestRead === null
        ? Math.ceil(behind.length / TASK_LIST_PAGE)
        : pagesStillNeeded(behind, { items, newest: newestRead, oldest });
    // Nothing left below what was read, or cheaper to read one by one: the scan is over.
    if (needed === 0 || (scan.pages > 0 && needed > behind.length)) {
      scan.settled = true;
      return scan;
    }
    // The first round reads a page per 100 targets (a lower bound); later ones half of the estimate, which reads on
    // from what they find, so an estimate thrown off by a gap in the list reads past the targets by a page or two.
    const count = Math.min(MAX_ROUND_PAGES, oldest === null ? needed : Math.ceil(needed / 2));
    const queries = Array.from({ length: count }, (_, i) => ({
      offset: (scan.pages + i) * TASK_LIST_PAGE,
      limit: TASK_LIST_PAGE,
    }));
    const pages = deps.client.listTaskPages(queries);
    scan.pages += count;
    for (const page of pages) {
      if (!page.ok) {
        scan.error = page.error;
        return scan;
      }
      for (const task of page.value) {
        if (wanted.has(task.id) && !scan.seen.has(task.id)) scan.seen.set(task.id, task);
        const created = Date.parse(task.created_at);
        if (Number.isFinite(created)) {
          newestRead ??= created;
          scan.oldestRead = created;
        }
      }
      items += page.value.length;
      const last = scan.oldestRead;
      if (page.value.length < TASK_LIST_PAGE || last === null || last < since || scan.seen.size === wanted.size) {
        scan.settled = true;
        return scan;
      }
    }
  }
}

function recheckAfter(now: number, target: PollTarget): number {
  return Math.min(UNSEEN_RECHECK_MAX_MS, Math.max(UNSEEN_RECHECK_MIN_MS, (now - target.sentAt) / 4));
}

/**
 * Reads the state of the given tasks: list pages first (while cheaper), then GETs of finished tasks whose list item
 * has no report and of the tasks the list did not give. Never throws; answers only for the tasks it read.
 */
export function pollTasks(deps: PollDeps, targets: PollTarget[], options: PollOptions): PollResult {
  const result: PollResult = {
    answers: new Map(),
    unreadable: new Set(),
    requests: 0,
    pages: 0,
    partial: false,
    listError: null,
  };
  if (targets.length === 0) return result;
  // A task read on its own lately waits for its next read (a quarter of its age): only the others are due now.
  const notes = deps.memory.recall(targets.map((target) => target.taskId));
  for (const [taskId, note] of notes) if (note === 'forbidden') result.unreadable.add(taskId);
  const due = targets.filter((target) => !notes.has(target.taskId));
  if (due.length === 0) return result;
  const scan = scanList(deps, due, options);
  result.requests = result.pages = scan.pages;
  result.partial = !scan.settled && scan.error === null;
  result.listError = scan.error;
  if (scan.error) return result;
  const toRead: string[] = [];
  for (const [taskId, task] of scan.seen) {
    if (task.status === 'done' && !task.report) toRead.push(taskId);
    else result.answers.set(taskId, { ok: true, value: task, status: 200, retries: 0 });
  }
  // After a scan the clock cut short, only the targets above what was read are known to be missing from the list.
  const oldest = scan.oldestRead;
  const dueUnseen = due.filter(
    (target) =>
      !scan.seen.has(target.taskId) &&
      (scan.settled || (oldest !== null && target.sentAt - options.clockSkewMs > oldest)),
  );
  toRead.push(...dueUnseen.map((target) => target.taskId));
  const reads = readTasks(deps, toRead, options);
  result.requests += reads.requests;
  result.partial = result.partial || reads.partial;
  const now = deps.clock.now();
  const remembered: Array<{ taskId: string; note: UnseenNote; forMs: number }> = [];
  for (const [taskId, answer] of reads.answers) {
    result.answers.set(taskId, answer);
    if (!answer.ok && answer.error.kind === 'forbidden') result.unreadable.add(taskId);
  }
  for (const target of dueUnseen) {
    const answer = reads.answers.get(target.taskId);
    if (!answer) continue;
    if (!answer.ok && answer.error.kind === 'forbidden')
      remembered.push({ taskId: target.taskId, note: 'forbidden', forMs: FORBIDDEN_RECHECK_MS });
    else if (answer.ok && answer.value.status !== 'done' && answer.value.status !== 'failed')
      remembered.push({ taskId: target.taskId, note: 'read', forMs: recheckAfter(now, target) });
  }
  if (remembered.length > 0) deps.memory.remember(remembered);
  return result;
}

function readTasks(
  deps: PollDeps,
  taskIds: string[],
  options: PollOptions,
): { answers: Map<string, Result<ResearchTask>>; requests: number; partial: boolean } {
  const answers = new Map<string, Result<ResearchTask>>();
  let requests = 0;
  for (let start = 0; start < taskIds.length; start += options.getBatch) {
    if (deps.clock.now() >= options.deadline) return { answers, requests, partial: true };
    const batch = taskIds.slice(start, start + options.getBatch);
    const results = deps.client.getTasks(batch);
    requests += batch.length;
    batch.forEach((taskId, i) => answers.set(taskId, results[i]));
  }
  return { answers, requests, partial: false };
}
