// Creates whose answer is lost, through the built bundle, the emulator and the sandbox: the sandbox creates (and
// charges) the task, then drops the connection, and its task list lags behind. No task is ever sent twice on the
// absence of evidence; the launch says what happened; the user decides with Check again or Send anyway. The cap's
// figures are checked against the sandbox's money oracle.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { SpendingGuardAnswer, SpendingGuardDto, UnconfirmedActionResponse } from '../../../src/research/contract';
import type { OutputRequest } from '../../../src/research/launch/launch-request';
import { sandboxSuite } from '../harness';
import { advance, column, launch, poll, runtimeFor, tick } from './harness';

const suite = sandboxSuite({ clock: 'manual' });

let runtime: GasRuntime | null = null;
const output: OutputRequest = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };

/** Tasks the sandbox holds (its control API: the service's own list lags on purpose here). */
async function taskCount(): Promise<number> {
  return (await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;
}

async function ticksFor(ms: number, stepMs = 60_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += stepMs) {
    await advance(suite, runtime!, stepMs);
    tick(runtime!);
  }
}

describe('research creates whose answer was lost (integration)', () => {
  it('never sends a lost create again: the lagging list shows it later and it is adopted', async () => {
    const companies = await suite.control.companies(3);
    runtime = await runtimeFor(suite, [['Domain'], ...companies.map((c) => [c.domain])]);
    await suite.control.setFault({ route: 'tasks.create', dropAfterServeRate: 1, count: 3 });
    await suite.control.setFault({ route: 'tasks.list', listLagMs: 10 * 60_000 });
    const response = launch(runtime, { template: 'Research {Domain}', depth: 'medium', output }, [2, 3, 4]);
    expect(response.message).toBe(
      "3 sent but the service's answer was lost: checking whether they started (each may have reserved up to 10 " +
        'credits; none is sent again meanwhile)',
    );
    expect(column(runtime, 'Status')).toEqual(Array(3).fill('Unconfirmed: may have started, checking'));
    expect(await taskCount()).toBe(3);
    // Well past the old two-minute grace: still not sent again.
    await ticksFor(5 * 60_000);
    expect(await taskCount()).toBe(3);
    // The list catches up: the three tasks are adopted and run to the end, each paid once.
    await suite.control.clearFaults();
    await ticksFor(10 * 60_000);
    expect(column(runtime, 'Status').every((status) => /^Done \(\d+ credits\)$/.test(status))).toBe(true);
    expect(await taskCount()).toBe(3);
  });

  it('after 30 minutes without evidence the row waits for the user: Check again, then Send anyway', async () => {
    const [company] = await suite.control.companies(1);
    runtime = await runtimeFor(suite, [['Domain'], [company.domain]]);
    // The create is served then dropped, and the list never shows it (it lags by a day).
    await suite.control.setFault({ route: 'tasks.create', dropAfterServeRate: 1, count: 1 });
    await suite.control.setFault({ route: 'tasks.list', listLagMs: 24 * 3_600_000 });
    launch(runtime, { template: 'Research {Domain}', depth: 'medium', output }, [2]);
    await ticksFor(31 * 60_000);
    expect(column(runtime, 'Status')[0]).toBe(
      'Unconfirmed: may have started (Sheet Scout > Research: Check again or Send anyway)',
    );
    const status = poll(runtime);
    expect(status.pending).toBe(0);
    const [row] = status.rows;
    expect(row).toMatchObject({ state: 'unconfirmed', depth: 'medium' });
    const checked = runtime.run<UnconfirmedActionResponse>('checkUnconfirmedResearch', [[row.entryId]], {
      kind: 'sidebar',
    });
    expect(checked.message).toBe(
      '1 still not in your task list: may never have started (Send anyway pays again if it did)',
    );
    // It did start (the sandbox created it before dropping the answer): sending anyway pays for a second task,
    // which the panel says before the user confirms.
    expect(await taskCount()).toBe(1);
    const sent = runtime.run<UnconfirmedActionResponse>('sendUnconfirmedResearchAnyway', [[row.entryId]], {
      kind: 'sidebar',
    });
    expect(sent).toEqual({ ok: true, message: 'Sent 1 again' });
    expect(await taskCount()).toBe(2);
    await suite.control.clearFaults();
    await ticksFor(10 * 60_000);
    expect(column(runtime, 'Status')[0]).toMatch(/^Done \(\d+ credits\)$/);
    const after = poll(runtime);
    expect(after.rows.filter((r) => r.state === 'unconfirmed')).toHaveLength(0);
  });

  it('Send anyway keeps counting the creates that may have started: the cap holds, and says so before sending', async () => {
    const companies = await suite.control.companies(3);
    runtime = await runtimeFor(suite, [['Domain'], ...companies.map((c) => [c.domain])]);
    const rt = runtime;
    const setCap = (daily: number) =>
      rt.run<SpendingGuardAnswer>('setSpendingGuard', [{ daily, monthly: null }], { kind: 'sidebar' });
    const spentToday = () => rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' }).spentToday;
    /** What the service reserved today by the money oracle (unconfirmed creates count at their reservation). */
    const reserved = async () => (await suite.control.ledgerDay('sbx_pro_token')).reserved;
    setCap(30);
    // Three creates served and dropped; the list hides them (it lags by a day).
    await suite.control.setFault({ route: 'tasks.create', dropAfterServeRate: 1, count: 3 });
    await suite.control.setFault({ route: 'tasks.list', listLagMs: 24 * 3_600_000 });
    launch(rt, { template: 'Research {Domain}', depth: 'medium', output }, [2, 3, 4]);
    await ticksFor(31 * 60_000);
    const ids = poll(rt)
      .rows.filter((row) => row.state === 'unconfirmed')
      .map((row) => row.entryId);
    expect(ids).toHaveLength(3);
    expect(await taskCount()).toBe(3);
    expect(await reserved()).toBe(30);
    expect(spentToday()).toBe(await reserved());
    const send = () => rt.run<UnconfirmedActionResponse>('sendUnconfirmedResearchAnyway', [ids], { kind: 'sidebar' });
    // The three may have started: sending them again may reserve 30 more, and the cap has no room for it.
    expect(send()).toEqual({
      ok: false,
      message:
        "Over this spreadsheet's research spending cap: sending these 3 again may reserve 30 more credits (the first creates may have started and count), 0 left. Nothing was sent: raise the cap in Settings, or wait for the task list to show them (Check again).",
    });
    expect(await taskCount()).toBe(3);
    // With room for them: six tasks may exist, and the cap counts all six.
    setCap(60);
    expect(send()).toEqual({ ok: true, message: 'Sent 3 again' });
    expect(await taskCount()).toBe(6);
    expect(await reserved()).toBe(60);
    expect(spentToday()).toBe(await reserved());
    // So does the next launch (a re-run of row 2): no room.
    expect(launch(rt, { template: 'Research {Domain}', depth: 'medium', output, rerun: true }, [2])).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^Over this spreadsheet's research spending cap: 1 row reserves 10 credits, 0 left/,
      ),
    });
  });
});
