// Issue 28: nothing is paid twice without a question. A row that already holds a finished task's result is not
// researched again by a plain launch (the answer lists it with when it finished, nothing is sent or reserved); the
// panel's "Research again" (`again`) launches it, once. Issue 36 item 10: over the spending cap, the question's figure
// is what answering yes launches (the rows that fit, at their reservation), and the answer launches exactly those.
// Through the built bundle, the emulator and the sandbox; credits checked against the sandbox's money record.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { SpendingGuardAnswer } from '../../../../src/research/contract';
import { sandboxSuite } from '../../harness';
import { column, companiesRuntime, launch, oracleTotals, runUntilSettled, REPORT_OUTPUT } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });

const REQUEST = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };

const serviceTasks = async () => (await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;

/** A sheet of `count` companies whose rows 2 and 3 hold their finished research (the rows past them none). */
async function researchedRows(count: number): Promise<GasRuntime> {
  const rt = await companiesRuntime(suite, count);
  expect(launch(rt, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
  await runUntilSettled(suite, rt);
  return rt;
}

describe('research on rows that already hold a result (integration)', () => {
  it('asks before paying again: a finished row is left alone and listed with its date, then launched once when asked', async () => {
    const rt = await researchedRows(3);
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

  it('over the spending cap, asks once with what fits, and the answer launches exactly those rows (issue 36 item 10)', async () => {
    const rt = await researchedRows(2);
    // Today's spending by the money oracle; the cap leaves 15 credits: one row of 10 fits, not two.
    const spent = (await suite.control.ledgerDay('sbx_pro_token')).charged;
    const capped = rt.run<SpendingGuardAnswer>('setSpendingGuard', [{ daily: spent + 15, monthly: null }], {
      kind: 'sidebar',
    });
    expect(capped).toMatchObject({ ok: true, guard: { left: 15 } });
    const tasksBefore = await serviceTasks();
    const reservedBefore = (await oracleTotals(suite)).reserved;

    // The panel's "Launch the first row that fits" over two researched rows: nothing is sent, and the one question
    // says what answering yes reserves: one row at 10 credits, the cap's 15 left leaving the other out.
    const expected = { rows: [2], perRow: 10, limit: { by: 'cap', left: 15 } };
    for (const fitToCap of [true, false]) {
      const asked = launch(rt, { ...REQUEST, fitToCap }, [2, 3]);
      expect(asked).toMatchObject({ ok: true, created: 0, question: expected });
      expect(asked.skippedDone.map((entry) => entry.row)).toEqual([2, 3]);
    }
    expect(await serviceTasks()).toBe(tasksBefore);

    // Yes: exactly that row is launched, without a second refusal, and reserved once.
    const answered = launch(rt, { ...REQUEST, again: true }, expected.rows);
    expect(answered).toMatchObject({ ok: true, created: 1, overCap: [], question: null });
    expect(await serviceTasks()).toBe(tasksBefore + 1);
    expect((await oracleTotals(suite)).reserved).toBe(reservedBefore + 10);
  });
});
