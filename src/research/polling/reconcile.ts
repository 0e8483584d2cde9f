// Settling creates whose answer was lost (records `sending`, or `unconfirmed` when the user asks: "Check again")
// through the service's task list: a task with the same brief, depth and output kind, created since shortly before
// the send and not yet in the ledger, is adopted (one task per record, oldest first); a record the list does not show
// stays `sending`, and once `unconfirmAfterMs` has passed it becomes `unconfirmed`, for the user to decide. Nothing is
// ever sent again here, so a task is never paid twice. Returns records, never writes them: the caller saves.
import type { ResearchTask } from '../../api/types';
import type { ClockPort } from '../../ports';
import { sentAt, type LedgerEntry } from '../records/ledger';
import type { ResearchClient } from '../ports';

/** What reconciling needs of the job's ports (jobs.ts, JobDeps). */
export interface ReconcileDeps {
  client: Pick<ResearchClient, 'listTasks'>;
  clock: ClockPort;
}

/** The job's limits reconciling goes by (jobs.ts, JobLimits). */
export interface ReconcileLimits {
  reconcileWindowMs: number;
  reconcilePages: number;
  unconfirmAfterMs: number;
}

const LIST_PAGE = 100;

/** Briefs compared as the service may echo them (line endings and surrounding white space may differ). */
function sameBrief(echoed: string, sent: string): boolean {
  const normal = (text: string) => text.replace(/\r\n?/g, '\n').trim();
  return echoed === sent || normal(echoed) === normal(sent);
}

/**
 * Looks for the tasks of `lost` in the task list (`pages` pages at most). `entries`: the records the caller holds,
 * whose tasks are known besides `knownTaskIds` (every task id of the ledger, finished ones too: a partial load holds
 * only the open records). Returns the adopted records, the ones not found, and whether the list could be read at all.
 */
export function findInTaskList(
  deps: ReconcileDeps,
  entries: readonly LedgerEntry[],
  lost: readonly LedgerEntry[],
  limits: ReconcileLimits & { pages: number },
  knownTaskIds: () => ReadonlySet<string>,
): { adopted: LedgerEntry[]; missing: LedgerEntry[]; listRead: boolean } {
  if (lost.length === 0) return { adopted: [], missing: [], listRead: true };
  const known = new Set([...knownTaskIds(), ...entries.flatMap((entry) => (entry.taskId ? [entry.taskId] : []))]);
  const since = Math.min(...lost.map(sentAt)) - limits.reconcileWindowMs;
  const candidates: ResearchTask[] = [];
  for (let page = 0; page < limits.pages; page++) {
    const result = deps.client.listTasks({ offset: page * LIST_PAGE, limit: LIST_PAGE });
    if (!result.ok) return { adopted: [], missing: [...lost], listRead: false };
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
        // The same output kind: a schema, or a report.
        !task.output_schema === !entry.schema,
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
 * Settles the records in state `sending` among `entries` through the task list: those found (adopted), and those
 * not found once `unconfirmAfterMs` has passed since the send (unconfirmed), when the list was read. The records it
 * changed.
 */
export function reconcileSending(
  deps: ReconcileDeps,
  entries: readonly LedgerEntry[],
  limits: ReconcileLimits,
  knownTaskIds: () => ReadonlySet<string>,
): LedgerEntry[] {
  const sending = entries.filter((entry) => entry.state === 'sending');
  const pages = { ...limits, pages: limits.reconcilePages };
  const { adopted, missing, listRead } = findInTaskList(deps, entries, sending, pages, knownTaskIds);
  if (!listRead) return [];
  const now = deps.clock.now();
  const given = missing
    .filter((entry) => now - sentAt(entry) >= limits.unconfirmAfterMs)
    .map((entry) => ({ ...entry, state: 'unconfirmed' as const, written: false, updatedAt: now }));
  return [...adopted, ...given];
}
