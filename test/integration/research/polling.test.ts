// Research polling cost and the daily request budget through the built bundle, the emulator and the sandbox over
// HTTP (manual clock): a tick reads the task list (100 tasks per request) instead of one GET per task, a panel poll
// within 15 s of the previous tick (panel or timer) sends nothing, and a spent budget stops research without losing
// anything until the requests leave the 24-hour window.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { ResearchStatusDto } from '../../../src/research/contract';
import { addUsage, REQUEST_BUDGET_KEYS } from '../../../src/platform/request-budget';
import { sandboxSuite } from '../harness';
import { advance, column, launch, poll, runtimeFor, tick, USER, REPORT_OUTPUT } from './harness';

const TOKEN = 'sbx_pro_token';
const HOUR = 60 * 60 * 1000;
const suite = sandboxSuite({ clock: 'manual' });
let runtime: GasRuntime | null = null;

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100000 });
});

async function companyRows(count: number): Promise<Array<Array<string | number>>> {
  const companies = await suite.control.companies(count);
  return [
    ['Company', 'Domain'],
    ...Array.from({ length: count }, (_, i) => [
      companies[i % companies.length].name,
      companies[i % companies.length].domain,
    ]),
  ];
}

const pendingCount = (rt: GasRuntime) =>
  column(rt, 'Status').filter((status) => status === 'Queued' || status.startsWith('Researching')).length;

describe('research polling (integration)', () => {
  it("costs about finished + ceil(pending / 100) requests per tick, with other documents' tasks in the list", async () => {
    const rows = await companyRows(150);
    runtime = await runtimeFor(suite, rows);
    const response = launch(
      runtime,
      { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT },
      rows.slice(1).map((_, i) => i + 2),
    );
    expect(response.created).toBe(150);
    // Another document's tasks of the same account, newer than these: they cost list pages, they are not adopted.
    for (let i = 0; i < 40; i++)
      await suite.control.call(
        'POST',
        '/v1/deep_research_tasks',
        { brief: `Research elsewhere ${i}`, depth: 'medium' },
        TOKEN,
      );
    let pending = 150;
    let maxOver = -Infinity;
    for (let round = 0; round < 60 && pending > 0; round++) {
      await advance(suite, runtime, 20000);
      runtime.counters.reset();
      tick(runtime);
      const requests = runtime.counters.urlFetch.total;
      const after = pendingCount(runtime);
      const bound = pending - after + Math.ceil(pending / 100);
      maxOver = Math.max(maxOver, requests - bound);
      pending = after;
    }
    expect(pending).toBe(0);
    // The sandbox's list items carry finished reports: no task is read on its own.
    expect(maxOver).toBeLessThanOrEqual(0);
    expect(column(runtime, 'Status').every((status) => status.startsWith('Done') || status.startsWith('Failed'))).toBe(
      true,
    );
    expect(column(runtime, 'Report').filter((report) => report.startsWith('# ')).length).toBe(
      column(runtime, 'Status').filter((s) => s.startsWith('Done')).length,
    );
  });

  it('a panel poll within 15 s of the previous tick (timer or panel) shows the ledger without calling the service', async () => {
    const rows = await companyRows(5);
    runtime = await runtimeFor(suite, rows);
    launch(runtime, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3, 4, 5, 6]);
    await advance(suite, runtime, 5000);
    tick(runtime);
    const tickEnded = runtime.clock.now();
    runtime.counters.reset();
    const cached = poll(runtime);
    expect(runtime.counters.urlFetch.total).toBe(0);
    expect(cached).toMatchObject({ pending: 5, busy: false });
    // 12 s after the tick, plus the poll's own modelled time (about a second): within 15 s.
    await advance(suite, runtime, tickEnded + 12_000 - runtime.clock.now());
    poll(runtime);
    expect(runtime.counters.urlFetch.total).toBe(0);
    await advance(suite, runtime, tickEnded + 15_000 - runtime.clock.now());
    // Past 15 s the poll itself still sends nothing: it says a tick is due, and the panel's tickResearch asks.
    const due = runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' });
    expect(due).toMatchObject({ tickDue: true, pending: 5 });
    expect(runtime.counters.urlFetch.total).toBe(0);
    const ticked = runtime.run<ResearchStatusDto>('tickResearch', [], { kind: 'sidebar' });
    expect(ticked.tickDue).toBe(false);
    expect(runtime.counters.urlFetch.total).toBeGreaterThan(0);
    runtime.counters.reset();
    await advance(suite, runtime, 10000);
    poll(runtime);
    expect(runtime.counters.urlFetch.total).toBe(0);
  });

  it('refuses a launch that does not fit the requests left today, and a spent budget stops polling without losing anything', async () => {
    const rows = await companyRows(60);
    runtime = await runtimeFor(suite, rows);
    // 50 requests left of today's 18,000: 60 creates and their polls do not fit.
    const now = runtime.clock.now();
    runtime.properties.user(USER).set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, now, 18000 - 50)));
    runtime.counters.reset();
    const allRows = rows.slice(1).map((_, i) => i + 2);
    const refused = launch(runtime, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, allRows);
    expect(refused.ok).toBe(false);
    expect(refused.message).toBe(
      'Nothing was sent: research of 60 tasks sends 60 requests to start and about 7 more to collect the results, and ' +
        'Sheet Scout has 49 of its 18,000 daily requests left (Google allows 20,000 a day). Launch up to 42 tasks now, ' +
        'and the rest tomorrow.',
    );
    // Only the credits check was sent; no row shows anything.
    expect(runtime.counters.urlFetch.total).toBe(1);
    expect(await suite.control.tasks(TOKEN)).toHaveLength(0);
    expect(column(runtime, 'Status').filter(Boolean)).toEqual([]);
    expect(runtime.triggers.list().filter((t) => t.handler === 'sheetScoutTimer')).toHaveLength(0);

    // With 80 left the launch goes ahead; then the user's other work spends the rest of the day's budget.
    runtime.properties.user(USER).set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, now, 18000 - 80)));
    expect(
      launch(runtime, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, allRows),
    ).toMatchObject({ ok: true, created: 60 });
    runtime.properties.user(USER).set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, now, 18000)));
    await advance(suite, runtime, 60000);
    runtime.counters.reset();
    // A panel poll that ticks (none ran in the last 15 s) sends nothing and shows why.
    const status = poll(runtime);
    expect(runtime.counters.urlFetch.total).toBe(0);
    expect(status.requests).toMatchObject({ used: 18000, limit: 18000, spent: true });
    expect(status.requests?.message).toBe(
      "Sheet Scout has used its 18,000 requests for today (Google's daily limit is 20,000 per user): it continues tomorrow, " +
        'or raise the limit in Settings if you use Google Workspace',
    );
    expect(status.pending).toBe(60);
    expect(runtime.triggers.list().filter((t) => t.handler === 'sheetScoutTimer')).toHaveLength(1);

    // The next day every row gets its result.
    await advance(suite, runtime, 25 * HOUR);
    for (let round = 0; round < 30 && pendingCount(runtime) > 0; round++) {
      await advance(suite, runtime, 60000);
      tick(runtime);
    }
    expect(pendingCount(runtime)).toBe(0);
    expect(await suite.control.tasks(TOKEN)).toHaveLength(60);
    await advance(suite, runtime, 20000);
    const after = poll(runtime);
    expect(after.requests?.spent).toBe(false);
    expect(after.requests?.used).toBeLessThan(100);
  });
});
