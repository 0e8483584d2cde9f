// Scheduled refresh ("Refresh data older than N days, every week on <day> / every month"): the schedules of the
// document's sheets (in its properties, one small record per sheet), when each runs next, and the run itself in the
// shared timer's slices with every panel closed: the same refresh as the panel's (only changed cells, each with its
// note, the user's edits kept, the right rows after sorts), chunk by chunk across ticks until the sheet's stale
// domains are done, then a summary for the panel and the next run. A run starts at the first hourly tick after its
// hour (06:00 unless the user chose another). A run that cannot reach the service keeps its place and what it did,
// says since when, and tries again at every tick until the service answers. A scheduled refresh takes at most a
// quarter of the day's request budget (the user's own work keeps the rest) and the timer's share of trigger runtime.
// Pure: the refresh, the timer and the spreadsheet's calendar are ports.
import type { KeyValueStore } from '../../ports';
import { readChunkedList, writeChunkedList } from '../../shared/storage/chunked-store';
import type { RefreshChunkResult, RefreshScheduleDto, ScheduleSummary } from '../contract';

const SCHEDULES_KEY = 'sheetscout.refresh.schedules';
/** The share of the day's request budget a scheduled refresh may use. */
export const SCHEDULE_REQUEST_SHARE = 0.25;
/** Scheduled runs start at this hour of the spreadsheet's day unless the user chose another. */
export const SCHEDULE_HOUR = 6;
/** Domains a run skips after the service did not answer them: the latest, up to this many characters in the record. */
const SKIP_MAX_CHARS = 4000;
const HOUR_MS = 3_600_000;

export type Cadence = 'weekly' | 'monthly';

export interface RefreshSchedule {
  sheetId: number;
  sheetName: string;
  /** Refresh data older than this many days. */
  days: number;
  cadence: Cadence;
  /** 0 = Sunday ... 6 = Saturday (weekly). */
  weekday: number;
  /** The hour of the spreadsheet's day the run starts after (absent in schedules of earlier versions: 06:00). */
  hour?: number;
  nextRunAt: number;
  /**
   * The run under way (across ticks), with what it found so far; `unreachableSince`: when its lookups stopped
   * reaching the service (it tries again at every tick).
   */
  run: (ScheduleSummary & { skip: string[]; unreachableSince?: number }) | null;
  lastRun: ScheduleSummary | null;
}

/** The spreadsheet's calendar at an instant: weekday (0 = Sunday), day of the month, hour. */
export interface LocalTime {
  weekday: number;
  monthDay: number;
  hour: number;
}

/** The document's schedules, kept as one chunked document (any number of sheets stays within 9 KB per value). */
export function readSchedules(store: KeyValueStore): RefreshSchedule[] {
  return readChunkedList<RefreshSchedule>(store, SCHEDULES_KEY);
}

export function writeSchedules(store: KeyValueStore, schedules: RefreshSchedule[]): void {
  writeChunkedList(store, SCHEDULES_KEY, schedules);
}

/**
 * The next run after `now`: the first whole hour of the chosen hour (SCHEDULE_HOUR unless chosen) of the chosen
 * weekday (weekly) or of the 1st of a month (monthly), in the spreadsheet's calendar (`local`), found hour by hour
 * (at most a month and a day ahead).
 */
export function nextRun(
  schedule: Pick<RefreshSchedule, 'cadence' | 'weekday' | 'hour'>,
  now: number,
  local: (ms: number) => LocalTime,
): number {
  const hour = schedule.hour ?? SCHEDULE_HOUR;
  let at = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  for (let hours = 0; hours < 32 * 24; hours++, at += HOUR_MS) {
    const time = local(at);
    if (time.hour !== hour) continue;
    if (schedule.cadence === 'weekly' ? time.weekday === schedule.weekday : time.monthDay === 1) return at;
  }
  return now + 7 * 24 * HOUR_MS;
}

const emptySummary = (at: number): ScheduleSummary => ({
  at,
  checked: 0,
  changedRows: 0,
  changedCells: 0,
  keptEdits: 0,
  notFound: 0,
  problem: null,
});

/** What the panel shows of a sheet's schedule. */
export function scheduleDto(schedule: RefreshSchedule | undefined): RefreshScheduleDto | null {
  if (!schedule) return null;
  return {
    days: schedule.days,
    cadence: schedule.cadence,
    weekday: schedule.weekday,
    hour: schedule.hour ?? SCHEDULE_HOUR,
    nextRunAt: schedule.run ? null : schedule.nextRunAt,
    running: schedule.run !== null,
    unreachableSince: schedule.run?.unreachableSince ?? null,
    lastRun: schedule.lastRun,
    requestShare: SCHEDULE_REQUEST_SHARE,
  };
}

/** The ports of a scheduled run. */
export interface ScheduleRunDeps {
  store: KeyValueStore;
  now: () => number;
  local: (ms: number) => LocalTime;
  /** Requests left for scheduled refreshes today: the share of the day's budget, less what the day used beyond it. */
  requestsLeft: () => number;
  /** One refresh chunk of the sheet within `budgetMs` and `maxDomains` lookups, skipping `skip`. */
  refreshChunk: (
    sheetId: number,
    days: number,
    skip: string[],
    budgetMs: number,
    maxDomains: number,
  ) => RefreshChunkResult;
  /** Counts lookups a scheduled run sent against its share of today. */
  spent: (requests: number) => void;
  /** Whether a chunk's refusal is a passing one (busy, an enrichment running): the run waits for the next tick. */
  isPassing: (message: string) => boolean;
}

/**
 * The timer's slice: runs the schedules that are due (or under way), chunk by chunk, within `budgetMs` and the day's
 * request share; a run that finishes (or cannot run: its sheet gone) gets its summary and its next time; a run whose
 * lookups did not reach the service keeps its place for the next tick. Pending while any schedule exists (the timer
 * stays to wake it), next due at the earliest schedule's time (now while a run is under way).
 */
export function runSchedules(deps: ScheduleRunDeps, budgetMs: number): { pending: boolean; wakeAt?: number } {
  const schedules = readSchedules(deps.store);
  if (schedules.length === 0) return { pending: false };
  const deadline = deps.now() + budgetMs;
  let changed = false;
  for (const schedule of schedules) {
    if (!schedule.run && deps.now() < schedule.nextRunAt) continue;
    schedule.run ??= { ...emptySummary(deps.now()), skip: [] };
    changed = true;
    for (let left = deps.requestsLeft(); deps.now() < deadline && left > 0; left = deps.requestsLeft()) {
      const budget = deadline - deps.now();
      const result = deps.refreshChunk(schedule.sheetId, schedule.days, schedule.run.skip, budget, left);
      if (!result.ok) {
        if (deps.isPassing(result.message)) break;
        finish(deps, schedule, result.message);
        break;
      }
      addChunk(schedule.run, result);
      deps.spent(result.requests);
      if (result.unreachable > 0) {
        schedule.run.unreachableSince ??= deps.now();
        break;
      }
      delete schedule.run.unreachableSince;
      if (result.remaining === 0) {
        finish(deps, schedule, null);
        break;
      }
    }
  }
  if (changed) writeSchedules(deps.store, schedules);
  return { pending: true, wakeAt: schedulesWake(schedules) ?? undefined };
}

/** When the schedules next need the timer: the earliest next run, or null (now) while a run is under way. */
export function schedulesWake(schedules: RefreshSchedule[]): number | null {
  if (schedules.some((schedule) => schedule.run)) return null;
  return Math.min(...schedules.map((schedule) => schedule.nextRunAt));
}

function addChunk(run: ScheduleSummary & { skip: string[] }, chunk: Extract<RefreshChunkResult, { ok: true }>): void {
  // The rows left alone as the run's first chunk found them (later chunks see the same rows, fewer stale).
  run.freshRows ??= chunk.freshRows;
  run.freshDueAt ??= chunk.freshDueAt;
  run.checked += chunk.checked;
  run.changedRows += chunk.changedRows;
  run.changedCells += chunk.changedCells;
  run.keptEdits += chunk.keptEdits;
  run.notFound += chunk.notFound;
  const skip = [...run.skip, ...chunk.retryLater];
  let chars = 0;
  let from = skip.length;
  while (from > 0 && chars + skip[from - 1].length + 3 <= SKIP_MAX_CHARS) chars += skip[--from].length + 3;
  run.skip = skip.slice(from);
}

function finish(deps: ScheduleRunDeps, schedule: RefreshSchedule, problem: string | null): void {
  const run = schedule.run ?? { ...emptySummary(deps.now()), skip: [] };
  schedule.lastRun = {
    at: deps.now(),
    checked: run.checked,
    changedRows: run.changedRows,
    changedCells: run.changedCells,
    keptEdits: run.keptEdits,
    notFound: run.notFound,
    problem,
    freshRows: run.freshRows ?? 0,
    freshDueAt: run.freshDueAt ?? null,
  };
  schedule.run = null;
  schedule.nextRunAt = nextRun(schedule, deps.now(), deps.local);
}
