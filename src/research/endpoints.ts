// Server functions of the Research panel (google.script.run) and its menu handler: each checks the request's shape
// and calls the service that does the work (launch-service, status-service, history-service, row-import, selection,
// guard-service, watch-service). The timer's polling is timer-slice.ts, its watch runs watch-service.ts.
import { researchContext } from './context';
import type {
  HistoryPageDto,
  LaunchResponse,
  QuestionCountDto,
  QuestionCountRequest,
  ReportDto,
  ResearchContextDto,
  ResearchStatusDto,
  SpendingGuardAnswer,
  SpendingGuardDto,
  UnconfirmedActionResponse,
  WatchAction,
  WatchAnswer,
  WatchRequest,
  WriteToRowRequest,
  WriteToRowResponse,
} from './contract';
import { checkedRequest, requestProblem, unreadableRequest } from '../shared/request-check';
import {
  ENTRY_IDS,
  GUARD_REQUEST,
  LAUNCH_REQUEST,
  PAGE_INDEX,
  QUESTION_COUNT_REQUEST,
  SHOW_ROWS_REQUEST,
  TASK_ID,
  WATCH_ACTION,
  WATCH_REQUEST,
  WRITE_TO_ROW_REQUEST,
} from './requests';
import { changeWatch, getWatch, saveWatch } from './watch/watch-service';
import { askYesNo, spreadsheetTimeZone, toast } from '../platform/spreadsheet';
import { showPanel } from '../platform/panels';
import { changeSpendingGuard, guardDto } from './spending/guard-service';
import { panelContext, questionCount, selectStatusCells } from './launch/selection';
import { launchRows, refusedLaunch, type LaunchRowsRequest } from './launch/launch-service';
import { checkUnconfirmed, pollStatus, sendAnyway, tickPanel } from './polling/status-service';
import { historyPage, selectedRowReport, taskReport } from './records/history-service';
import { writeTaskToRow } from './rows/row-import';

/** Menu: Extensions > Sheet Scout > Research selected rows... */
export function showResearchPanel(): void {
  showPanel('Research', 'Sheet Scout research');
}

/** Settings: this spreadsheet's research spending cap and what is left under it. */
export function getSpendingGuard(): SpendingGuardDto {
  return guardDto(researchContext());
}

/** Settings: sets (or clears, with nulls) the cap; only the user who shares their token with the spreadsheet may. */
export function setSpendingGuard(input: { daily: number | null; monthly: number | null }): SpendingGuardAnswer {
  return changeSpendingGuard(researchContext(), checkedRequest(GUARD_REQUEST, input, 'spending cap'));
}

/** The active sheet's headers, the selected rows and the panel's saved settings. */
export function getResearchContext(): ResearchContextDto {
  return panelContext();
}

/** Launches research for the given rows of the given sheet (the panel sends what it previewed). */
export function launchResearch(request: LaunchRowsRequest): LaunchResponse {
  const problem = requestProblem(LAUNCH_REQUEST, request, 'launch');
  return problem ? refusedLaunch([unreadableRequest(problem)]) : launchRows(request);
}

/** How many distinct questions the selected rows ask with the template typed (one task each), before a launch. */
export function countResearchQuestions(request: QuestionCountRequest): QuestionCountDto {
  return questionCount(checkedRequest<QuestionCountRequest>(QUESTION_COUNT_REQUEST, request, 'rows'));
}

/** "Show in sheet" after a launch: selects the status cells of the launched rows. */
export function showResearchRows(request: { sheetId: number; rows: number[]; statusHeader: string }): {
  ok: boolean;
  message: string;
} {
  const problem = requestProblem(SHOW_ROWS_REQUEST, request, 'rows');
  return problem ? { ok: false, message: unreadableRequest(problem) } : selectStatusCells(request);
}

/** "Check again": looks for unconfirmed creates in the service's task list once more. */
export function checkUnconfirmedResearch(entryIds: string[]): UnconfirmedActionResponse {
  const problem = requestProblem(ENTRY_IDS, entryIds, 'rows');
  return problem ? { ok: false, message: unreadableRequest(problem) } : checkUnconfirmed(entryIds);
}

/** "Send anyway": creates the unconfirmed tasks again, on the user's word. */
export function sendUnconfirmedResearchAnyway(entryIds: string[]): UnconfirmedActionResponse {
  const problem = requestProblem(ENTRY_IDS, entryIds, 'rows');
  return problem ? { ok: false, message: unreadableRequest(problem) } : sendAnyway(entryIds);
}

/** The panel's poll: the sheet's records, and whether a tick is due (never waits for the service). */
export function pollResearch(): ResearchStatusDto {
  return pollStatus();
}

/** The panel's tick, when its poll said one is due: asks the service about pending tasks, writes what finished. */
export function tickResearch(): ResearchStatusDto {
  return tickPanel();
}

/** Every task of the account, newest first, a page at a time. */
export function listResearchHistory(page: number): HistoryPageDto {
  return historyPage(checkedRequest<number>(PAGE_INDEX, page, 'page'));
}

/** The active sheet's account watch. */
export function getResearchWatch(): WatchAnswer {
  return getWatch();
}

/** Watches the selected rows: the first answer is the cost to confirm; once confirmed, the watch is saved. */
export function saveResearchWatch(request: WatchRequest): WatchAnswer {
  const problem = requestProblem(WATCH_REQUEST, request, 'request');
  return problem
    ? { ok: false, message: unreadableRequest(problem), confirm: null, watch: null, timeZone: spreadsheetTimeZone() }
    : saveWatch(request);
}

/** Pauses, resumes or stops the active sheet's watch. */
export function changeResearchWatch(action: WatchAction): WatchAnswer {
  return changeWatch(checkedRequest<WatchAction>(WATCH_ACTION, action, 'action'));
}

/** Menu: Account watch > Pause all watches (of this spreadsheet). */
export function pauseAccountWatches(): void {
  toast(changeWatch('pause', null).message);
}

/** Menu: Account watch > Resume all watches. */
export function resumeAccountWatches(): void {
  toast(changeWatch('resume', null).message);
}

/** Menu: Account watch > Stop all watches... (asks first: a stopped watch is gone, a paused one can resume). */
export function stopAccountWatches(): void {
  const prompt =
    'Stop every account watch of this spreadsheet? Their Signals and values stay in the rows; no run starts again. ' +
    'To stop them for a while only, use Pause all watches.';
  if (askYesNo('Stop all watches', prompt)) toast(changeWatch('stop', null).message);
}

/** The report of the active row's latest research. */
export function getSelectedRowReport(): ReportDto {
  return selectedRowReport();
}

/** The report of any task. */
export function getTaskReport(taskId: string): ReportDto {
  return taskReport(checkedRequest<string>(TASK_ID, taskId, 'task id'));
}

/** "Write to selected row": imports a finished task's report or fields into the active row, asking first if needed. */
export function writeTaskToSelectedRow(request: WriteToRowRequest): WriteToRowResponse {
  const problem = requestProblem(WRITE_TO_ROW_REQUEST, request, 'request');
  return problem ? { ok: false, message: unreadableRequest(problem), ask: null } : writeTaskToRow(request);
}
