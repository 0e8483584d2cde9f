// Research at account scale through the built bundle, the emulator as a published add-on (hourly timer, every panel
// closed) and the sandbox over HTTP: an account holding thousands of older tasks, and thousands made elsewhere after
// a launch, still gets every paid task of the launch written into its row, at a polling cost of about a request per
// 100 tasks that stand between the newest and the launched ones.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { sandboxSuite } from '../harness';
import { advance, column, launch, runtimeFor, REPORT_OUTPUT } from './harness';

jest.setTimeout(180_000);

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const suite = sandboxSuite({ clock: 'manual' });

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 1_000_000 });
});

async function accountRows(count: number): Promise<Array<Array<string | number>>> {
  const companies = await suite.control.companies(count);
  return [['Domain'], ...companies.map((company) => [company.domain])];
}

const timers = (runtime: GasRuntime) =>
  runtime.triggers.list().filter((trigger) => trigger.handler === 'sheetScoutTimer');

/** Lets the add-on's hourly timer run (panel closed) until no row is pending; returns the hours it took. */
async function hourlyUntilWritten(runtime: GasRuntime, maxHours: number): Promise<number> {
  for (let hour = 1; hour <= maxHours; hour++) {
    await advance(suite, runtime, HOUR);
    for (const result of runtime.triggers.fireDue()) if (!result.ok) throw new Error(String(result.error));
    if (column(runtime, 'Status').every((status) => status === '' || /^(Done|Failed)/.test(status))) return hour;
  }
  return Infinity;
}

describe('research at account scale (published add-on, panel closed)', () => {
  it('writes every task launched before thousands of tasks made elsewhere, and older history costs nothing', async () => {
    await suite.control.seedTasks(3000, { ageMs: DAY, spacingMs: 10_000 });
    const rows = await accountRows(150);
    const runtime = await runtimeFor(suite, rows, 'sbx_pro_token', { addOn: true });
    const launched = launch(
      runtime,
      { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT },
      rows.slice(1).map((_, i) => i + 2),
    );
    expect(launched.created).toBe(150);
    expect(timers(runtime)).toHaveLength(1);
    // Other spreadsheets and tools of the account create 2,500 tasks after the launch: they come first in the list.
    await advance(suite, runtime, 5 * 60_000);
    await suite.control.seedTasks(2500, { spacingMs: 100 });
    runtime.counters.reset();
    const hours = await hourlyUntilWritten(runtime, 4);
    expect(hours).toBe(1);
    expect(column(runtime, 'Status').filter((status) => status.startsWith('Done'))).toHaveLength(150);
    expect(column(runtime, 'Report').filter((report) => report.startsWith('# '))).toHaveLength(150);
    // One tick: the 27 list pages down to the launched tasks, and none of the history behind them.
    expect(runtime.counters.urlFetch.total).toBeLessThanOrEqual(29);
    await advance(suite, runtime, HOUR);
    runtime.triggers.fireDue();
    expect(timers(runtime)).toHaveLength(0);
  });

  it('writes all 2,500 rows of one launch (more than 20 list pages) and then removes the timer', async () => {
    const companies = await suite.control.companies(2500);
    const rows = [['Domain'], ...companies.map((company) => [company.domain])];
    const runtime = await runtimeFor(suite, rows, 'sbx_pro_token', { addOn: true });
    expect(
      launch(
        runtime,
        { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT },
        companies.map((_, i) => i + 2),
      ),
    ).toMatchObject({ created: 2500 });
    runtime.counters.reset();
    expect(await hourlyUntilWritten(runtime, 3)).toBe(1);
    expect(column(runtime, 'Status').filter((status) => status.startsWith('Done'))).toHaveLength(2500);
    // 25 list pages read the 2,500 tasks; nothing is read twice.
    expect(runtime.counters.urlFetch.total).toBeLessThanOrEqual(27);
    await advance(suite, runtime, HOUR);
    runtime.triggers.fireDue();
    expect(timers(runtime)).toHaveLength(0);
  });
});
