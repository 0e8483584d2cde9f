// The scale benchmark's scheduled part (issue 27): a sheet of 10,000 rows (5,000 companies, each twice) enriched once,
// 50 of its enriched cells typed over by hand, then a weekly refresh of data older than 6 days and a weekly account
// watch of its first 1,000 rows (watch.ts) left to the published add-on's hourly timer with every panel closed
// for four simulated weeks, while the service changes 100 companies a week, and the sheet's weekly digest to Slack
// (digest.ts). Measures the runs that happened against those due, the runs that started late (missed), the hand edits
// a run overwrote, the cells changed, and the largest share of a day's UrlFetch quota any 24 hours took.
import type { EnrichProgress, RefreshScheduleAnswer, StartResult } from '../../src/enrichment/contract';
import { readSchedules, type RefreshSchedule } from '../../src/enrichment/refresh/schedule';
import type { KeyValueStore } from '../../src/ports';
import { advance, DAY, documentWith, fireTimers, HOUR, sent, type World } from './world';
import { watchRows, type WatchFigures } from './watch';
import { digestOf, type DigestFigures } from './digest';

const SHEET = 'Watched accounts';
const WEEKS = 4;
const HAND_EDITS = 50;
const CHANGED_PER_WEEK = 100;
const CONSUMER_URLFETCH_PER_DAY = 20_000;
/** A run that starts more than this after it was due counts as missed (the timer is hourly). */
const LATE_AFTER_MS = 2 * HOUR;

export interface ScheduledRefresh {
  rows: number;
  dueRuns: number;
  scheduledRuns: number;
  missedRuns: number;
  handEditsOverwritten: number;
  changedCells: number;
  urlfetchDayPctMax: number;
  watch: WatchFigures;
  digest: DigestFigures;
  /** The watched and refreshed document (its spending history is read at the end). */
  doc: ReturnType<typeof documentWith>;
}

/** The document's one schedule, read from its properties as the add-in keeps it. */
function scheduleOf(doc: ReturnType<typeof documentWith>): RefreshSchedule | undefined {
  const stored = doc.properties.document;
  const store: KeyValueStore = {
    get: (key) => stored.get(key),
    fresh: (key) => stored.get(key),
    set: (key, value) => stored.set(key, value),
    setAll: (values) => Object.entries(values).forEach(([key, value]) => stored.set(key, value)),
    remove: (key) => stored.delete(key),
  };
  return readSchedules(store)[0];
}

export async function scheduledRefresh(world: World, companies: string[]): Promise<ScheduledRefresh> {
  const domains = [...companies, ...companies];
  const doc = documentWith(world, 'doc-scheduled', SHEET, [['Website'], ...domains.map((domain) => [domain])]);
  doc.spreadsheet.selection = {
    sheet: doc.spreadsheet.sheet(SHEET),
    rect: { row: 1, column: 1, numRows: 1, numColumns: 1 },
  };
  const started = doc.run<StartResult>('startEnrichment', [{ fields: ['company_name', 'employee_count'] }], {
    kind: 'sidebar',
  });
  if (!started.ok) throw new Error(`enrichment did not start: ${started.message}`);
  let progress: EnrichProgress = started.progress;
  for (let step = 0; step < 500 && progress.status === 'running'; step++) {
    progress = doc.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
    if (progress.nextStepInMs > 0) await advance(world, progress.nextStepInMs);
  }
  if (progress.status !== 'done') throw new Error(`enrichment ended ${progress.status}`);

  // Hand edits over enriched company names, spread over the sheet.
  const sheet = doc.spreadsheet.sheet(SHEET);
  const nameColumn = sheet.getValues()[0].indexOf('Company name') + 1;
  const edited = Array.from({ length: HAND_EDITS }, (_, i) => 2 + Math.floor((i * domains.length) / HAND_EDITS));
  for (const row of edited)
    sheet.typeInto({ row, column: nameColumn, numRows: 1, numColumns: 1 }, `Edited by hand ${row}`);

  const watch = await watchRows(world, doc, SHEET);
  const set = doc.run<RefreshScheduleAnswer>('setRefreshSchedule', [{ cadence: 'weekly', weekday: 3, days: 6 }], {
    kind: 'sidebar',
  });
  if (!set.ok || !set.schedule) throw new Error(`no schedule: ${JSON.stringify(set)}`);
  const digest = digestOf(world, doc, SHEET, 3);

  const end = world.clock.now() + WEEKS * 7 * DAY;
  /** Per run that started: when it was due and when it started. */
  const starts: Array<{ due: number; at: number }> = [];
  let due = set.schedule.nextRunAt as number;
  let wasRunning = false;
  let lastRunAt = 0;
  let runs = 0;
  let changedCells = 0;
  const hourly: number[] = [];
  for (let hour = 0; world.clock.now() < end; hour++) {
    if (hour % (7 * 24) === 0) {
      watch.sampleSignals();
      digest.sampleSignals();
      const week = hour / (7 * 24);
      const changing = companies.slice(week * CHANGED_PER_WEEK, (week + 1) * CHANGED_PER_WEEK);
      for (const domain of changing) await world.control.changeCompany(domain, { employee_count: '10001+' });
    }
    const before = sent(world);
    await advance(world, HOUR);
    fireTimers(world);
    hourly.push(sent(world) - before);
    await watch.hour();
    const schedule = scheduleOf(doc);
    if (!schedule) throw new Error('the schedule is gone');
    const finished = schedule.lastRun !== null && schedule.lastRun.at !== lastRunAt;
    const running = schedule.run !== null;
    // A run started in this tick: it is running now, or it ran from start to end within the tick.
    if (!wasRunning && (running || finished)) starts.push({ due, at: schedule.run?.at ?? world.clock.now() });
    if (finished) {
      lastRunAt = schedule.lastRun?.at ?? 0;
      runs++;
      changedCells += schedule.lastRun?.changedCells ?? 0;
    }
    if (!running) due = schedule.nextRunAt;
    wasRunning = running;
  }
  // The run due last, if its time came (with the timer's hour of slack) and it did not start.
  const overdue = !wasRunning && due + LATE_AFTER_MS <= end ? 1 : 0;
  const dueRuns = starts.length + overdue;
  const missedRuns = starts.filter((start) => start.at - start.due > LATE_AFTER_MS).length + overdue;
  const values = sheet.getValues();
  const overwritten = edited.filter((row) => values[row - 1][nameColumn - 1] !== `Edited by hand ${row}`).length;
  let dayMax = 0;
  for (let from = 0; from + 24 <= hourly.length; from++)
    dayMax = Math.max(
      dayMax,
      hourly.slice(from, from + 24).reduce((sum, n) => sum + n, 0),
    );
  watch.sampleSignals();
  digest.sampleSignals();
  // A day more for the digest of the last week's runs (the figures above are the four weeks').
  for (let hour = 0; hour < 24; hour++) {
    await advance(world, HOUR);
    fireTimers(world);
  }
  const result = {
    doc,
    digest: await digest.finish(WEEKS),
    watch: watch.finish(),
    rows: domains.length,
    dueRuns,
    scheduledRuns: runs,
    missedRuns,
    handEditsOverwritten: overwritten,
    changedCells,
    urlfetchDayPctMax: (dayMax / CONSUMER_URLFETCH_PER_DAY) * 100,
  };
  console.log(
    `S weekly refresh of ${result.rows} rows over ${WEEKS} weeks, panels closed: ${runs} runs finished of ${dueRuns} due, ` +
      `${missedRuns} started late or not at all, ${changedCells} cells changed, ${overwritten} of ${HAND_EDITS} hand edits overwritten, ` +
      `at most ${dayMax} requests in 24 hours (${result.urlfetchDayPctMax.toFixed(1)} % of the day's UrlFetch quota)`,
  );
  return result;
}
