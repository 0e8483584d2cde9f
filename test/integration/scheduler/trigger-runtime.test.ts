// The user's daily trigger runtime (90 minutes on a consumer account, shared by every script they use), through the
// built bundle in the emulator's published add-on mode against the sandbox, on a manual clock the cost model moves:
// Sheet Scout's timers keep to their share (src/scheduler/runtime-budget.ts). With the share spent, a timer run sends
// nothing and keeps the work and the timer; the panel says when it resumes; once the hours leave the window the same
// timer writes every row. A run with little of the share left stops its work there and records what it used.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { startSandbox, type SandboxStack } from '../harness';
import { advance, column, launch, poll, REPORT_OUTPUT, runtimeFor, USER } from '../research/harness';
import { runtimeFor as commonRuntime } from '../harness';
import { LEADS, start } from '../enrichment/harness';
import { createManualClock } from '../../../dev/gas-runtime';
import type { EnrichProgress } from '../../../src/enrichment/contract';
import { TIMER_RUNTIME_KEY, TIMER_RUNTIME_SHARES } from '../../../src/scheduler/runtime-budget';

const HOUR = 60 * 60_000;
let world: SandboxStack;
let runtime: GasRuntime | undefined;

beforeAll(async () => {
  // Research at a tenth of a percent of the sandbox's pace: tasks take hours, as deep real ones can.
  world = await startSandbox({ clock: 'manual', speed: 0.001 });
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});
afterAll(async () => {
  await world.sandbox.stop();
});

const timers = (rt: GasRuntime) => rt.triggers.list().filter((t) => t.eventType === 'CLOCK');

async function launchedDocument(rowCount: number): Promise<GasRuntime> {
  const companies = await world.control.companies(rowCount, true);
  const rows = [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])];
  const rt = (runtime = await runtimeFor(world, rows, 'sbx_pro_token', { addOn: true }));
  const rowNumbers = rows.slice(1).map((_, i) => i + 2);
  expect(
    launch(rt, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, rowNumbers),
  ).toMatchObject({ ok: true, created: rowCount });
  return rt;
}

describe("the user's daily trigger runtime (integration, add-on mode)", () => {
  it('a timer run with the share spent sends nothing, keeps the work and the timer, and the panel says when it resumes', async () => {
    const rt = await launchedDocument(3);
    // Other documents' timers used the share an hour ago.
    const hour = Math.floor(rt.clock.now() / HOUR) - 1;
    rt.properties.user(USER).set(TIMER_RUNTIME_KEY, JSON.stringify({ [hour]: TIMER_RUNTIME_SHARES.consumer.shareMs }));

    await advance(world, rt, HOUR);
    const sentBefore = rt.counters.urlFetch.total;
    expect(rt.triggers.fireDue()).toEqual([expect.objectContaining({ handler: 'sheetScoutTimer', ok: true })]);
    expect(rt.counters.urlFetch.total).toBe(sentBefore);
    expect(column(rt, 'Status').every((status) => /^(Queued|Researching)/.test(status))).toBe(true);
    expect(timers(rt)).toHaveLength(1);

    // An open panel still moves the work (its ticks are not trigger runtime) and says when the timer resumes.
    const status = poll(rt);
    expect(status.timer?.problem).toMatch(
      /daily time for timers is used up: with every panel closed, it resumes in about \d+ h/,
    );

    // A day later the spent hour has left the window: the same timer writes every row.
    await advance(world, rt, 24 * HOUR);
    rt.triggers.fireDue();
    expect(column(rt, 'Status').every((status) => status.startsWith('Done'))).toBe(true);
    expect(timers(rt)).toHaveLength(0);
  });

  it('a timer run gets only what is left of the share: its work stops there and waits for the next run', async () => {
    const domains = Array.from({ length: 12_000 }, (_, i) => `unlisted-runtime-${i}.com`);
    // Ten requests at once (fetchAll's concurrency in the cost model): the job needs minutes of runtime, more than the
    // panel's start does, so the timer continues it.
    const rt = (runtime = commonRuntime(world.control.url, {
      sheets: { [LEADS]: [['Website'], ...domains.map((domain) => [domain])] },
      clock: createManualClock(await world.control.now()),
      addOn: true,
      behaviours: { fetchAllConcurrency: 10 },
    }));
    await world.control.setFault({ route: 'lookup', latencyMs: 100 });
    try {
      start(rt, { fields: ['company_name'] });
      expect(timers(rt)).toHaveLength(1);
      // 40 s of the share are left: this run may spend 30 s of them on work (the rest: its start, last round, bookkeeping).
      const leftMs = 40_000;
      const hour = Math.floor(rt.clock.now() / HOUR) - 1;
      const user = rt.properties.user(USER);
      user.set(TIMER_RUNTIME_KEY, JSON.stringify({ [hour]: TIMER_RUNTIME_SHARES.consumer.shareMs - leftMs }));

      await advance(world, rt, HOUR);
      const chargedBefore = rt.quotaUsage(USER).triggerRuntimeMs;
      expect(rt.triggers.fireDue()).toEqual([expect.objectContaining({ handler: 'sheetScoutTimer', ok: true })]);
      const charged = rt.quotaUsage(USER).triggerRuntimeMs - chargedBefore;
      // The whole job needs over a minute of runtime: the run stopped within what was left, with work done.
      expect(charged).toBeLessThanOrEqual(leftMs);
      const progress = rt.run<EnrichProgress>('getEnrichmentProgress', [], { kind: 'sidebar' });
      expect(progress.status).not.toBe('done');
      expect(progress.lookups).toBeGreaterThan(1000);
      expect(timers(rt)).toHaveLength(1);
      // What it used is recorded (with its overhead), so the next run finds the share spent.
      const usage = JSON.parse(user.get(TIMER_RUNTIME_KEY) ?? '{}') as Record<string, number>;
      expect(Object.values(usage).reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(
        TIMER_RUNTIME_SHARES.consumer.shareMs - leftMs + charged,
      );
    } finally {
      await world.control.clearFaults();
    }
  });
});
