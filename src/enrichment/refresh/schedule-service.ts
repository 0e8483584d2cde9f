// Scheduled refresh as the add-in runs it (schedule.ts holds the rules): the Enrich panel's schedule of the active
// sheet (read, set, stopped) with what runs it (this user's timer, another editor's, or why none can: a schedule no
// timer can run with the panels closed is not saved), and the shared timer's slice that runs the due ones with the
// document's refresh, the spreadsheet's calendar and a quarter of the day's request budget.
import { noteDocumentChanged } from '../../scheduler/changes';
import { refreshContext } from '../context';
import { runRefreshChunk } from './refresh';
import { chosenFields } from '../job/sheet-choices';
import {
  nextRun,
  readSchedules,
  runSchedules,
  scheduleDto,
  SCHEDULE_HOUR,
  SCHEDULE_REQUEST_SHARE,
  schedulesWake,
  writeSchedules,
  type LocalTime,
  type RefreshSchedule,
} from './schedule';
import type { RefreshScheduleAnswer, RefreshScheduleRequest } from '../contract';
import type { RefreshDeps } from './refresh';
import type { EnrichDeps } from '../ports';
import type { KeyValueStore, SizedStore } from '../../ports';
import { budgetProblem, FEATURE_BUDGETS, VALUE_OVERHEAD_BYTES } from '../../shared/property-budget';
import { utf8Bytes } from '../../shared/storage/chunked-store';
import { formatInSpreadsheetZone, spreadsheetTimeZone } from '../../platform/spreadsheet';
import {
  isPending,
  removeTimerIfIdle,
  reserveTimer,
  servedByOtherEditor,
  wakeTimerAt,
  type TimerDeps,
} from '../../scheduler/timer';
import { BUSY_MESSAGE } from '../../shared/busy';

/** Lookups scheduled refreshes sent today (the spreadsheet's day): {day, count}. */
const SCHEDULE_REQUESTS_KEY = 'sheetscout.refresh.requests';
const ENRICHMENT_RUNNING = /^An enrichment is running/;

/** The spreadsheet's calendar at an instant (Utilities.formatDate: u = 1 Monday ... 7 Sunday). */
export function localTime(ms: number): LocalTime {
  const [weekday, monthDay, hour] = formatInSpreadsheetZone(ms, 'u d H').split(' ').map(Number);
  return { weekday: weekday % 7, monthDay, hour };
}

const today = (ms: number) => formatInSpreadsheetZone(ms, 'yyyy-MM-dd');

function sentToday(store: KeyValueStore, now: number): number {
  try {
    const record = JSON.parse(store.get(SCHEDULE_REQUESTS_KEY) ?? 'null') as { day: string; count: number } | null;
    return record && record.day === today(now) ? record.count : 0;
  } catch {
    return 0;
  }
}

/** Requests left for scheduled refreshes now: their share of today's budget, within what the day has left at all. */
function requestsLeft(deps: RefreshDeps & Pick<EnrichDeps, 'requests'>): number {
  const status = deps.requests();
  const share = Math.floor(status.limit * SCHEDULE_REQUEST_SHARE) - sentToday(deps.store, deps.clock.now());
  return Math.max(0, Math.min(share, status.limit - status.used));
}

/** The shared timer's slice: the due scheduled refreshes of this document. */
export function refreshTimerSlice(budgetMs: number): { pending: boolean; wakeAt?: number } {
  const deps = refreshContext();
  return runSchedules(
    {
      store: deps.store,
      now: () => deps.clock.now(),
      local: localTime,
      requestsLeft: () => requestsLeft(deps),
      refreshChunk: (sheetId, days, skip, chunkBudgetMs, maxDomains) =>
        runRefreshChunk(deps, { days, skip }, chunkBudgetMs, sheetId, maxDomains),
      spent: (requests) => {
        const now = deps.clock.now();
        deps.store.set(
          SCHEDULE_REQUESTS_KEY,
          JSON.stringify({ day: today(now), count: sentToday(deps.store, now) + requests }),
        );
      },
      isPassing: (message) => message === BUSY_MESSAGE || ENRICHMENT_RUNNING.test(message),
    },
    budgetMs,
  );
}

const OTHER_EDITOR_TIMER =
  "Runs on the timer another editor's Sheet Scout keeps in this spreadsheet (their lookups, 0 credits).";

/**
 * Makes sure a timer runs the document's schedules: null when this user's runs them; what the panel says otherwise
 * (another editor's runs them; or why none can, `refuse` when none can with the panels closed).
 */
function scheduleTimer(timer: TimerDeps): { note: string | null; refuse: boolean } {
  const problem = reserveTimer(timer, 'refresh');
  if (problem?.closedPanelsOnly) return { note: problem.message, refuse: true };
  if (problem) return { note: `${problem.message} Until it runs, refresh from this panel.`, refuse: false };
  return { note: servedByOtherEditor(timer) ? OTHER_EDITOR_TIMER : null, refuse: false };
}

/**
 * The active sheet's schedule, with what runs it (its timer made again if it is gone; the schedules' next run stays
 * their wake, not "now": nothing runs before it).
 */
export function refreshSchedule(): RefreshScheduleAnswer {
  const deps = refreshContext();
  const { sheet } = deps.sheets.active();
  const schedules = readSchedules(deps.store);
  const schedule = schedules.find((entry) => entry.sheetId === sheet.id);
  const timerProblem = schedule ? scheduleTimer(deps.timer).note : null;
  if (schedule && isPending(deps.timer, 'refresh')) wakeTimerAt(deps.timer, 'refresh', schedulesWake(schedules));
  return {
    ok: true,
    sheetName: sheet.name,
    schedule: scheduleDto(schedule),
    timerProblem,
    timeZone: spreadsheetTimeZone(),
  };
}

/** The skipped domains a run may add to a schedule (SKIP_MAX_CHARS, and the JSON around them). */
const SCHEDULE_GROWTH_BYTES = 4200;

/** Whether the schedules fit their storage budget (src/shared/property-budget.ts) once saved, or why not. */
function schedulesBudgetProblem(store: SizedStore, schedules: RefreshSchedule[]): string | null {
  const bytes = utf8Bytes(JSON.stringify(schedules)) + VALUE_OVERHEAD_BYTES;
  const growth = bytes + SCHEDULE_GROWTH_BYTES - store.bytesUnder(FEATURE_BUDGETS.refresh.prefix);
  return budgetProblem(store, {
    feature: 'refresh',
    growth,
    written: bytes,
    hint: 'Stop the schedule of a sheet that no longer needs it.',
  });
}

/**
 * Sets the active sheet's schedule (or stops it). The document's timer is reserved first: a schedule no timer can
 * run with the panels closed is refused with the reason, before anything is saved (Google allows no more timers: the
 * answer names the spreadsheets that hold them); a test deployment runs none (the answer says so).
 */
export function changeRefreshSchedule(request: RefreshScheduleRequest): RefreshScheduleAnswer {
  const deps = refreshContext();
  const { sheet } = deps.sheets.active();
  const others = readSchedules(deps.store).filter((entry) => entry.sheetId !== sheet.id);
  if (request.cadence === 'off') {
    writeSchedules(deps.store, others);
    noteDocumentChanged(deps.store, deps.clock.now());
    if (others.length === 0) removeTimerIfIdle(deps.timer, 'refresh');
    return { ok: true, sheetName: sheet.name, schedule: null, timerProblem: null, timeZone: spreadsheetTimeZone() };
  }
  if ((chosenFields(deps.store, sheet.id) ?? []).length === 0)
    return { ok: false, message: `Nothing on "${sheet.name}" was enriched yet: enrich it first, then schedule it.` };
  const cadence = request.cadence;
  const hour = request.hour ?? SCHEDULE_HOUR;
  const schedule: RefreshSchedule = {
    sheetId: sheet.id,
    sheetName: sheet.name,
    days: request.days,
    cadence,
    weekday: request.weekday,
    hour,
    nextRunAt: nextRun({ cadence, weekday: request.weekday, hour }, deps.clock.now(), localTime),
    run: null,
    lastRun: readSchedules(deps.store).find((entry) => entry.sheetId === sheet.id)?.lastRun ?? null,
  };
  const full = schedulesBudgetProblem(deps.store, [...others, schedule]);
  if (full) return { ok: false, message: full };
  const timer = scheduleTimer(deps.timer);
  if (timer.refuse) return { ok: false, message: `Nothing was saved. ${timer.note ?? ''}` };
  writeSchedules(deps.store, [...others, schedule]);
  noteDocumentChanged(deps.store, deps.clock.now());
  wakeTimerAt(deps.timer, 'refresh', schedulesWake([...others, schedule]));
  return {
    ok: true,
    sheetName: sheet.name,
    schedule: scheduleDto(schedule),
    timerProblem: timer.note,
    timeZone: spreadsheetTimeZone(),
  };
}
