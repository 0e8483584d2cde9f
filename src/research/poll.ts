// Reads the current state of a ledger's research tasks at little cost. The task list (newest first, 100 per page, the
// pages of a round sent in one fetchAll) gives the status of 100 tasks per request, so a tick costs about
// ceil(pending / 100) requests plus one GET per finished task whose list item lacks the report. Pages are read until
// every wanted task was seen, the list ends, or its tasks are older than the oldest wanted one. A task the list did
// not show (another account's task, or older than the pages read) is read on its own, a few per tick, and a
// per-user memory spaces those reads out so they do not recur every tick. Pure: works over the ResearchClient port.
import type { ApiError, Result } from '../api/errors';
import type { ResearchTask } from '../api/types';
import type { CachePort, ClockPort } from '../ports';
import type { ResearchClient } from './ports';

/** The service's largest task-list page (the sandbox's MAX_TASK_PAGE). */
export const TASK_LIST_PAGE = 100;

const MINUTE = 60 * 1000;
/** A task the list did not show is read again after a quarter of its age, between these bounds. */
const UNSEEN_RECHECK_MIN_MS = 1 * MINUTE;
const UNSEEN_RECHECK_MAX_MS = 30 * MINUTE;
/** Another account's task (403) is tried again after this long (it may have become readable). */
const FORBIDDEN_RECHECK_MS = 30 * MINUTE;

/** A task to read: its id and when it was sent (script clock), which bounds how far back the list is read. */
export interface PollTarget {
  taskId: string;
  sentAt: number;
}

/** What was last learned about a task the list did not show: read recently, or not readable by this user. */
export type UnseenNote = 'read' | 'forbidden';

/** Per-user memory of the individual reads of unseen tasks (a hint: forgetting costs one more read). */
export interface PollMemory {
  recall(taskIds: string[]): Map<string, UnseenNote>;
  remember(notes: Array<{ taskId: string; note: UnseenNote; forMs: number }>): void;
}

/** No memory: unseen tasks are read every tick (still at most `unseenReads` of them). */
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
  /** Most list pages read in one tick. */
  maxPages: number;
  /** Most individual reads of tasks the list did not show, per tick. */
  unseenReads: number;
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
  /** Stopped for lack of time; the next tick continues. */
  partial: boolean;
  /** The list could not be read: nothing was read on its own either (the next tick tries again). */
  listError: ApiError | null;
}

interface ListScan {
  seen: Map<string, ResearchTask>;
  requests: number;
  /** Every wanted task that the list holds was seen (the scan was not cut short by the page limit or the clock). */
  complete: boolean;
  partial: boolean;
  error: ApiError | null;
}

/** Reads list pages, several per fetchAll round, until the wanted tasks are seen or the list is past them. */
function scanList(deps: PollDeps, targets: PollTarget[], options: PollOptions): ListScan {
  const wanted = new Set(targets.map((target) => target.taskId));
  const since = Math.min(...targets.map((target) => target.sentAt)) - options.clockSkewMs;
  const scan: ListScan = { seen: new Map(), requests: 0, complete: false, partial: false, error: null };
  let nextPage = 0;
  while (!scan.complete) {
    if (deps.clock.now() >= options.deadline) {
      scan.partial = true;
      break;
    }
    const unseen = wanted.size - scan.seen.size;
    const count = Math.min(options.maxPages - nextPage, Math.max(1, Math.ceil(unseen / TASK_LIST_PAGE)));
    if (count <= 0) break;
    const queries = Array.from({ length: count }, (_, i) => ({
      offset: (nextPage + i) * TASK_LIST_PAGE,
      limit: TASK_LIST_PAGE,
    }));
    const pages = deps.client.listTaskPages(queries);
    scan.requests += count;
    nextPage += count;
    for (const page of pages) {
      if (!page.ok) {
        scan.error = page.error;
        return scan;
      }
      for (const task of page.value) if (wanted.has(task.id) && !scan.seen.has(task.id)) scan.seen.set(task.id, task);
      const oldest = page.value[page.value.length - 1];
      if (
        page.value.length < TASK_LIST_PAGE ||
        !oldest ||
        Date.parse(oldest.created_at) < since ||
        scan.seen.size === wanted.size
      ) {
        scan.complete = true;
        break;
      }
    }
  }
  return scan;
}

function recheckAfter(now: number, target: PollTarget): number {
  return Math.min(UNSEEN_RECHECK_MAX_MS, Math.max(UNSEEN_RECHECK_MIN_MS, (now - target.sentAt) / 4));
}

/**
 * Reads the state of the given tasks: list pages first, then GETs of finished tasks whose list item has no report and
 * of a few tasks the list did not show. Never throws; answers only for the tasks it read.
 */
export function pollTasks(deps: PollDeps, targets: PollTarget[], options: PollOptions): PollResult {
  const result: PollResult = {
    answers: new Map(),
    unreadable: new Set(),
    requests: 0,
    partial: false,
    listError: null,
  };
  if (targets.length === 0) return result;
  const scan = scanList(deps, targets, options);
  result.requests = scan.requests;
  result.partial = scan.partial;
  result.listError = scan.error;
  if (scan.error) return result;
  const toRead: string[] = [];
  for (const [taskId, task] of scan.seen) {
    if (task.status === 'done' && !task.report) toRead.push(taskId);
    else result.answers.set(taskId, { ok: true, value: task, status: 200, retries: 0 });
  }
  const unseen = scan.complete ? targets.filter((target) => !scan.seen.has(target.taskId)) : [];
  const notes = deps.memory.recall(unseen.map((target) => target.taskId));
  const dueUnseen = unseen
    .filter((target) => {
      if (notes.get(target.taskId) === 'forbidden') result.unreadable.add(target.taskId);
      return !notes.has(target.taskId);
    })
    .slice(0, options.unseenReads);
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
    else if (answer.ok) remembered.push({ taskId: target.taskId, note: 'read', forMs: recheckAfter(now, target) });
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
