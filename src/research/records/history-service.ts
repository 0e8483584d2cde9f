// What the panel shows of past research: the account's task history a page at a time, and the report of a row or a
// task (from this document's store when it has it, so a deleted or changed row keeps its report; else from the
// service).
import { researchContext, type Research } from '../context';
import { NO_REPORT, type HistoryItemDto, type HistoryPageDto, type ReportDto } from '../contract';
import { clip, userMessage } from '../../api/errors';
import type { ResearchTask } from '../../api/types';
import { taskCost } from '../spending/depth';
import { locateEntries } from '../rows/write-back';
import { isPending, statusText, type LedgerEntry } from './ledger';
import { appContext } from '../../platform/app-context';
import { activeSpreadsheet } from '../../platform/spreadsheet';

const HISTORY_PAGE = 20;

function historyItem(task: ResearchTask): HistoryItemDto {
  return {
    id: task.id,
    status: task.status,
    depth: task.depth,
    brief: clip(task.brief, 300),
    createdAt: task.created_at,
    iterations: task.iterations,
    agents: task.agents,
    sources: task.sources,
    cost: taskCost(task.status, task.agents),
    failureReason: task.failure_reason ? clip(task.failure_reason, 500) : null,
    kind: task.report ? task.report.kind : task.output_schema ? 'schema' : null,
  };
}

/** Every task of the account, newest first, a page at a time (including tasks started elsewhere). */
export function historyPage(index: number): HistoryPageDto {
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

/** The report of the active row's latest research. */
export function selectedRowReport(): ReportDto {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const row = spreadsheet.getActiveCell().getRow();
  if (row < 2) return { ...NO_REPORT, message: 'Select a data row to see its report' };
  const r = researchContext();
  const sheetId = sheet.getSheetId();
  const candidates = r.deps.ledger.load().filter((e) => e.row.sheetId === sheetId && !e.detached);
  const rows = locateEntries(r.deps.grid, sheetId, candidates);
  const entry = candidates.filter((e) => rows.get(e.id)?.includes(row)).sort((a, b) => b.launchedAt - a.launchedAt)[0];
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
export function taskReport(id: string): ReportDto {
  const r = researchContext();
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
