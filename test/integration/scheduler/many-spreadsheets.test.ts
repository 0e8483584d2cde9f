// A user who keeps many spreadsheets current with every panel closed (issue 35), through the built bundle in the
// emulator's published add-on mode (hourly timers, one per user per document, 20 per user, 90 minutes of trigger
// runtime a day) against the sandbox on a shared manual clock:
// - fourteen spreadsheets with weekly refreshes (a watch in every third): every run starts within two hours of its
//   time, because a tick with nothing due is booked at what it costs (about half a second), not at a flat 10 s;
// - two timers of one user that overlap both keep their booking, and what is booked is what Google charged;
// - the 21st spreadsheet is refused before anything is saved or spent, with the names of those holding the timers;
//   Settings lists them; another editor's timer serving a spreadsheet runs its schedule, and the panel says so.
import type { RefreshScheduleAnswer } from '../../../src/enrichment/contract';
import type { WatchAnswer } from '../../../src/research/contract';
import type { KeptSpreadsheets } from '../../../src/account/contract';
import { TIMER_RUNTIME_KEY } from '../../../src/scheduler/runtime-budget';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { sandboxSuite } from '../harness';
import { oracleTotals, USER } from '../research/harness';
import { DAY, fleet, HOUR, hoursPass, schedule, timerDocuments, TOKEN, watch, type Fleet } from './fleet';

const suite = sandboxSuite({ clock: 'manual' });
const OTHER_EDITOR = 'ben@example.com';
const LATE_AFTER_MS = 2 * HOUR;

/** The weekday (0 = Sunday) of an instant in the spreadsheets' time zone (the emulator's default). */
function localWeekday(ms: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short' }).format(ms);
  return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(name);
}

const scheduleOf = (world: Fleet, i: number) =>
  world.docs[i].run<RefreshScheduleAnswer>('getRefreshSchedule', [], { kind: 'sidebar' });
const watchOf = (world: Fleet, i: number) =>
  world.docs[i].run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar' });
const bookedMs = (world: Fleet) =>
  Object.values(
    JSON.parse(world.project.properties.user(USER).get(TIMER_RUNTIME_KEY) ?? '{}') as Record<string, number>,
  ).reduce((sum, ms) => sum + ms, 0);

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

describe('many spreadsheets kept current with the panels closed (integration, add-on mode)', () => {
  it('fourteen weekly refreshes and five watches all start within two hours of their time', async () => {
    const world = await fleet(suite, 14);
    try {
      const now = world.clock.now();
      const due: number[] = [];
      const watchDue = new Map<number, number>();
      for (let i = 0; i < 14; i++) {
        // Due on the second and third days, when fourteen idle timers booked at 10 s each had spent the share.
        const weekday = localWeekday(now + (2 + (i % 2)) * DAY);
        const saved = schedule(world.docs[i], weekday, i);
        if (!saved.ok || !saved.schedule) throw new Error(JSON.stringify(saved));
        due.push(saved.schedule.nextRunAt as number);
        if (i % 3 === 0) {
          const watched = watch(world.docs[i], 3, weekday);
          expect(watched).toMatchObject({ ok: true });
          watchDue.set(i, watched.watch?.nextRunAt as number);
        }
      }
      expect(new Set(timerDocuments(world)).size).toBe(14);
      await hoursPass(suite, world, 4 * 24);
      for (let i = 0; i < 14; i++) {
        const answer = scheduleOf(world, i);
        if (!answer.ok) throw new Error(answer.message);
        const last = answer.schedule?.lastRun;
        expect({ doc: i, late: (last?.at ?? Infinity) - due[i] <= LATE_AFTER_MS }).toEqual({ doc: i, late: true });
        expect(last).toMatchObject({ checked: 3, problem: null });
      }
      let shownCredits = 0;
      for (const [i, at] of watchDue) {
        const last = watchOf(world, i).watch?.lastRun;
        const figures = /^Researched 3 rows: 0 changed, 0 failed, (\d+) credits charged$/.exec(last?.text ?? '');
        expect(figures).not.toBeNull();
        shownCredits += Number(figures?.[1]);
        expect((last?.at ?? Infinity) - at).toBeLessThanOrEqual(LATE_AFTER_MS);
      }
      // The watches' runs are all this account's research: what their lines say is what the service charged.
      expect(shownCredits).toBe((await oracleTotals(suite)).charged);
      // The booking stayed far inside the 45-minute share: a day of fourteen timers is minutes, not an hour.
      expect(bookedMs(world)).toBeLessThan(15 * 60_000);
    } finally {
      await world.project.close();
    }
  });

  it('two timers of one user that overlap both keep their booking, booked as Google charged them', async () => {
    const world = await fleet(suite, 2);
    try {
      const weekday = localWeekday(world.clock.now() + 2 * DAY);
      for (const doc of world.docs) expect(schedule(doc, weekday, 6)).toMatchObject({ ok: true });
      const [first, second] = world.docs;
      const timerOf = (i: number) =>
        world.project.triggers.list().find((trigger) => trigger.documentId === world.docs[i].spreadsheet.id)?.id;
      const runtimeOfTimers = (from: number) =>
        world.project.counters.modelled.executions
          .slice(from)
          .filter((execution) => execution.kind === 'trigger')
          .reduce((sum, execution) => sum + execution.ms, 0);
      // A day of idle ticks: booked as the emulator's cost model charged them (within a start estimate's margin).
      const logFrom = world.project.counters.modelled.executions.length;
      await hoursPass(suite, world, 24);
      const idleCharged = runtimeOfTimers(logFrom);
      expect(bookedMs(world)).toBeGreaterThanOrEqual(idleCharged);
      expect(bookedMs(world)).toBeLessThanOrEqual(idleCharged * 1.2);
      expect(idleCharged / 48).toBeLessThanOrEqual(1_000);

      // Both runs at once: the second spreadsheet's timer starts and ends while the first one's run sends its lookups.
      const dueAt = (scheduleOf(world, 0) as { schedule: { nextRunAt: number } }).schedule.nextRunAt;
      await suite.control.advanceClock(dueAt - world.clock.now());
      world.clock.advance(dueAt - world.clock.now());
      const hourBooked = () =>
        (JSON.parse(world.project.properties.user(USER).get(TIMER_RUNTIME_KEY) ?? '{}') as Record<string, number>)[
          String(Math.floor(dueAt / HOUR))
        ] ?? 0;
      const runsFrom = world.project.counters.modelled.executions.length;
      let overlapped = false;
      first.run('sheetScoutTimer', [{ triggerUid: timerOf(0) }], {
        kind: 'trigger',
        onServiceCall: (call) => {
          if (overlapped || call.service !== 'UrlFetchApp') return;
          overlapped = true;
          second.run('sheetScoutTimer', [{ triggerUid: timerOf(1) }], { kind: 'trigger' });
        },
      });
      expect(overlapped).toBe(true);
      for (const i of [0, 1]) expect(scheduleOf(world, i)).toMatchObject({ schedule: { lastRun: { checked: 3 } } });
      // Both runs are in the record, each at what it was charged plus at most its start estimate.
      const charged = runtimeOfTimers(runsFrom);
      expect(hourBooked()).toBeGreaterThanOrEqual(charged);
      expect(hourBooked()).toBeLessThanOrEqual(charged + 2 * 600);
    } finally {
      await world.project.close();
    }
  });

  it('the 21st spreadsheet is refused before anything is saved or spent, and names those holding the timers', async () => {
    const world = await fleet(suite, 22, { rows: 1, users: [OTHER_EDITOR] });
    try {
      const weekday = localWeekday(world.clock.now() + 2 * DAY);
      for (let i = 0; i < 20; i++) expect(schedule(world.docs[i], weekday, 6)).toMatchObject({ ok: true });
      expect(new Set(timerDocuments(world)).size).toBe(20);

      const [, , ...rest] = world.docs;
      const twentyFirst = rest[18];
      const refused = schedule(twentyFirst, weekday, 6);
      expect(refused.ok).toBe(false);
      const message = (refused as { message: string }).message;
      expect(message).toMatch(
        /^Nothing was saved\. Sheet Scout could not set up .* Google allows 20 timers per account and all 20 are in use\./,
      );
      for (const name of ['Accounts 1', 'Accounts 2', 'Accounts 8'])
        expect(message).toContain(`"${name}" (scheduled refresh)`);
      expect(message).toContain('and 12 more');
      expect(scheduleOf(world, 20)).toMatchObject({ ok: true, schedule: null });
      const watched = watch(twentyFirst, 1, weekday);
      expect(watched).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^Nothing was saved\. Sheet Scout could not/),
      });
      expect(watchOf(world, 20).watch).toBeNull();
      expect(await suite.control.tasks(TOKEN)).toHaveLength(0);
      expect(timerDocuments(world)).not.toContain(twentyFirst.spreadsheet.id);

      // Settings lists the twenty, each with its next run.
      const kept = world.docs[0].run<KeptSpreadsheets>('getKeptSpreadsheets', [], { kind: 'sidebar' });
      expect(kept.spreadsheets).toHaveLength(20);
      expect(kept.spreadsheets.map((entry) => entry.name)).toEqual(
        Array.from({ length: 20 }, (_, i) => `Accounts ${i + 1}`),
      );
      expect(kept.spreadsheets[0]).toMatchObject({
        keptBy: 'scheduled refresh',
        here: true,
        url: 'https://docs.google.com/spreadsheets/d/kept-1/edit',
      });
      const next = (scheduleOf(world, 3) as { schedule: { nextRunAt: number } }).schedule.nextRunAt;
      expect(kept.spreadsheets[3].nextRunAt).toBe(next);

      // Another editor's timer serves the 22nd spreadsheet: the user's schedule there runs on it, and says so.
      const other = world.project.properties.user(OTHER_EDITOR);
      other.set(SETTINGS_KEYS.token, TOKEN);
      other.set(SETTINGS_KEYS.baseUrl, suite.control.url);
      const twentySecond = rest[19];
      const byOther = twentySecond.run<RefreshScheduleAnswer>(
        'setRefreshSchedule',
        [{ cadence: 'weekly', weekday: localWeekday(world.clock.now() + DAY), hour: 6, days: 0 }],
        { kind: 'sidebar', user: OTHER_EDITOR },
      );
      expect(byOther).toMatchObject({ ok: true, timerProblem: null });
      const mine = schedule(twentySecond, localWeekday(world.clock.now() + DAY), 6);
      expect(mine).toMatchObject({
        ok: true,
        timerProblem:
          "Runs on the timer another editor's Sheet Scout keeps in this spreadsheet (their lookups, 0 credits).",
      });
      await hoursPass(suite, world, 2 * 24);
      expect(scheduleOf(world, 21)).toMatchObject({ schedule: { lastRun: { checked: 1, problem: null } } });

      // Freeing one: the 5th spreadsheet's schedule stopped, its timer goes and the 21st can have one.
      world.docs[4].run('setRefreshSchedule', [{ cadence: 'off', weekday: 0, days: 0 }], { kind: 'sidebar' });
      expect(timerDocuments(world)).not.toContain(world.docs[4].spreadsheet.id);
      expect(schedule(twentyFirst, weekday, 6)).toMatchObject({ ok: true, timerProblem: null });
      const after = world.docs[0].run<KeptSpreadsheets>('getKeptSpreadsheets', [], { kind: 'sidebar' });
      expect(after.spreadsheets.map((entry) => entry.name)).not.toContain('Accounts 5');
      expect(after.spreadsheets.map((entry) => entry.name)).toContain('Accounts 21');
    } finally {
      await world.project.close();
    }
  });
});
