// The research job engine: launching rows (ledger records first, then task creation in small parallel batches),
// reconciling ambiguous creates through the task list before any retry (a task is never paid twice), and the poll
// tick (read pending tasks through the task list, poll.ts; store finished reports, write all changed cells in batched
// writes, save the ledger). Callers hold the document lock. Every step is idempotent, so an execution killed at any
// point leaves a state the next tick completes: the sheet ends as an uninterrupted run's, no task created twice.
import type { ApiError, Result } from '../api/errors';
import { userMessage } from '../api/errors';
import type { JsonSchemaObject, ResearchTask, TaskDepth, TaskReport } from '../api/types';
import type { ClockPort } from '../ports';
import { parseTemplate, renderBrief } from './brief-template';
import { cellDomain } from './brief-domains';
import { isPending, needsRow, needsWork, statusText, type LedgerEntry, type OutputMapping } from './ledger';
import type { CellWrite, GridPort, ResearchClient } from './ports';
import { headerIndex, rowCells } from './results';
import { keyColumn, keyHeaderOf, keyString, locateRow, type SheetView } from './row-locator';
import { newTagId, rowsNeedingTags, tagBudgetProblem, tagsInUse } from './row-tags';
import { capMessage, guardRoom, rowsThatFit, type Calendar, type SpendingCap } from './spending-guard';
import type { LedgerStore, ReportStore } from './stores';
import { NO_POLL_MEMORY, pollTasks, type PollMemory } from './poll';
import { taskCost } from './depth';

export interface JobLimits {
  /** Creates sent per fetchAll round. */
  createBatch: number;
  /** Task ids per getTasks call (the client splits them into fetchAll rounds). */
  pollBatch: number;
  /** Most task-list pages (100 tasks each) a tick reads to find its pending tasks. */
  pollListPages: number;
  /** Most tasks the list did not show that a tick reads on their own. */
  pollUnseenReads: number;
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
  pollListPages: 20,
  pollUnseenReads: 5,
  budgetMs: 4.5 * 60 * 1000,
  reconcileWindowMs: 10 * 60 * 1000,
  reconcilePages: 10,
  unconfirmAfterMs: 30 * 60 * 1000,
};

export interface JobDeps {
  client: ResearchClient;
  grid: GridPort;
  ledger: LedgerStore;
  reports: ReportStore;
  clock: ClockPort;
  newId: () => string;
  limits?: Partial<JobLimits>;
  /** Spaces out the reads of tasks the task list does not show (poll.ts); without it they are read every tick. */
  pollMemory?: PollMemory;
}

const ERROR_TEXT_MAX = 5000;
const LIST_PAGE = 100;

function limitsOf(deps: JobDeps): JobLimits {
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
  const known = new Set(entries.map((entry) => entry.taskId).filter((id): id is string => !!id));
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

/** "Send anyway": the given unconfirmed records go back to the queue (the user accepted that this may pay twice). */
export function sendUnconfirmedAnyway(deps: JobDeps, ids: ReadonlySet<string>): LedgerEntry[] {
  deps.ledger.load();
  const now = deps.clock.now();
  const requeued = deps.ledger
    .all()
    .filter((entry) => entry.state === 'unconfirmed' && ids.has(entry.id))
    .map((entry) => ({ ...entry, state: 'queued' as const, written: false, updatedAt: now }));
  deps.ledger.save(requeued);
  return requeued;
}

/**
 * Creates the tasks of `queued` records in batches until done or out of time. Each batch is marked `sending` in the
 * ledger before the requests go out; answers are saved right after. Returns the records it changed, last version.
 */
export function createQueued(deps: JobDeps, deadline: number): LedgerEntry[] {
  const limits = limitsOf(deps);
  const touched = new Map<string, LedgerEntry>();
  const queue = deps.ledger.all().filter((entry) => entry.state === 'queued');
  // Each batch's answers are saved together with the next batch's `sending` mark (one ledger write per batch): a
  // kill in between leaves `sending` records, which reconciliation settles.
  let unsaved: LedgerEntry[] = [];
  for (let start = 0; start < queue.length; start += limits.createBatch) {
    if (deps.clock.now() >= deadline) break;
    const now = deps.clock.now();
    const batch = queue
      .slice(start, start + limits.createBatch)
      .map((entry) => ({ ...entry, state: 'sending' as const, sentAt: now, updatedAt: now }));
    deps.ledger.save([...unsaved, ...batch]);
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
          if (!result.ok)
            unsaved.push({
              ...entry,
              state: 'error',
              error: clip(createErrorMessage(result.error)),
              written: false,
              finishedAt: after,
              updatedAt: after,
            });
          break;
        case 'nothing_created':
          unsaved.push({ ...entry, state: 'queued', updatedAt: after });
          break;
        case 'ambiguous':
          ambiguous = true;
          break;
      }
    });
    for (const entry of unsaved) touched.set(entry.id, entry);
    if (ambiguous) {
      deps.ledger.save(unsaved);
      unsaved = [];
      const reconciled = reconcileSending(deps, deps.ledger.all());
      deps.ledger.save(reconciled);
      for (const entry of reconciled) touched.set(entry.id, entry);
    }
    // Records put back to `queued` (503 after retries: nothing was created) wait for the next tick.
  }
  deps.ledger.save(unsaved);
  return [...touched.values()];
}

/**
 * Reads what row location needs for one sheet: headers, row tags and the key columns of `entries`. `owners` are the
 * records whose tags a key match must not take (every record of the sheet that still needs its row).
 */
function sheetView(
  grid: GridPort,
  sheetId: number,
  entries: LedgerEntry[],
  owners: readonly LedgerEntry[],
): SheetView | null {
  const headers = grid.headers(sheetId);
  if (!headers) return null;
  const columns: number[] = [];
  for (const entry of entries) {
    for (const header of entry.row.keyHeaders) {
      const column = keyColumn(headers, header);
      if (column !== null && !columns.includes(column)) columns.push(column);
    }
  }
  columns.sort((a, b) => a - b);
  const tagOwners = new Map<string, string>();
  for (const owner of owners) {
    if (owner.row.sheetId === sheetId && owner.row.rowId && !owner.detached && needsRow(owner))
      tagOwners.set(owner.row.rowId, keyString(owner.row.keyValues));
  }
  return {
    headers,
    rowIds: grid.rowIds(sheetId),
    tagOwners,
    keyColumns: columns,
    keyRows: columns.length > 0 ? grid.readColumns(sheetId, columns) : [],
  };
}

/**
 * The current row of each record of one sheet (null: no row can be trusted with it), as writes would find it.
 * `owners` (default: the records themselves) are the records of the sheet whose row tags key matches must respect.
 */
export function locateEntries(
  grid: GridPort,
  sheetId: number,
  entries: LedgerEntry[],
  owners: readonly LedgerEntry[] = entries,
): Map<string, number | null> {
  const view = sheetView(grid, sheetId, entries, owners);
  return new Map(entries.map((entry) => [entry.id, view ? locateRow(entry.row, view) : null]));
}

/**
 * Writes the rows of the given records (status changes and final results), one batch per sheet. Final records whose
 * row cannot be trusted any more become detached (their result stays in the ledger and viewer). Returns the records
 * with `written`/`shownStatus`/`detached` updated.
 */
export function writeRows(deps: JobDeps, entries: LedgerEntry[], fresh: Map<string, TaskReport>): LedgerEntry[] {
  const bySheet = new Map<number, LedgerEntry[]>();
  for (const entry of entries) {
    const finalState = !isPending(entry);
    if (entry.detached) {
      if (finalState && !entry.written) bySheet.set(-1, [...(bySheet.get(-1) ?? []), entry]);
      continue;
    }
    const list = bySheet.get(entry.row.sheetId) ?? [];
    list.push(entry);
    bySheet.set(entry.row.sheetId, list);
  }
  const updated: LedgerEntry[] = [];
  for (const [sheetId, list] of bySheet) {
    if (sheetId === -1) {
      updated.push(...list.map((entry) => ({ ...entry, written: true })));
      continue;
    }
    const view = sheetView(deps.grid, sheetId, list, [...deps.ledger.all(), ...list]);
    const columns = view ? headerIndex(view.headers) : new Map<string, number>();
    const cells: CellWrite[] = [];
    for (const entry of list) {
      const finalState = !isPending(entry);
      const row = view ? locateRow(entry.row, view) : null;
      if (row === null) {
        if (finalState) updated.push({ ...entry, detached: true, written: true });
        continue;
      }
      const report =
        entry.state === 'done' && entry.taskId ? (fresh.get(entry.taskId) ?? deps.reports.get(entry.taskId)) : null;
      cells.push(...rowCells(entry, report, row, columns));
      updated.push({ ...entry, written: finalState ? true : entry.written, shownStatus: statusText(entry) });
    }
    if (cells.length > 0) deps.grid.write(sheetId, cells);
  }
  return updated;
}

/** A record whose row shows something out of date: a new status, or a final result not yet written. */
export function rowNeedsWrite(entry: LedgerEntry): boolean {
  if (!isPending(entry)) return !entry.written;
  return !entry.detached && statusText(entry) !== entry.shownStatus;
}

export interface TickSummary {
  polled: number;
  changed: number;
  created: number;
  /** Records still needing work that this user can read. */
  pending: number;
  /** Pending records this user may not read (403: another account's task). */
  unreadable: number;
  /** Stopped early for lack of time; the next tick continues. */
  partial: boolean;
}

/**
 * One poll tick (caller holds the document lock): settle ambiguous creates, create queued tasks, fetch every pending
 * task, store finished reports, write changed rows, save the ledger.
 */
export function runTick(deps: JobDeps, startedAt = deps.clock.now()): TickSummary {
  const limits = limitsOf(deps);
  const deadline = startedAt + limits.budgetMs;
  deps.ledger.load();
  const reconciled = reconcileSending(deps, deps.ledger.all());
  deps.ledger.save(reconciled);
  const created = createQueued(deps, deadline);
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
  // The task list gives the state of 100 tasks per request; only finished tasks without their report in the list, and
  // a few tasks the list does not show, are read on their own (poll.ts).
  const poll = pollTasks(
    { client: deps.client, clock: deps.clock, memory: deps.pollMemory ?? NO_POLL_MEMORY },
    toPoll.map((entry) => ({ taskId: entry.taskId as string, sentAt: entry.sentAt ?? entry.launchedAt })),
    {
      maxPages: limits.pollListPages,
      unseenReads: limits.pollUnseenReads,
      getBatch: limits.pollBatch,
      clockSkewMs: limits.reconcileWindowMs,
      deadline,
    },
  );
  const now = deps.clock.now();
  const polled = poll.answers.size;
  const partial = poll.partial;
  const unreadable = new Set(
    toPoll.filter((entry) => poll.unreadable.has(entry.taskId as string)).map((entry) => entry.id),
  );
  for (const entry of toPoll) {
    const result = poll.answers.get(entry.taskId as string);
    if (!result) continue;
    let next: LedgerEntry | null = null;
    if (result.ok) {
      const task = result.value;
      const refetch = entry.state === 'done' && task.status === 'done';
      if (
        refetch ||
        task.status !== entry.state ||
        task.iterations !== entry.iterations ||
        task.agents !== entry.agents ||
        task.sources !== entry.sources
      ) {
        next = applyTask(entry, task, now);
        if (task.status === 'done' && task.report) fresh.set(task.id, task.report);
      }
    } else if (result.error.kind === 'not_found') {
      next = {
        ...entry,
        state: 'failed',
        error: 'The service no longer has this task',
        cost: 0,
        written: false,
        finishedAt: now,
        updatedAt: now,
      };
    }
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
  const pending = deps.ledger.all().filter((entry) => needsWork(entry) && !unreadable.has(entry.id)).length;
  return {
    polled,
    changed: changed.size,
    created: created.filter((e) => e.taskId).length,
    pending,
    unreadable: unreadable.size,
    partial,
  };
}

// ----------------------------------------------------------------------------------------------------------------
// Launch
// ----------------------------------------------------------------------------------------------------------------

export interface LaunchPlanInput {
  sheetId: number;
  rows: number[];
  template: string;
  depth: TaskDepth;
  schema: JsonSchemaObject | null;
  mapping: OutputMapping;
  /** Re-run rows that already have a running task (the old task's result then goes to the ledger only). */
  rerun: boolean;
}

export interface LaunchPlan {
  /** New records (state queued; rows that need a tag get its id when the launch goes ahead). */
  entries: LedgerEntry[];
  /** Older running records detached by an explicit re-run. */
  superseded: LedgerEntry[];
  skippedEmpty: number[];
  skippedRunning: number[];
  tooLong: Array<{ row: number; length: number }>;
  errors: string[];
  /** Rows whose key another row shares: they get a row tag (row-tags.ts). */
  rowsToTag: number[];
}

/** The rows each running record of the sheet is in now (row -> records). */
function runningByRow(deps: JobDeps, sheetId: number): Map<number, LedgerEntry[]> {
  const running = deps.ledger
    .all()
    .filter((entry) => entry.row.sheetId === sheetId && isPending(entry) && !entry.detached);
  const byRow = new Map<number, LedgerEntry[]>();
  if (running.length === 0) return byRow;
  for (const [id, row] of locateEntries(deps.grid, sheetId, running)) {
    if (row === null) continue;
    byRow.set(row, [...(byRow.get(row) ?? []), running.find((entry) => entry.id === id) as LedgerEntry]);
  }
  return byRow;
}

/** Builds the records of a launch; reads the sheet only (no service call, no write). */
export function planLaunch(deps: JobDeps, input: LaunchPlanInput): LaunchPlan {
  const plan: LaunchPlan = {
    entries: [],
    superseded: [],
    skippedEmpty: [],
    skippedRunning: [],
    tooLong: [],
    errors: [],
    rowsToTag: [],
  };
  const headers = deps.grid.headers(input.sheetId);
  if (!headers) return { ...plan, errors: ['The sheet no longer exists'] };
  const parsed = parseTemplate(input.template, headers);
  if (!parsed.ok) return { ...plan, errors: parsed.errors };
  const rows = [...new Set(input.rows)].filter((row) => row >= 2).sort((a, b) => a - b);
  if (rows.length === 0) return { ...plan, errors: ['Select one or more data rows (below the header row)'] };
  const values = deps.grid.readRows(input.sheetId, rows);
  const briefs = new Map<number, string>();
  rows.forEach((row, i) => {
    const rendered = renderBrief(parsed.template, values[i] ?? [], cellDomain);
    if (rendered.kind === 'empty') plan.skippedEmpty.push(row);
    else if (rendered.kind === 'too_long') plan.tooLong.push({ row, length: rendered.length });
    else briefs.set(row, rendered.brief);
  });
  if (briefs.size === 0) return plan;
  const running = runningByRow(deps, input.sheetId);
  const keyColumns = parsed.template.columns;
  const keyHeaders = keyColumns.map((column) => keyHeaderOf(headers, column));
  const now = deps.clock.now();
  rows.forEach((row, i) => {
    const brief = briefs.get(row);
    if (brief === undefined) return;
    const active = running.get(row) ?? [];
    if (active.length > 0) {
      if (!input.rerun) {
        plan.skippedRunning.push(row);
        return;
      }
      plan.superseded.push(...active.map((entry) => ({ ...entry, detached: true, updatedAt: now })));
    }
    const rowValues = values[i] ?? [];
    plan.entries.push({
      id: deps.newId(),
      taskId: null,
      state: 'queued',
      row: {
        sheetId: input.sheetId,
        rowId: null,
        rowHint: row,
        keyHeaders,
        keyValues: keyColumns.map((column) => String(rowValues[column - 1] ?? '').trim()),
      },
      brief,
      depth: input.depth,
      schema: input.schema,
      mapping: input.mapping,
      iterations: 0,
      agents: 0,
      sources: 0,
      cost: 0,
      error: null,
      degradation: [],
      launchedAt: now,
      sentAt: null,
      updatedAt: now,
      finishedAt: null,
      written: false,
      shownStatus: '',
      detached: false,
    });
  });
  const launched = plan.entries.map((entry) => entry.row.rowHint);
  // Without key columns no row is told apart by its values: every launched row is tagged.
  plan.rowsToTag =
    keyColumns.length > 0 ? rowsNeedingTags(launched, deps.grid.readColumns(input.sheetId, keyColumns)) : launched;
  return plan;
}

/**
 * Tags the plan's rows whose key is shared (refusing when the tags would not fit the sheet's metadata budget) and
 * puts each tag id into its record. Returns the refusal message, or null.
 */
function tagPlannedRows(deps: JobDeps, sheetId: number, plan: LaunchPlan): string | null {
  if (plan.rowsToTag.length === 0) return null;
  const existing = deps.grid.rowIds(sheetId);
  const taggedRows = new Set(existing.values());
  const newTags = plan.rowsToTag.filter((row) => !taggedRows.has(row)).length;
  const problem =
    newTags > 0
      ? tagBudgetProblem(newTags, deps.grid.metadataUse(sheetId), plan.entries[0]?.row.keyHeaders ?? [])
      : null;
  if (problem) return problem;
  const taken = new Set(existing.keys());
  const ids = deps.grid.tagRows(sheetId, plan.rowsToTag, () => {
    const id = newTagId(deps.newId, taken);
    taken.add(id);
    return id;
  });
  for (const entry of plan.entries) entry.row.rowId = ids.get(entry.row.rowHint) ?? null;
  return null;
}

/** Removes the row tags of the given sheets that no record needs any more (run after the ledger is saved). */
export function releaseRowTags(deps: JobDeps, sheetIds: Iterable<number>): void {
  const entries = deps.ledger.all();
  for (const sheetId of new Set(sheetIds)) {
    const inUse = tagsInUse(entries, sheetId);
    const unused = new Set([...deps.grid.rowIds(sheetId).keys()].filter((id) => !inUse.has(id)));
    deps.grid.untagRows(sheetId, unused);
  }
}

export interface LaunchOutcome {
  plan: LaunchPlan;
  /** Records after creation (created, queued for the next tick, sending, or refused). */
  entries: LedgerEntry[];
  /** Set when the launch was refused before anything was saved or sent. */
  refused: string | null;
  /** Rows left out because the spreadsheet's spending cap had no room for them (the user asked to fit). */
  overCap: number[];
}

/** The spreadsheet's spending guard for a launch: its cap, calendar, and whether to launch only the rows that fit. */
export interface LaunchGuard {
  cap: SpendingCap;
  calendar: Calendar;
  fitToCap: boolean;
}

/**
 * Applies the spending guard to a plan (the ledger is loaded: every launch of this spreadsheet, finished or not, is
 * counted): a refusal message, or the rows left out when the user asked to launch only what fits.
 */
function guardPlan(
  deps: JobDeps,
  input: LaunchPlanInput,
  plan: LaunchPlan,
  guard: LaunchGuard,
): { refused: string | null; overCap: number[] } {
  const room = guardRoom(guard.cap, deps.ledger.all(), deps.clock.now(), guard.calendar);
  const fit = rowsThatFit(room, input.depth, plan.entries.length);
  if (fit === plan.entries.length) return { refused: null, overCap: [] };
  if (!guard.fitToCap || fit === 0) return { refused: capMessage(room, input.depth, plan.entries.length), overCap: [] };
  const left = plan.entries.splice(fit);
  const overCap = left.map((entry) => entry.row.rowHint);
  plan.rowsToTag = plan.rowsToTag.filter((row) => !overCap.includes(row));
  return { refused: null, overCap };
}

/**
 * Launches research for rows: plans the records, refuses a launch whose reservation exceeds `availableCredits`,
 * saves the records and shows `Queued`, then creates the tasks in batches until `deadline` (the rest stays queued
 * for the poll trigger) and writes each row's status.
 */
export function runLaunch(
  deps: JobDeps,
  input: LaunchPlanInput,
  options: { deadline: number; availableCredits: number | null; reservationPerTask: number; guard?: LaunchGuard },
): LaunchOutcome {
  deps.ledger.load();
  const plan = planLaunch(deps, input);
  if (plan.errors.length > 0) return { plan, entries: [], refused: plan.errors.join('\n'), overCap: [] };
  if (plan.entries.length === 0) return { plan, entries: [], refused: null, overCap: [] };
  const guarded = options.guard ? guardPlan(deps, input, plan, options.guard) : { refused: null, overCap: [] };
  if (guarded.refused) return { plan, entries: [], refused: guarded.refused, overCap: [] };
  const total = plan.entries.length * options.reservationPerTask;
  if (options.availableCredits !== null && total > options.availableCredits) {
    return {
      plan,
      entries: [],
      refused: `Needs ${total} credits (${plan.entries.length} rows x ${options.reservationPerTask}), you have ${options.availableCredits}: try a lower depth or fewer rows`,
      overCap: [],
    };
  }
  const tagProblem = tagPlannedRows(deps, input.sheetId, plan);
  if (tagProblem) return { plan, entries: [], refused: tagProblem, overCap: [] };
  deps.ledger.save([...plan.superseded, ...plan.entries]);
  const queuedShown = writeRows(deps, plan.entries, new Map());
  deps.ledger.save(queuedShown);
  createQueued(deps, options.deadline);
  const ids = new Set(plan.entries.map((entry) => entry.id));
  const current = deps.ledger.all().filter((entry) => ids.has(entry.id));
  deps.ledger.save(writeRows(deps, current.filter(rowNeedsWrite), new Map()));
  const final = deps.ledger.all().filter((entry) => ids.has(entry.id));
  return { plan, entries: final, refused: null, overCap: guarded.overCap };
}
