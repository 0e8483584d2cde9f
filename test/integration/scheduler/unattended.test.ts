// Scheduled refresh and account watch where Google and the service are not as they should be (issue 35), through the
// built bundle in the emulator's published add-on mode against the sandbox on a shared manual clock, every panel
// closed:
// - Google runs the add-on's timers without their spreadsheet (undocumented: the emulator's addOnTimerHasDocument
//   switch off): the timer retires itself; the schedule line, the watch panel and the Signals header say no run can
//   start with the panels closed; a new schedule or watch is refused; nothing is paid;
// - the service answers 503 to everything for twelve hours over a due refresh and a due watch run: both keep their
//   place, say since when they wait, and complete once it answers, with no run lost and nothing paid twice.
import type { RefreshScheduleAnswer } from '../../../src/enrichment/contract';
import type { WatchAnswer } from '../../../src/research/contract';
import type { KeptSpreadsheets } from '../../../src/account/contract';
import { sandboxSuite } from '../harness';
import { column, noteAt, oracleTotals } from '../research/harness';
import { DAY, fleet, HOUR, hoursPass, schedule, timerDocuments, TOKEN, watch, type Fleet } from './fleet';

const suite = sandboxSuite({ clock: 'manual' });

function localWeekday(ms: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short' }).format(ms);
  return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(name);
}

const scheduleOf = (world: Fleet) => {
  const answer = world.docs[0].run<RefreshScheduleAnswer>('getRefreshSchedule', [], { kind: 'sidebar' });
  if (!answer.ok) throw new Error(answer.message);
  return answer;
};
const watchOf = (world: Fleet) => world.docs[0].run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar' });
/** The note on the Signals column's header. */
const signalsNote = (world: Fleet) => noteAt(world.docs[0], 'Signals', 1);

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

describe('scheduled work when Google runs timers without their spreadsheet (integration, add-on mode)', () => {
  it('says so in the schedule line, the watch panel and the Signals header; refuses new ones; pays nothing', async () => {
    const world = await fleet(suite, 1, { behaviours: { addOnTimerHasDocument: false } });
    try {
      const weekday = localWeekday(world.clock.now() + 2 * DAY);
      expect(schedule(world.docs[0], weekday, 6)).toMatchObject({ ok: true, timerProblem: null });
      expect(watch(world.docs[0], 3, weekday)).toMatchObject({ ok: true });
      expect(timerDocuments(world)).toHaveLength(1);

      // The first tick runs without the spreadsheet: the timer can do nothing and retires.
      await hoursPass(suite, world, 1);
      expect(timerDocuments(world)).toHaveLength(0);
      const documentless = /Google runs Sheet Scout's timers without their spreadsheet for your account/;
      expect(scheduleOf(world).timerProblem).toMatch(documentless);
      expect(scheduleOf(world).schedule).toMatchObject({ cadence: 'weekly', lastRun: null });
      const panel = watchOf(world);
      expect(panel.message).toMatch(documentless);
      expect(signalsNote(world)).toMatch(
        /^Account watch: no run can start\. Google runs Sheet Scout's timers without their spreadsheet/,
      );
      // Nothing that only a timer could run is saved now.
      expect(schedule(world.docs[0], weekday, 9)).toMatchObject({
        ok: false,
        message: expect.stringMatching(documentless),
      });
      expect(scheduleOf(world).schedule).toMatchObject({ hour: 6 });
      expect(watch(world.docs[0], 2, weekday)).toMatchObject({
        ok: false,
        message: expect.stringMatching(documentless),
      });

      // The due times pass: no run, no task, no credit; no timer made again; Settings lists none.
      await hoursPass(suite, world, 3 * 24);
      expect(scheduleOf(world).schedule?.lastRun).toBeNull();
      expect(watchOf(world).watch?.lastRun).toBeNull();
      expect(await suite.control.tasks(TOKEN)).toHaveLength(0);
      expect(await suite.control.credits(TOKEN)).toBe(100_000);
      expect(timerDocuments(world)).toHaveLength(0);
      const kept = world.docs[0].run<KeptSpreadsheets>('getKeptSpreadsheets', [], { kind: 'sidebar' });
      expect(kept.spreadsheets).toEqual([]);
    } finally {
      await world.project.close();
    }
  });
});

describe('scheduled work through an outage of the service (integration, add-on mode)', () => {
  it('a due refresh and a due watch run wait for the service, say since when, and complete once it answers', async () => {
    const world = await fleet(suite, 1);
    try {
      const weekday = localWeekday(world.clock.now() + 2 * DAY);
      const saved = schedule(world.docs[0], weekday, 6);
      const due = saved.ok ? (saved.schedule?.nextRunAt as number) : 0;
      const watched = watch(world.docs[0], 3, weekday);
      expect(watched.watch?.nextRunAt).toBe(due);
      const before = column(world.docs[0], 'Employees');

      // The service goes down an hour before both runs are due, for twelve hours.
      await hoursPass(suite, world, Math.round((due - world.clock.now()) / HOUR) - 1);
      await suite.control.setFault({ route: '*', errorRate: 1, errorStatus: 503 });
      await hoursPass(suite, world, 12);
      const waiting = scheduleOf(world).schedule;
      expect(waiting).toMatchObject({ running: true, lastRun: null });
      expect(waiting?.unreachableSince).toBeGreaterThanOrEqual(due);
      expect(waiting?.unreachableSince).toBeLessThan(due + HOUR);
      const watchWaiting = watchOf(world).watch;
      expect(watchWaiting).toMatchObject({ lastRun: null, nextRunAt: due });
      expect(watchWaiting?.unreachableSince).toBeGreaterThanOrEqual(due);
      expect(signalsNote(world)).toMatch(
        /^Account watch, run of \d{4}-\d{2}-\d{2}: Service unavailable since \w{3} \d{2}:\d{2}, trying again hourly\./,
      );

      // Back (nothing was created meanwhile): the next tick completes both runs; the watch's tasks are created once.
      await suite.control.clearFaults();
      expect(await suite.control.tasks(TOKEN)).toHaveLength(0);
      await hoursPass(suite, world, 1);
      const done = scheduleOf(world).schedule;
      expect(done).toMatchObject({ running: false, unreachableSince: null, lastRun: { checked: 3, problem: null } });
      expect(done?.nextRunAt).toBe(due + 7 * DAY);
      const watchDone = watchOf(world).watch;
      expect(watchDone).toMatchObject({ unreachableSince: null, nextRunAt: due + 7 * DAY });
      expect(watchDone?.lastRun?.text).toBe('Researching 3 rows');
      expect(signalsNote(world)).toBe('');
      await hoursPass(suite, world, 6);
      expect(column(world.docs[0], 'Status').every((status) => /^Done/.test(status))).toBe(true);
      // Its rows written, the run says what it did, its credits as the service charged them.
      expect(watchOf(world).watch?.lastRun?.text).toBe(
        `Researched 3 rows: 0 changed, 0 failed, ${(await oracleTotals(suite)).charged} credits charged`,
      );
      const tasks = await suite.control.tasks(TOKEN);
      expect(tasks).toHaveLength(3);
      expect(new Set(tasks.map((task) => task.brief)).size).toBe(3);
      expect(column(world.docs[0], 'Employees')).toHaveLength(before.length);
    } finally {
      await suite.control.clearFaults();
      await world.project.close();
    }
  });
});
