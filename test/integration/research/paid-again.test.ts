// Issue 28: nothing is paid twice without a question. A row that already holds a finished task's result is not
// researched again by a plain launch (the answer lists it with when it finished, nothing is sent or reserved); the
// panel's "Research again" (`again`) launches it, once. Through the built bundle, the emulator and the sandbox.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { sandboxSuite } from '../harness';
import { column, launch, oracleTotals, runtimeFor, runUntilSettled, REPORT_OUTPUT } from './harness';

jest.setTimeout(60_000);

const suite = sandboxSuite({ clock: 'manual' });

let runtime: GasRuntime | null = null;

const REQUEST = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };

const serviceTasks = async () => (await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;

describe('research on rows that already hold a result (integration)', () => {
  it('asks before paying again: a finished row is left alone and listed with its date, then launched once when asked', async () => {
    const companies = await suite.control.companies(3);
    runtime = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    const rt = runtime;
    expect(launch(rt, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
    await runUntilSettled(suite, rt);
    const reports = column(rt, 'Report');
    expect(reports[0]).not.toBe('');
    const finishedBy = rt.clock.now();
    const tasksBefore = await serviceTasks();
    const creditsBefore = await suite.control.credits('sbx_pro_token');

    // Rows 2 and 3 are done; row 4 was never researched: only row 4 is sent.
    const plain = launch(rt, REQUEST, [2, 3, 4]);
    expect(plain).toMatchObject({ ok: true, created: 1, skippedRunning: [] });
    expect(plain.skippedDone.map((entry) => entry.row)).toEqual([2, 3]);
    for (const entry of plain.skippedDone) expect(entry.finishedAt).toBeLessThanOrEqual(finishedBy);
    expect(plain.message).toMatch(/2 already researched/);
    expect(await serviceTasks()).toBe(tasksBefore + 1);
    // The rows' results are untouched.
    expect(column(rt, 'Report').slice(0, 2)).toEqual(reports.slice(0, 2));

    // The same launch again: row 4 is running now, rows 2 and 3 still hold their results: nothing is sent.
    const repeated = launch(rt, REQUEST, [2, 3, 4]);
    expect(repeated).toMatchObject({ ok: true, created: 0, skippedRunning: [4] });
    expect(repeated.skippedDone.map((entry) => entry.row)).toEqual([2, 3]);
    expect(await serviceTasks()).toBe(tasksBefore + 1);

    // "Research again" for row 2: one new task, reserved once.
    const again = launch(rt, { ...REQUEST, again: true }, [2]);
    expect(again).toMatchObject({ ok: true, created: 1, skippedDone: [] });
    expect(await serviceTasks()).toBe(tasksBefore + 2);
    expect(await suite.control.credits('sbx_pro_token')).toBe(creditsBefore - 2 * 10);
    // By the money oracle: one reservation per task sent, four in all (the first launch's two, row 4, row 2 again).
    const oracle = await oracleTotals(suite);
    expect(oracle.reserved).toBe(4 * 10);
  });
});
