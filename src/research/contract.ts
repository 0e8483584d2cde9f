// What the Research panel and the server exchange, and the pure checks both run (sidebar/ imports only this file and
// src/api/types from src/): the panel's DTOs, the brief template, depths and their cost, the output fields, and how a
// launch's output is resolved.
import type { TaskDepth, TaskReport } from '../api/types';
import type { GuardRoom, LaunchQuestion } from './spending/spending-guard';
import type { LaunchRequest } from './launch/launch-request';
import type { DamagedRecord } from './records/ledger';
import type { BudgetStatus } from '../platform/request-budget';

export type { LaunchRequest } from './launch/launch-request';
export { briefLength, outputClashes, parseTemplate, renderBrief, BRIEF_MAX_LENGTH } from './brief/brief-template';
export {
  counted,
  DEPTHS,
  depthDetail,
  depthLabel,
  estimateCredits,
  estimateMessage,
  reservationFor,
} from './spending/depth';
export type { LaunchQuestion } from './spending/spending-guard';
export {
  FIELD_TYPES,
  isEvidenced,
  parsePastedSchema,
  schemaFields,
  type FieldSpec,
  type FieldType,
} from './brief/output-schema';
export {
  resolveOutput,
  DEFAULT_REUSE_DAYS,
  REUSE_PERIODS_DAYS,
  type OutputRequest,
  type ReuseChoice,
} from './launch/launch-request';

/** The report the panel shows for a row or a task. */
export interface ReportDto {
  found: boolean;
  message: string | null;
  row: number | null;
  taskId: string | null;
  status: string | null;
  brief: string | null;
  report: TaskReport | null;
  error: string | null;
  detached: boolean;
}

/** A report answer that found nothing (the panel's fallback too). */
export const NO_REPORT: ReportDto = {
  found: false,
  message: null,
  row: null,
  taskId: null,
  status: null,
  brief: null,
  report: null,
  error: null,
  detached: false,
};

/** The spending guard as the panels show it. */
export interface SpendingGuardDto extends GuardRoom {
  /** The Sheet Scout account that set the cap, the only one that may raise or remove it (null: no cap, or no owner). */
  owner: string | null;
  /** Who set the cap and when, and who may change it how. */
  editNote: string | null;
}

export interface ResearchContextDto {
  sheetId: number;
  sheetName: string;
  headers: string[];
  /** Selected data rows (row 1 is the header row). */
  rows: number[];
  /** Selected rows with no value at all: a launch skips them (empty brief), so the cost leaves them out. */
  blankRows: number[];
  /** Display values of the first selected row, for the live preview, and the registered domain each cell holds. */
  firstRow: string[] | null;
  firstRowDomains: Array<string | null> | null;
  /** The panel's last launch settings in this spreadsheet. */
  saved: Omit<LaunchRequest, 'rerun' | 'again' | 'replacing'> | null;
  reservations: Record<string, number>;
  /** This spreadsheet's research spending cap and what is left under it. */
  guard: SpendingGuardDto;
}

/**
 * What the panel asks before a launch: how many distinct questions its selected rows ask with this template, and, with
 * the depth, the output and a period, how many of those questions this spreadsheet already bought within the period.
 */
export interface QuestionCountRequest {
  sheetId: number;
  rows: number[];
  template: string;
  depth?: TaskDepth;
  output?: LaunchRequest['output'];
  /** One of REUSE_PERIODS_DAYS. */
  days?: number;
}

/**
 * Earlier results a launch of these rows can use instead of paying (launch/reuse.ts): `rows` of the asking rows ask
 * `questions` questions this spreadsheet bought within the last `days` days (finished, their records and reports kept
 * and sealed); `oldest` is when the oldest of those was researched (epoch ms).
 */
export interface ReuseOffer {
  days: number;
  rows: number;
  questions: number;
  oldest: number | null;
}

/**
 * The selected rows' questions: `asking` rows render a brief (the others are blank or too long), `questions` distinct
 * briefs among them (one task each), and what of them was researched earlier (null when the request named no period,
 * or its output cannot be read); null when the template cannot be read against the sheet.
 */
export type QuestionCountDto = { asking: number; questions: number; reusable: ReuseOffer | null } | null;

export interface LaunchResponse {
  ok: boolean;
  message: string;
  errors: string[];
  created: number;
  queued: number;
  /** Rows the launched tasks are for (rows asking the same question share one task). */
  rows: number;
  /** Rows given an earlier result of the same question (0 credits), as the user chose; the tasks' rows not counted. */
  reused: number;
  skippedEmpty: number[];
  skippedRunning: number[];
  /**
   * Rows that already hold a finished task's result, with when it finished (epoch ms): nothing was spent on them; the
   * panel asks, with the cost, before it researches them again (`again`).
   */
  skippedDone: Array<{ row: number; finishedAt: number }>;
  /**
   * Rows a re-run left alone because research another account launched runs there, with that account (null: Sheet
   * Scout cannot tell whose it is): the panel asks, naming it, before it re-runs them (`replacing`).
   */
  othersRunning: Array<{ row: number; launchedBy: string | null }>;
  /**
   * The one question about `skippedDone` and `othersRunning`: the rows answering yes launches (those the spending cap
   * and the account's credits leave room for now, in sheet order) and what each reserves; null when none is asked.
   */
  question: LaunchQuestion | null;
  tooLong: Array<{ row: number; length: number }>;
  /** Rows left out because the spending cap had no room (only when the user asked to launch what fits). */
  overCap: number[];
  failed: Array<{ row: number; message: string }>;
}

/** What "Check again" or "Send anyway" did to unconfirmed creates. */
export interface UnconfirmedActionResponse {
  ok: boolean;
  message: string;
}

export interface ResearchRowDto {
  entryId: string;
  taskId: string | null;
  /** Current row (the first of them), or null when no row can be trusted with the result any more. */
  row: number | null;
  /** Every row that asks this record's question now (one task, its result written to each). */
  rows: number[];
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

/**
 * Days a finished research record stays in the spreadsheet (its hidden records, and the panel's list of the sheet)
 * after it closed; the service keeps the task, and the cells it wrote stay.
 */
export const FINISHED_KEPT_DAYS = 35;

export interface ResearchStatusDto {
  pending: number;
  /** Records of the active sheet, newest first (at most 50). */
  rows: ResearchRowDto[];
  /** Another execution held the lock: the numbers are from the ledger as it was. */
  busy: boolean;
  /** No tick ran lately (a poll's answer): the panel asks for one (tickResearch), whose answer follows. */
  tickDue: boolean;
  /** Seconds since the service was last asked about this document's tasks, if known. */
  checkedSecondsAgo: number | null;
  /**
   * The acting user's daily request budget ("Requests today: N of M"), with its warning when nearly spent; null when
   * this poll did not tick (the panel keeps what it last showed).
   */
  requests: BudgetStatus | null;
  /**
   * The timer that collects results while the panels are closed, as this poll's tick found it: `problem` says why
   * none could be set up (research then continues only while a panel is open); null when this poll did not tick.
   */
  timer: { problem: string | null } | null;
  /**
   * What stopped in the timer's runs of this spreadsheet and why (a part that failed, paid work not started because
   * collecting failed first), one line each, until that part runs through again.
   */
  timerStopped: string[];
  /**
   * Ledger rows Sheet Scout does not act on (changed outside it, or unreadable): kept in the hidden ledger sheet as
   * they are, and shown to the user.
   */
  damaged: DamagedRecord[];
  /** Records of this spreadsheet's runs (last 90 days) the ledger lost: deleted or changed outside Sheet Scout. */
  lost: number;
  /** When the document's watches were last saved, paused, resumed or stopped (from any panel or the menu), or null. */
  watchesChangedAt: number | null;
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

/** The answer to a cap change: the guard as it now is, and why the change was refused (nothing changed then). */
export type SpendingGuardAnswer = { guard: SpendingGuardDto } & ({ ok: true } | { ok: false; message: string });

/** Account watch: rows researched again on a schedule, each run's changes written as a "Signals" cell per row. */
export type WatchCadence = 'weekly' | 'monthly';
export type WatchAction = 'pause' | 'resume' | 'stop';

/** What the panel sends to watch the selected rows (a fields output: the fields are what the signals compare). */
export interface WatchRequest {
  sheetId: number;
  rows: number[];
  template: string;
  depth: TaskDepth;
  output: LaunchRequest['output'];
  cadence: WatchCadence;
  /** 0 = Sunday ... 6 = Saturday (weekly). */
  weekday: number;
  /** The most a run costs as the panel showed it and the user confirmed; null asks for that figure first. */
  confirmedCreditsPerRun: number | null;
}

export interface WatchDto {
  sheetId: number;
  sheetName: string;
  rows: number;
  cadence: WatchCadence;
  weekday: number;
  status: 'active' | 'paused';
  /** When the next run starts (epoch ms), null while paused. */
  nextRunAt: number | null;
  /** The most one run and one month of runs can cost (every row at the depth's full reservation). */
  creditsPerRun: number;
  creditsPerMonth: number;
  signalsHeader: string;
  /** The last run: when, and what it did or why it did not start ("Not started: ..."). */
  lastRun: { at: number; text: string } | null;
  /** Since when the due run has been waiting for the service to answer (epoch ms; it tries again hourly), or null. */
  unreachableSince: number | null;
  /**
   * Why no run can start as things stand (the spending cap below a run, its payer's credits, their token removed),
   * with the figures; null when nothing stands in its way.
   */
  blocked: string | null;
}

export interface WatchAnswer {
  ok: boolean;
  /** What happened, or why not (shown as it is). */
  message: string;
  /** The cost to confirm before the watch is saved (the answer to a request without `confirmedCreditsPerRun`). */
  confirm: { rows: number; creditsPerRun: number; creditsPerMonth: number } | null;
  /** The active sheet's watch, if any. */
  watch: WatchDto | null;
  /** The spreadsheet's time zone (runs start after 06:00 in it, within the hour). */
  timeZone: string;
}
