// Server functions of the Research panel (google.script.run) and its menu handler. Each builds the research ports
// (context.ts), takes the document lock around any ledger work, and returns plain JSON for the panel. The logic is in
// jobs.ts, results.ts and the pure modules; the timer's polling is timer-slice.ts.
import { appContext } from '../platform/app-context';
import { LAST_TICK_KEY, research, tickOnce, withLock, type Research } from './context';
import { NO_REPORT, type ReportDto } from './contract';
import { userMessage } from '../api/errors';
import type { ResearchTask, TaskDepth, TaskReport } from '../api/types';
import type { KeyValueStore } from '../ports';
import { parseTemplate } from './brief-template';
import { AGENT_BUDGET, reservationFor, taskCost } from './depth';
import { locateEntries, releaseRowTags, rowNeedsWrite, writeRows } from './write-back';
import { recheckUnconfirmed, sendUnconfirmedAnyway } from './jobs';
import { runLaunch } from './launch';
import { newTagId } from './row-tags';
import { companyMismatch, domainsIn } from './row-match';
import { guardRoom, NO_CAP, readCap, type Calendar, type GuardRoom, type SpendingCap } from './spending-guard';
import { formulaTokenOwner, SETTINGS_KEYS } from '../account/settings';
import { isPending, statusText, type DamagedRecord, type LedgerEntry } from './ledger';
import { jsonSchemaProblems } from './json-schema-check';
import { outputClashes, resolveOutput, type LaunchRequest } from './launch-request';
import { SheetGrid } from '../platform/sheets/research';
import { checkedRequest, requestProblem, unreadableRequest } from '../shared/request-check';
import {
  ENTRY_IDS,
  GUARD_REQUEST,
  LAUNCH_REQUEST,
  PAGE_INDEX,
  SHOW_ROWS_REQUEST,
  TASK_ID,
  WRITE_TO_ROW_REQUEST,
} from './requests';
import { readChunked, writeChunked } from '../shared/chunked-store';
import { ensureTimer } from '../scheduler/timer';
import type { BudgetStatus } from '../platform/request-budget';
import { rowDomains } from './brief-domains';
import { showPanel } from '../platform/panels';
import { activeSheetId, activeSpreadsheet, formatInSpreadsheetZone, type Spreadsheet } from '../platform/spreadsheet';
import { BUSY_MESSAGE } from '../shared/busy';

const PANEL_STATE_KEY = 'sheetscout.research.panel';
const LAUNCH_BUDGET_MS = 4 * 60 * 1000;
const SIDEBAR_TICK_BUDGET_MS = 60 * 1000;
/**
 * A panel poll this soon after the previous tick shows the ledger without calling the service, so open panels (of
 * any number of users) send at most one tick's requests per interval. The panel waits 15 s after each answer.
 */
const PANEL_TICK_GAP_MS = 15 * 1000;
const HISTORY_PAGE = 20;

const GUARD_KEY = 'sheetscout.research.cap';

/** The spreadsheet's calendar: days and months in its own time zone. */
function spreadsheetCalendar(): Calendar {
  return {
    day: (ms) => formatInSpreadsheetZone(ms, 'yyyy-MM-dd'),
    month: (ms) => formatInSpreadsheetZone(ms, 'yyyy-MM'),
  };
}

function storedCap(document: KeyValueStore): SpendingCap {
  try {
    const cap = readCap(JSON.parse(document.get(GUARD_KEY) ?? 'null') ?? NO_CAP);
    return typeof cap === 'string' ? NO_CAP : cap;
  } catch {
    return NO_CAP;
  }
}

/** The spending guard as the panels show it. */
export interface SpendingGuardDto extends GuardRoom {
  /** Whether this user may change the cap: the user who shares their token with this spreadsheet, or anyone if none does. */
  canEdit: boolean;
  /** Who may change it, when not this user. */
  editNote: string | null;
}

function guardDto(r: Research): SpendingGuardDto {
  const document = r.trigger.document;
  const room = guardRoom(storedCap(document), r.deps.ledger.load(), r.context.clock.now(), spreadsheetCalendar());
  const shared = document.get(SETTINGS_KEYS.formulaToken);
  const canEdit = !shared || shared === r.context.stores.user.get(SETTINGS_KEYS.token);
  const owner = formulaTokenOwner(document);
  return {
    ...room,
    canEdit,
    editNote: canEdit ? null : `Set by ${owner ?? 'the editor'} who shares their token with this spreadsheet`,
  };
}

/** Settings: this spreadsheet's research spending cap and what is left under it. */
export function getSpendingGuard(): SpendingGuardDto {
  return guardDto(research());
}

/** Settings: sets (or clears, with nulls) the cap; only the user who shares their token with the spreadsheet may. */
export function setSpendingGuard(input: { daily: number | null; monthly: number | null }): SpendingGuardDto {
  const request = checkedRequest<{ daily: number | null; monthly: number | null }>(
    GUARD_REQUEST,
    input,
    'spending cap',
  );
  const r = research();
  const current = guardDto(r);
  if (!current.canEdit)
    throw new Error(current.editNote ?? 'Only the editor who shares their token can change the cap');
  const cap = readCap(request);
  if (typeof cap === 'string') throw new Error(cap);
  if (cap.daily === null && cap.monthly === null) r.trigger.document.remove(GUARD_KEY);
  else r.trigger.document.set(GUARD_KEY, JSON.stringify(cap));
  return guardDto(r);
}

/** Menu: Extensions > Sheet Scout > Research selected rows... */
export function showResearchPanel(): void {
  showPanel('Research', 'Sheet Scout research');
}

export interface ResearchContextDto {
  sheetId: number;
  sheetName: string;
  headers: string[];
  /** Selected data rows (row 1 is the header row). */
  rows: number[];
  /** Display values of the first selected row, for the live preview, and the registered domain each cell holds. */
  firstRow: string[] | null;
  firstRowDomains: Array<string | null> | null;
  /** The panel's last launch settings in this spreadsheet. */
  saved: Omit<LaunchRequest, 'rerun'> | null;
  reservations: Record<string, number>;
  /** This spreadsheet's research spending cap and what is left under it. */
  guard: SpendingGuardDto;
}

function selectedRows(spreadsheet: Spreadsheet, sheet: GoogleAppsScript.Spreadsheet.Sheet): number[] {
  // A selection of several ranges (Ctrl-click) arrives as a range list (null without a selection).
  const ranges = spreadsheet.getActiveRangeList()?.getRanges() ?? [];
  const last = sheet.getLastRow();
  const rows = new Set<number>();
  for (const range of ranges) {
    if (range.getSheet().getSheetId() !== sheet.getSheetId()) continue;
    const end = Math.min(range.getLastRow(), last);
    for (let row = Math.max(2, range.getRow()); row <= end; row++) rows.add(row);
  }
  return [...rows].sort((a, b) => a - b);
}

export function getResearchContext(): ResearchContextDto {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const grid = new SheetGrid(spreadsheet);
  const rows = selectedRows(spreadsheet, sheet);
  const headers = grid.headers(sheet.getSheetId()) ?? [];
  const firstRow = rows.length > 0 ? grid.readRows(sheet.getSheetId(), [rows[0]])[0] : null;
  const document = appContext().stores.document;
  const savedText = document ? readChunked(document, PANEL_STATE_KEY) : null;
  let saved: ResearchContextDto['saved'];
  try {
    saved = savedText ? (JSON.parse(savedText) as ResearchContextDto['saved']) : null;
  } catch {
    saved = null;
  }
  return {
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    headers,
    rows,
    firstRow,
    firstRowDomains: firstRow ? rowDomains(firstRow) : null,
    saved,
    reservations: { medium: reservationFor('medium'), high: reservationFor('high'), xhigh: reservationFor('xhigh') },
    guard: guardDto(research()),
  };
}

export interface LaunchResponse {
  ok: boolean;
  message: string;
  errors: string[];
  created: number;
  queued: number;
  skippedEmpty: number[];
  skippedRunning: number[];
  tooLong: Array<{ row: number; length: number }>;
  /** Rows left out because the spending cap had no room (only when the user asked to launch what fits). */
  overCap: number[];
  failed: Array<{ row: number; message: string }>;
}

function refusedLaunch(errors: string[]): LaunchResponse {
  return {
    ok: false,
    message: errors[0] ?? 'Nothing was launched',
    errors,
    created: 0,
    queued: 0,
    skippedEmpty: [],
    skippedRunning: [],
    tooLong: [],
    overCap: [],
    failed: [],
  };
}

/**
 * Remembers the launch settings for the panel's next opening, before anything is sent: a brief of any length is
 * split over several properties (9 KB each), and a store too full to take it only costs the convenience.
 */
function rememberPanelState(r: Research, request: LaunchRequest): void {
  try {
    writeChunked(
      r.trigger.document,
      PANEL_STATE_KEY,
      JSON.stringify({ template: request.template, depth: request.depth, output: request.output }),
    );
  } catch {
    // DocumentProperties full (500 KB): the panel opens with its defaults next time.
  }
}

/** Launches research for the given rows of the given sheet (the panel sends what it previewed). */
export function launchResearch(
  request: LaunchRequest & { sheetId: number; rows: number[]; fitToCap?: boolean },
): LaunchResponse {
  const problem = requestProblem(LAUNCH_REQUEST, request, 'launch');
  if (problem) return refusedLaunch([unreadableRequest(problem)]);
  const rows = (Array.isArray(request.rows) ? request.rows : []).filter((row) => Number.isInteger(row) && row >= 2);
  if (rows.length === 0) return refusedLaunch(['Select the rows to research (below the header row)']);
  const output = resolveOutput(request.output, jsonSchemaProblems);
  if (!output.ok) return refusedLaunch(output.errors);
  const r = research(LAUNCH_BUDGET_MS);
  const headers = r.deps.grid.headers(request.sheetId);
  if (!headers) return refusedLaunch(['That sheet no longer exists: reopen the panel']);
  const template = parseTemplate(request.template, headers);
  if (!template.ok) return refusedLaunch(template.errors);
  const clashes = outputClashes(output.headers, headers, template.template.columns);
  if (clashes.length > 0) return refusedLaunch(clashes);
  const user = r.deps.client.getUser();
  if (!user.ok) return refusedLaunch([userMessage(user.error)]);
  return withLock(
    r,
    30000,
    () => refusedLaunch([BUSY_MESSAGE]),
    () => {
      r.deps.grid.ensureHeaders(request.sheetId, output.headers);
      rememberPanelState(r, request);
      const outcome = runLaunch(
        r.deps,
        {
          sheetId: request.sheetId,
          rows,
          template: request.template,
          depth: request.depth,
          schema: output.schema,
          mapping: output.mapping,
          rerun: request.rerun === true,
        },
        {
          deadline: r.context.clock.now() + LAUNCH_BUDGET_MS,
          availableCredits: user.value.available_credits,
          reservationPerTask: reservationFor(request.depth),
          guard: {
            cap: storedCap(r.trigger.document),
            calendar: spreadsheetCalendar(),
            fitToCap: request.fitToCap === true,
          },
        },
      );
      if (outcome.refused)
        return {
          ...refusedLaunch(outcome.refused.split('\n')),
          skippedEmpty: outcome.plan.skippedEmpty,
          tooLong: outcome.plan.tooLong,
        };
      if (r.deps.ledger.all().some(isPending)) ensureTimer(r.trigger, 'research');
      const created = outcome.entries.filter((entry) => entry.taskId !== null).length;
      const failed = outcome.entries
        .filter((entry) => entry.state === 'error')
        .map((entry) => ({ row: entry.row.rowHint, message: entry.error ?? 'Refused' }));
      const queued = outcome.entries.filter((entry) => entry.state === 'queued').length;
      const lost = outcome.entries.filter((entry) => entry.state === 'sending').length;
      const parts =
        created > 0 || lost === 0 ? [`Queued ${created} task${created === 1 ? '' : 's'} at the service`] : [];
      if (lost)
        parts.push(
          `${lost} sent but the service's answer was lost: checking whether ${lost === 1 ? 'it' : 'they'} started`,
        );
      if (queued) parts.push(`${queued} waiting to be sent`);
      if (failed.length) parts.push(`${failed.length} refused`);
      if (outcome.plan.skippedEmpty.length) parts.push(`${outcome.plan.skippedEmpty.length} skipped (empty brief)`);
      if (outcome.plan.skippedRunning.length) parts.push(`${outcome.plan.skippedRunning.length} already running`);
      if (outcome.plan.tooLong.length) parts.push(`${outcome.plan.tooLong.length} over 20,000 characters`);
      if (outcome.overCap.length) parts.push(`${outcome.overCap.length} left out by the spending cap`);
      return {
        ok: true,
        message: parts.join(', '),
        errors: [],
        created,
        queued,
        skippedEmpty: outcome.plan.skippedEmpty,
        skippedRunning: outcome.plan.skippedRunning,
        tooLong: outcome.plan.tooLong,
        overCap: outcome.overCap,
        failed,
      };
    },
  );
}

/**
 * "Show in sheet" after a launch: selects the status cells of the launched rows (from the first to the last), so the
 * user sees where progress will appear even when the status column is far to the right. Answers the range selected.
 */
export function showResearchRows(request: { sheetId: number; rows: number[]; statusHeader: string }): {
  ok: boolean;
  message: string;
} {
  const problem = requestProblem(SHOW_ROWS_REQUEST, request, 'rows');
  if (problem) return { ok: false, message: unreadableRequest(problem) };
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getSheets().find((candidate) => candidate.getSheetId() === request.sheetId);
  if (!sheet) return { ok: false, message: 'That sheet no longer exists' };
  const headers = new SheetGrid(spreadsheet).headers(request.sheetId) ?? [];
  const column = headers.findIndex((header) => header.trim() === request.statusHeader.trim()) + 1;
  if (column === 0) return { ok: false, message: `No column "${request.statusHeader}" in ${sheet.getName()}` };
  const rows = request.rows.filter((row) => row >= 2);
  if (rows.length === 0) return { ok: false, message: 'No rows to show' };
  const first = Math.min(...rows);
  const range = sheet.getRange(first, column, Math.max(...rows) - first + 1, 1);
  spreadsheet.setActiveSheet(sheet);
  range.activate();
  return { ok: true, message: `Selected ${range.getA1Notation()} in ${sheet.getName()}` };
}

/** What "Check again" or "Send anyway" did to unconfirmed creates. */
export interface UnconfirmedActionResponse {
  ok: boolean;
  message: string;
}

/** "Check again": looks for unconfirmed creates in the service's task list once more (further back than a tick). */
export function checkUnconfirmedResearch(entryIds: string[]): UnconfirmedActionResponse {
  const problem = requestProblem(ENTRY_IDS, entryIds, 'rows');
  if (problem) return { ok: false, message: unreadableRequest(problem) };
  const r = research(SIDEBAR_TICK_BUDGET_MS);
  return withLock<UnconfirmedActionResponse>(
    r,
    30000,
    () => ({ ok: false, message: BUSY_MESSAGE }),
    () => {
      const { found, stillMissing } = recheckUnconfirmed(r.deps, new Set(entryIds));
      if (found.length > 0) {
        ensureTimer(r.trigger, 'research');
        tickOnce(r);
      }
      const parts = [];
      if (found.length)
        parts.push(
          `${found.length} found at the service: ${found.length === 1 ? 'it is' : 'they are'} running and will be written as usual`,
        );
      if (stillMissing)
        parts.push(
          `${stillMissing} still not in your task list: may never have started (Send anyway pays again if it did)`,
        );
      return { ok: true, message: parts.join('; ') || 'Nothing to check' };
    },
  );
}

/** "Send anyway": creates the unconfirmed tasks again, on the user's word (the panel showed what it may cost). */
export function sendUnconfirmedResearchAnyway(entryIds: string[]): UnconfirmedActionResponse {
  const problem = requestProblem(ENTRY_IDS, entryIds, 'rows');
  if (problem) return { ok: false, message: unreadableRequest(problem) };
  const r = research(LAUNCH_BUDGET_MS);
  return withLock<UnconfirmedActionResponse>(
    r,
    30000,
    () => ({ ok: false, message: BUSY_MESSAGE }),
    () => {
      const requeued = sendUnconfirmedAnyway(r.deps, new Set(entryIds));
      if (requeued.length === 0)
        return { ok: false, message: 'These rows are no longer unconfirmed: nothing was sent' };
      ensureTimer(r.trigger, 'research');
      tickOnce(r);
      return { ok: true, message: `Sent ${requeued.length} again` };
    },
  );
}

export interface ResearchRowDto {
  entryId: string;
  taskId: string | null;
  /** Current row, or null when no row can be trusted with the result any more. */
  row: number | null;
  state: string;
  status: string;
  /** Depth of the task (what "Send anyway" may cost: its reservation). */
  depth: TaskDepth;
  /** While researching: research agents finished out of the depth's most (0..1); 1 when done; else null. */
  progress: number | null;
  brief: string;
  detached: boolean;
  updatedAt: number;
}

export interface ResearchStatusDto {
  pending: number;
  /** Records of the active sheet, newest first (at most 50). */
  rows: ResearchRowDto[];
  /** Another execution held the lock: the numbers are from the ledger as it was. */
  busy: boolean;
  /** The acting user's daily request budget ("Requests today: N of M"), with its warning when nearly spent. */
  requests: BudgetStatus;
  /** Ledger rows that could not be read: kept in the hidden ledger sheet as they are, and shown to the user. */
  damaged: DamagedRecord[];
}

function statusDto(r: Research, entries: LedgerEntry[], sheetId: number, busy: boolean): ResearchStatusDto {
  const shown = entries
    .filter((entry) => entry.row.sheetId === sheetId)
    .sort((a, b) => b.launchedAt - a.launchedAt)
    .slice(0, 50);
  // Current rows (after sorts and inserts), found the way results are written.
  const rows =
    shown.length > 0
      ? locateEntries(
          r.deps.grid,
          sheetId,
          shown.filter((entry) => !entry.detached),
        )
      : new Map<string, number | null>();
  return {
    pending: entries.filter(isPending).length,
    busy,
    requests: r.context.requestBudget.status(),
    damaged: r.deps.ledger.damaged(),
    rows: shown.map((entry) => ({
      entryId: entry.id,
      taskId: entry.taskId,
      row: rows.get(entry.id) ?? null,
      state: entry.state,
      status: statusText(entry),
      depth: entry.depth,
      progress:
        entry.state === 'done'
          ? 1
          : entry.state === 'in_progress'
            ? Math.min(1, entry.agents / AGENT_BUDGET[entry.depth])
            : null,
      brief: entry.brief.length > 200 ? `${entry.brief.slice(0, 199)}…` : entry.brief,
      detached: entry.detached || rows.get(entry.id) === null,
      updatedAt: entry.updatedAt,
    })),
  };
}

/** A tick (from any panel or the timer) started less than PANEL_TICK_GAP_MS ago. */
function tickedRecently(r: Research): boolean {
  const since = r.context.clock.now() - Number(r.trigger.document.get(LAST_TICK_KEY) ?? 0);
  return since >= 0 && since < PANEL_TICK_GAP_MS;
}

/**
 * The panel's poll (15 s after its previous answer while open): one tick when none ran in the last 15 s and the lock
 * is free, then the sheet's records.
 */
export function pollResearch(): ResearchStatusDto {
  const r = research(SIDEBAR_TICK_BUDGET_MS);
  const sheetId = activeSheetId();
  if (tickedRecently(r)) return statusDto(r, r.deps.ledger.load(), sheetId, false);
  return withLock(
    r,
    200,
    () => statusDto(r, r.deps.ledger.load(), sheetId, true),
    () => {
      if (tickedRecently(r)) return statusDto(r, r.deps.ledger.load(), sheetId, false);
      tickOnce(r);
      return statusDto(r, r.deps.ledger.all(), sheetId, false);
    },
  );
}

export interface HistoryItemDto {
  id: string;
  status: string;
  depth: string;
  brief: string;
  createdAt: string;
  iterations: number;
  agents: number;
  sources: number;
  cost: number;
  failureReason: string | null;
  kind: 'markdown' | 'schema' | null;
}

export interface HistoryPageDto {
  items: HistoryItemDto[];
  page: number;
  hasMore: boolean;
  error: string | null;
}

function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function historyItem(task: ResearchTask): HistoryItemDto {
  return {
    id: task.id,
    status: task.status,
    depth: task.depth,
    brief: clipText(task.brief, 300),
    createdAt: task.created_at,
    iterations: task.iterations,
    agents: task.agents,
    sources: task.sources,
    cost: taskCost(task.status, task.agents),
    failureReason: task.failure_reason ? clipText(task.failure_reason, 500) : null,
    kind: task.report ? task.report.kind : task.output_schema ? 'schema' : null,
  };
}

/** Every task of the account, newest first, a page at a time (including tasks started elsewhere). */
export function listResearchHistory(page: number): HistoryPageDto {
  const index = checkedRequest<number>(PAGE_INDEX, page, 'page');
  const result = appContext()
    .userClient()
    .listTasks({ offset: index * HISTORY_PAGE, limit: HISTORY_PAGE + 1 });
  if (!result.ok) return { items: [], page: index, hasMore: false, error: userMessage(result.error) };
  return {
    items: result.value.slice(0, HISTORY_PAGE).map(historyItem),
    page: index,
    hasMore: result.value.length > HISTORY_PAGE,
    error: null,
  };
}

/** The report of the active row's latest research (from the document, so it survives a deleted or changed row). */
export function getSelectedRowReport(): ReportDto {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const row = spreadsheet.getActiveCell().getRow();
  if (row < 2) return { ...NO_REPORT, message: 'Select a data row to see its report' };
  const r = research();
  const sheetId = sheet.getSheetId();
  const candidates = r.deps.ledger.load().filter((e) => e.row.sheetId === sheetId && !e.detached);
  const rows = locateEntries(r.deps.grid, sheetId, candidates);
  const entry = candidates.filter((e) => rows.get(e.id) === row).sort((a, b) => b.launchedAt - a.launchedAt)[0];
  if (!entry) return { ...NO_REPORT, row, message: `Row ${row} has no research yet` };
  return entryReport(r, entry, row);
}

function entryReport(r: Research, entry: LedgerEntry, row: number | null): ReportDto {
  return {
    found: true,
    message: null,
    row,
    taskId: entry.taskId,
    status: statusText(entry),
    brief: entry.brief,
    report: entry.state === 'done' && entry.taskId ? r.deps.reports.get(entry.taskId) : null,
    error: entry.error,
    detached: entry.detached,
  };
}

/** The report of any task: from this document's store when it has it, else from the service. */
export function getTaskReport(taskId: string): ReportDto {
  const id = checkedRequest<string>(TASK_ID, taskId, 'task id');
  const r = research();
  const entry = r.deps.ledger
    .load()
    .filter((e) => e.taskId === id)
    .sort((a, b) => b.launchedAt - a.launchedAt)[0];
  if (entry && !isPending(entry)) return entryReport(r, entry, entry.detached ? null : entry.row.rowHint);
  const result = r.deps.client.getTasks([id])[0];
  if (!result.ok) return { ...NO_REPORT, message: userMessage(result.error) };
  const task = result.value;
  return {
    found: true,
    message: null,
    row: null,
    taskId: task.id,
    status: task.status === 'done' ? `Done (${taskCost('done', task.agents)} credits)` : task.status,
    brief: task.brief,
    report: task.report ?? null,
    error: task.failure_reason ?? null,
    detached: false,
  };
}

/** What "Write to selected row" answers: done, refused, or a question the user answers by sending the request again. */
export interface WriteToRowResponse {
  ok: boolean;
  message: string;
  /** Asked before writing: the task is about another company than the row, or has the other kind of output. */
  ask: { kind: 'company' | 'output'; question: string; confirm: string } | null;
}

export interface WriteToRowRequest {
  taskId: string;
  output: LaunchRequest['output'];
  /** The user confirmed writing a task about another company into this row. */
  otherCompany?: boolean;
  /** The user accepted writing the task's own kind of output (its fields, or its report) instead of the panel's. */
  taskOutput?: boolean;
}

/** The output a task can be written with when the panel's output is of the other kind. */
function taskOutputRequest(task: ResearchTask, statusHeader: string): LaunchRequest['output'] {
  return task.report?.kind === 'schema'
    ? { kind: 'fields', statusHeader, schemaText: JSON.stringify(task.output_schema ?? { type: 'object' }) }
    : { kind: 'report', statusHeader, reportHeader: 'Research report', sourcesHeader: 'Research sources' };
}

/** Company names for domains, from lookups (0 credits); a domain the service cannot name stays a domain. */
function companyNames(r: Research, domains: string[]): Map<string, string> {
  const names = new Map(domains.map((domain) => [domain, domain]));
  r.context
    .userClient()
    .lookupCompanies(domains)
    .forEach((result, i) => {
      if (result.ok && result.value.state === 'ready' && result.value.profile.company_name)
        names.set(domains[i], result.value.profile.company_name);
    });
  return names;
}

/**
 * "Write to selected row": imports a finished task's report or fields into the active row. Asks first when the task
 * is about another company than the row holds (naming both), or when its output is of the other kind than the
 * panel's (offering to write the task's own).
 */
export function writeTaskToSelectedRow(request: WriteToRowRequest): WriteToRowResponse {
  const refuse = (message: string): WriteToRowResponse => ({ ok: false, message, ask: null });
  const problem = requestProblem(WRITE_TO_ROW_REQUEST, request, 'request');
  if (problem) return refuse(unreadableRequest(problem));
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const row = spreadsheet.getActiveCell().getRow();
  if (row < 2) return refuse('Select a data row (below the header row)');
  const r = research();
  const result = r.deps.client.getTasks([request.taskId])[0];
  if (!result.ok) return refuse(userMessage(result.error));
  const task = result.value;
  const report = task.report;
  if (task.status !== 'done' || !report)
    return refuse(`This task is ${task.status.replace('_', ' ')}: only finished tasks can be written`);
  let outputRequest = request.output;
  if ((report.kind === 'markdown') !== (outputRequest.kind === 'report')) {
    const fields = report.kind === 'schema' ? Object.keys(report.fields) : [];
    if (!request.taskOutput) {
      const question =
        report.kind === 'schema'
          ? `This task has ${fields.length} field${fields.length === 1 ? '' : 's'} (${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ', …' : ''}). Write them into columns of those names?`
          : 'This task has a markdown report. Write it into the "Research report" and "Research sources" columns?';
      return {
        ok: false,
        message: question,
        ask: { kind: 'output', question, confirm: report.kind === 'schema' ? 'Write the fields' : 'Write the report' },
      };
    }
    outputRequest = taskOutputRequest(task, outputRequest.statusHeader);
  }
  const output = resolveOutput(outputRequest, jsonSchemaProblems);
  if (!output.ok) return refuse(output.errors[0]);
  const mismatch = companyMismatch(task.brief, r.deps.grid.readRows(sheet.getSheetId(), [row])[0] ?? []);
  const domains = mismatch ? [mismatch.taskDomain, mismatch.rowDomain] : domainsIn(task.brief).slice(0, 1);
  const names = domains.length > 0 ? companyNames(r, domains) : new Map<string, string>();
  if (mismatch && !request.otherCompany) {
    const question = `This task is about ${names.get(mismatch.taskDomain)} (${mismatch.taskDomain}), but row ${row} holds ${names.get(mismatch.rowDomain)} (${mismatch.rowDomain}). Write it into row ${row} anyway?`;
    return { ok: false, message: question, ask: { kind: 'company', question, confirm: 'Write anyway' } };
  }
  const rowName = mismatch ? names.get(mismatch.rowDomain) : domains[0] ? names.get(domains[0]) : null;
  const written = importTaskIntoRow(r, task, report, output, sheet.getSheetId(), row);
  return written.ok
    ? {
        ok: true,
        message: `Wrote the ${report.kind === 'schema' ? 'fields' : 'report'} into row ${row}${rowName ? ` (${rowName})` : ''}`,
        ask: null,
      }
    : refuse(written.message);
}

/** Writes a finished task into `row` under the document lock, superseding the row's earlier records. */
function importTaskIntoRow(
  r: Research,
  task: ResearchTask,
  report: TaskReport,
  output: Extract<ReturnType<typeof resolveOutput>, { ok: true }>,
  sheetId: number,
  row: number,
): { ok: boolean; message: string } {
  return withLock<{ ok: boolean; message: string }>(
    r,
    30000,
    () => ({ ok: false, message: BUSY_MESSAGE }),
    () => {
      r.deps.grid.ensureHeaders(sheetId, output.headers);
      r.deps.ledger.load();
      // Earlier records of this row are superseded, so a later poll does not overwrite the imported result.
      const current = r.deps.ledger.all().filter((e) => e.row.sheetId === sheetId && !e.detached);
      const located = locateEntries(r.deps.grid, sheetId, current);
      const superseded = current
        .filter((e) => located.get(e.id) === row)
        .map((e) => ({ ...e, detached: true, written: true }));
      const rowId =
        r.deps.grid
          .tagRows(sheetId, [row], () => newTagId(r.deps.newId, new Set(r.deps.grid.rowIds(sheetId).keys())))
          .get(row) ?? null;
      const now = r.context.clock.now();
      const entry: LedgerEntry = {
        id: r.deps.newId(),
        taskId: task.id,
        state: 'done',
        row: { sheetId, rowId, rowHint: row, keyHeaders: [], keyValues: [] },
        brief: task.brief,
        depth: task.depth,
        schema: task.output_schema ?? null,
        mapping: output.mapping,
        iterations: task.iterations,
        agents: task.agents,
        sources: task.sources,
        cost: taskCost('done', task.agents),
        error: null,
        degradation: report.degradation_reasons ?? [],
        launchedAt: now,
        sentAt: null,
        updatedAt: now,
        finishedAt: now,
        written: false,
        shownStatus: '',
        detached: false,
      };
      r.deps.reports.putAll([{ taskId: task.id, report }]);
      r.deps.ledger.save([...superseded, entry]);
      r.deps.ledger.save(writeRows(r.deps, [entry].filter(rowNeedsWrite), new Map([[task.id, report]])));
      releaseRowTags(r.deps, [sheetId]);
      return { ok: true, message: '' };
    },
  );
}
