// The scale benchmark's many-spreadsheets part (issue 35): one user keeps 20 spreadsheets of 500 rows current, each
// enriched once and then refreshed weekly on its own weekday and hour, seven of them also watching 50 rows, for four
// simulated weeks with every panel closed, in a published add-on project of its own (consumer quotas: 20 timers, 90
// minutes of trigger runtime a day). In the third week the service answers 503 to everything for 12 hours over due
// runs. A 21st spreadsheet tries to save a schedule and a watch when all 20 timers are in use. Measures the runs that
// started more than two hours late or never, the most trigger runtime the add-in booked (and Google charged) in any 24
// hours, what a tick with nothing due costs, the runs the outage lost and any task paid twice.
import { createManualClock, createProject, SpreadsheetModel, type GasRuntime } from '../../dev/gas-runtime';
import type { SandboxControl } from '../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import type { RefreshScheduleAnswer } from '../../src/enrichment/contract';
import { readSchedules, type RefreshSchedule } from '../../src/enrichment/refresh/schedule';
import type { WatchAnswer } from '../../src/research/contract';
import type { KeyValueStore } from '../../src/ports';
import { TIMER_RUNTIME_KEY } from '../../src/scheduler/runtime-budget';
import { BUNDLE } from '../../test/integration/harness';
import { DAY, HOUR, TOKEN, USER, type World } from './world';
import { WATCH_OUTPUT } from './watch';
import { enrich, watch } from '../../test/integration/scheduler/fleet';

const DOCS = 20;
const ROWS = 500;
const WATCHING_DOCS = 7;
const WATCHED_ROWS = 50;
const WEEKS = 4;
const OUTAGE_HOURS = 12;
/** A run that starts more than this after it was due counts as missed (the timer is hourly). */
const LATE_AFTER_MS = 2 * HOUR;
const SHEET = 'Accounts';

export interface ManySpreadsheets {
  docs: number;
  dueRuns: number;
  missedRuns: number;
  watchRuns: number;
  watchMissedRuns: number;
  bookedMinDayMax: number;
  chargedMinDayMax: number;
  idleTickModelledS: number;
  outageDueRuns: number;
  outageRunsLost: number;
  outagePaidTwice: number;
  twentyFirstRefused: boolean;
  twentyFirstSpent: number;
}

/** A document's properties as a store (the bench reads what the add-in keeps without running an execution). */
function propertiesOf(doc: GasRuntime): KeyValueStore {
  const stored = doc.properties.document;
  return {
    get: (key) => stored.get(key),
    fresh: (key) => stored.get(key),
    set: (key, value) => stored.set(key, value),
    setAll: (values) => Object.entries(values).forEach(([key, value]) => stored.set(key, value)),
    remove: (key) => stored.delete(key),
  };
}

const scheduleOf = (doc: GasRuntime): RefreshSchedule | undefined => readSchedules(propertiesOf(doc))[0];

/** Whether the document's timer has nothing due now (every pending mark holds a later time). */
function idleAt(doc: GasRuntime, now: number): boolean {
  const marks = ['research', 'enrichment', 'refresh', 'watch']
    .map((feature) => doc.properties.document.get(`sheetscout.timer.pending.${feature}`))
    .filter((mark): mark is string => mark !== null && mark !== undefined);
  return marks.length > 0 && marks.every((mark) => Number(mark) > now);
}

/** The watch of a spreadsheet's first rows, as the Research panel saves it (its brief reads the Website column). */
const saveWatch = (doc: GasRuntime, weekday: number) =>
  watch(doc, WATCHED_ROWS, weekday, { template: 'Research {Website}', output: WATCH_OUTPUT });

/** The largest sum of any 24 consecutive hours. */
export function maxDay(byHour: Map<number, number>): number {
  const hours = [...byHour.keys()].sort((a, b) => a - b);
  let best = 0;
  for (const first of hours) {
    let sum = 0;
    for (let hour = first; hour < first + 24; hour++) sum += byHour.get(hour) ?? 0;
    best = Math.max(best, sum);
  }
  return best;
}

export async function manySpreadsheets(control: SandboxControl, companies: string[]): Promise<ManySpreadsheets> {
  const clock = createManualClock(await control.now());
  const project = createProject({ bundlePath: BUNDLE, users: [USER], clock, addOn: true, quotas: 'consumer' });
  project.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
  project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, control.url);
  const world: World = { control, clock, project };
  const advance = async (ms: number) => {
    await control.advanceClock(ms);
    clock.advance(ms);
  };
  try {
    const docs: GasRuntime[] = [];
    for (let i = 0; i <= DOCS; i++) {
      const spreadsheet = new SpreadsheetModel({
        id: `kept-${i + 1}`,
        name: `Accounts ${i + 1}`,
        rows: ROWS + 50,
        columns: 26,
        sheetNames: [SHEET],
      });
      const domains = companies
        .slice((i * ROWS) % companies.length)
        .concat(companies)
        .slice(0, ROWS);
      spreadsheet.sheet(SHEET).setValues(`A1:A${ROWS + 1}`, [['Website'], ...domains.map((domain) => [domain])]);
      spreadsheet.selection = {
        sheet: spreadsheet.sheet(SHEET),
        rect: { row: 1, column: 1, numRows: 1, numColumns: 1 },
      };
      const doc = world.project.addDocument({ spreadsheet });
      enrich(doc);
      docs.push(doc);
    }
    const twentyFirst = docs.pop() as GasRuntime;
    const watchDue = new Map<number, number>();
    for (const [i, doc] of docs.entries()) {
      const weekday = i % 7;
      const hour = (i * 5) % 24;
      const saved = doc.run<RefreshScheduleAnswer>(
        'setRefreshSchedule',
        [{ cadence: 'weekly', weekday, hour, days: 0 }],
        {
          kind: 'sidebar',
        },
      );
      if (!saved.ok) throw new Error(`no schedule in ${doc.spreadsheet.name}: ${saved.message}`);
      if (i < WATCHING_DOCS) {
        const watched = saveWatch(doc, (weekday + 3) % 7);
        if (!watched.ok || !watched.watch) throw new Error(`no watch in ${doc.spreadsheet.name}: ${watched.message}`);
        watchDue.set(i, watched.watch.nextRunAt as number);
      }
    }

    // The 21st spreadsheet: all 20 timers are in use.
    const allTasks = async () => (await control.call<unknown[]>('GET', '/_sandbox/tasks')).length;
    const tasksBefore = await allTasks();
    const creditsBefore = await control.credits(TOKEN);
    const refusedSchedule = twentyFirst.run<RefreshScheduleAnswer>(
      'setRefreshSchedule',
      [{ cadence: 'weekly', weekday: 1, hour: 6, days: 6 }],
      { kind: 'sidebar' },
    );
    const refusedWatch = saveWatch(twentyFirst, 1);
    const nothingSaved =
      scheduleOf(twentyFirst) === undefined && refusedWatch.watch === null && (await allTasks()) === tasksBefore;
    const twentyFirstSpent = creditsBefore - (await control.credits(TOKEN));
    const refusal = refusedSchedule.ok ? '' : refusedSchedule.message;
    const named = ['Accounts 1', 'Accounts 2'].every((name) => refusal.includes(`"${name}"`));
    console.log(`M 21st spreadsheet: ${refusedSchedule.ok ? 'saved' : 'refused'}: ${refusal}`);

    // Four weeks, hourly timers, every panel closed; the outage in the third week.
    const due = docs.map((doc) => scheduleOf(doc)?.nextRunAt as number);
    const late: number[] = [];
    let dueRuns = 0;
    /** The due time whose run was counted as started, per document. */
    const counted = docs.map(() => 0);
    // The outage: the twelve hours of the third week over the most due runs (refreshes and watches), from an hour
    // before the first of them.
    const thirdWeek = clock.now() + 2 * 7 * DAY;
    const inThirdWeek = (at: number) => at + 7 * DAY * Math.max(0, Math.ceil((thirdWeek - at) / (7 * DAY)));
    const dueInThirdWeek = [...due, ...watchDue.values()].map(inThirdWeek);
    const covered = (from: number) =>
      dueInThirdWeek.filter((at) => at >= from && at < from + OUTAGE_HOURS * HOUR).length;
    let outageFrom = 0;
    for (const at of [...dueInThirdWeek].sort((a, b) => a - b))
      if (outageFrom === 0 || covered(at - HOUR) > covered(outageFrom)) outageFrom = at - HOUR;
    const outageTo = outageFrom + OUTAGE_HOURS * HOUR;
    let outageDueRuns = 0;
    let outageRunsLost = 0;
    const watchLastAt = new Map<number, number>();
    let watchRuns = 0;
    let watchMissedRuns = 0;
    let expectedTasks = 0;
    const booked = new Map<number, number>();
    let chargedMax = 0;
    const idleTicks: number[] = [];
    const end = clock.now() + WEEKS * 7 * DAY;
    const sampleWatches = () => {
      for (const [i, at] of watchDue) {
        const last = docs[i].run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar' }).watch;
        if (!last?.lastRun || last.lastRun.at === watchLastAt.get(i)) continue;
        watchLastAt.set(i, last.lastRun.at);
        watchRuns++;
        // A run that started says "Researching N rows", and once its rows are written "Researched N rows: ...".
        const rows = /^Research(?:ing|ed) (\d+) rows/.exec(last.lastRun.text);
        if (last.lastRun.at - at > LATE_AFTER_MS || !rows) watchMissedRuns++;
        expectedTasks += rows ? Number(rows[1]) : 0;
        if (at >= outageFrom - HOUR && at < outageTo) {
          outageDueRuns++;
          if (!rows) outageRunsLost++;
        }
        watchDue.set(i, last.nextRunAt as number);
      }
    };
    let inOutage = false;
    while (clock.now() < end) {
      await advance(HOUR);
      const now = clock.now();
      if (!inOutage && now >= outageFrom && now < outageTo) {
        await control.setFault({ route: '*', errorRate: 1, errorStatus: 503 });
        inOutage = true;
      } else if (inOutage && now >= outageTo) {
        await control.clearFaults();
        inOutage = false;
      }
      const idle = new Map(docs.map((doc) => [doc.spreadsheet.id, idleAt(doc, now)]));
      const before = project.counters.executions;
      const results = project.triggers.fireDue();
      for (const result of results) if (!result.ok) throw new Error(`timer failed: ${result.error}`);
      const fired = project.counters.executions - before;
      if (fired === results.length) {
        const log = project.counters.modelled.executions.slice(-fired);
        results.forEach((result, i) => {
          if (idle.get(result.documentId)) idleTicks.push(log[i].ms);
        });
      }
      const record = JSON.parse(project.properties.user(USER).get(TIMER_RUNTIME_KEY) ?? '{}') as Record<string, number>;
      for (const [hour, ms] of Object.entries(record)) booked.set(Number(hour), ms);
      chargedMax = Math.max(chargedMax, project.quotaUsage(USER).triggerRuntimeMs);
      for (const [i, doc] of docs.entries()) {
        const schedule = scheduleOf(doc);
        if (!schedule) throw new Error(`the schedule of ${doc.spreadsheet.name} is gone`);
        const started = schedule.run?.at ?? schedule.lastRun?.at ?? 0;
        if (counted[i] !== due[i] && started >= due[i]) {
          // The run due at due[i] started (or started and finished within this hour).
          counted[i] = due[i];
          dueRuns++;
          if (started - due[i] > LATE_AFTER_MS) late.push(i);
          if (due[i] >= outageFrom - HOUR && due[i] < outageTo) outageDueRuns++;
        }
        if (!schedule.run && schedule.lastRun && schedule.lastRun.at >= due[i]) {
          const lost = schedule.lastRun.checked < ROWS * 0.9 || schedule.lastRun.problem !== null;
          if (lost && due[i] >= outageFrom - HOUR && due[i] < outageTo) outageRunsLost++;
          if (lost) console.log(`M lost run in ${doc.spreadsheet.name}: ${JSON.stringify(schedule.lastRun)}`);
          due[i] = schedule.nextRunAt;
        }
      }
      // The watches, read as the Research panel reads them, once a day (a run's time is when it started).
      if (Math.round((now - outageFrom) / HOUR) % 24 === 0) sampleWatches();
    }
    sampleWatches();
    // Runs whose time came (with the timer's slack) and that never started.
    const overdue = docs.filter((doc, i) => !scheduleOf(doc)?.run && due[i] + LATE_AFTER_MS <= end).length;
    const watchOverdue = [...watchDue.values()].filter((at) => at + LATE_AFTER_MS <= end).length;
    const tasks = (await allTasks()) - tasksBefore;
    const sortedIdle = [...idleTicks].sort((a, b) => a - b);
    const result: ManySpreadsheets = {
      docs: docs.length,
      dueRuns: dueRuns + overdue,
      missedRuns: late.length + overdue,
      watchRuns: watchRuns + watchOverdue,
      watchMissedRuns: watchMissedRuns + watchOverdue,
      bookedMinDayMax: maxDay(booked) / 60_000,
      chargedMinDayMax: chargedMax / 60_000,
      idleTickModelledS: (sortedIdle[Math.floor(sortedIdle.length * 0.95)] ?? 0) / 1000,
      outageDueRuns,
      outageRunsLost,
      outagePaidTwice: Math.max(0, tasks - expectedTasks),
      twentyFirstRefused: !refusedSchedule.ok && !refusedWatch.ok && nothingSaved && named,
      twentyFirstSpent,
    };
    console.log(
      `M ${DOCS} spreadsheets of ${ROWS} rows, weekly refreshes (${WATCHING_DOCS} also watching ${WATCHED_ROWS} rows), ` +
        `${WEEKS} weeks, panels closed: ${result.dueRuns} refresh runs due, ${result.missedRuns} started late or not ` +
        `at all; ${watchRuns} watch runs, ${watchMissedRuns} late or not started; ${tasks} tasks for ${expectedTasks} ` +
        `watched rows; trigger runtime in any 24 hours at most ${result.bookedMinDayMax.toFixed(1)} min booked, ` +
        `${result.chargedMinDayMax.toFixed(1)} min charged by Google; a tick with nothing due ` +
        `${result.idleTickModelledS.toFixed(2)} s (95th percentile of ${idleTicks.length}); outage of ` +
        `${OUTAGE_HOURS} h over ${outageDueRuns} due runs: ${outageRunsLost} lost`,
    );
    return result;
  } finally {
    await control.clearFaults();
    await project.close();
  }
}
