// Issue 45, point 7, through the built bundle (a published add-on on consumer quotas, hourly timers, every panel
// closed) and the sandbox: a user keeps 20 spreadsheets, six of them with a weekly account watch on a different day,
// and the service is down for 200 hours over their due runs. When it answers again, each late run goes out once, and
// the next run keeps the watch's rhythm (the first of its slots at least 80% of a week later): by the sandbox's own
// task record, no watch starts two runs less than 80% of a week apart, none starts two in one of its weekly periods,
// and no run is paid that the weekly rhythm did not ask for.
import { sandboxSuite } from '../../harness';
import { DAY, HOUR, TOKEN, fleet, watch, type Fleet } from '../../scheduler/fleet';
import { MIN_GAP_SHARE } from '../../../../src/research/watch/watch-runs';
import type { ResearchTask } from '../../../../src/api/types';

jest.setTimeout(600_000);

const suite = sandboxSuite({ clock: 'manual' });
const WEEK = 7 * DAY;
const WATCHED = [0, 3, 6, 9, 12, 15];

/** Every task the sandbox created for the token, oldest first (its list, page by page). */
async function allTasks(): Promise<ResearchTask[]> {
  const tasks: ResearchTask[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await suite.control.call<ResearchTask[]>(
      'GET',
      `/v1/deep_research_tasks?limit=100&offset=${offset}`,
      undefined,
      TOKEN,
    );
    tasks.push(...page);
    if (page.length < 100) return tasks.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  }
}

/**
 * A watch's runs by the task record: its rows' tasks, those created within 12 hours of each other being one run (a
 * run's creates left queued go out at the next ticks; two runs of the watch closer than that show as one run with
 * more tasks than rows).
 */
function runsOf(tasks: readonly ResearchTask[], domains: readonly string[]): number[][] {
  const runs: number[][] = [];
  for (const task of tasks) {
    if (!domains.some((domain) => task.brief === `Research ${domain}`)) continue;
    const at = Date.parse(task.created_at);
    const last = runs[runs.length - 1];
    if (last && at - last[last.length - 1] < 12 * HOUR) last.push(at);
    else runs.push([at]);
  }
  return runs;
}

/** Moves both clocks `hours` hours in steps of `step` hours, firing the due timers after each (a failed run throws). */
async function pass(world: Fleet, hours: number, step: number): Promise<void> {
  for (let passed = 0; passed < hours; passed += step) {
    await suite.control.advanceClock(step * HOUR);
    world.clock.advance(step * HOUR);
    for (const fired of world.project.triggers.fireDue()) expect(fired).toMatchObject({ ok: true });
  }
}

describe('a late watch run keeps the watch rhythm (issue 45, point 7)', () => {
  it('20 spreadsheets, six weekly watches, a 200-hour outage over their due runs: no watch runs twice a week', async () => {
    await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
    const world = await fleet(suite, 20, { rows: 3 });
    try {
      const start = world.clock.now();
      WATCHED.forEach((doc, i) => {
        const weekday = new Date(start + (i + 1) * DAY).getUTCDay();
        expect(watch(world.docs[doc], 3, weekday)).toMatchObject({ ok: true });
      });
      // Twelve hours on, the service is down for 200 hours, over every watch's first due run (the timers tick every
      // hour; through the outage, every four hours: each tick finds the service down). Then eight days.
      await pass(world, 12, 1);
      await suite.control.setFault({ route: '*', errorRate: 1, errorStatus: 503 });
      await pass(world, 200, 4);
      await suite.control.clearFaults();
      expect(await allTasks()).toEqual([]);
      await pass(world, 8 * 24, 1);

      // By the sandbox's task record: each watch's runs, each of its three rows paid once a run.
      const tasks = await allTasks();
      for (const doc of WATCHED) {
        const runs = runsOf(tasks, world.domains[doc]);
        expect(runs.every((run) => run.length === 3)).toBe(true);
        const starts = runs.map((run) => run[0]);
        // The late run went out when the service answered; the next one kept the rhythm.
        expect(starts.length).toBeGreaterThanOrEqual(1);
        for (let i = 1; i < starts.length; i++)
          expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(MIN_GAP_SHARE * WEEK);
        // None ran twice in one of its weeks (counted from its first run, to the nearest week).
        const weeks = starts.map((at) => Math.round((at - starts[0]) / WEEK));
        expect(new Set(weeks).size).toBe(weeks.length);
      }
      // Every watch ran: late, once, then in its rhythm (at most two runs each in these 17 days).
      expect(WATCHED.map((doc) => runsOf(tasks, world.domains[doc]).length).every((n) => n >= 1 && n <= 2)).toBe(true);
    } finally {
      await suite.control.clearFaults();
      await world.project.close();
    }
  });
});
