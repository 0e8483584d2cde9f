// Whose account pays for a create a launch could not send at once (a 503 put it back in the queue), through the built
// bundle in the emulator against the sandbox, with two editors of one spreadsheet, each with their own Sheet Scout
// account: B's panel ticks while A's creates wait, and sends none of them (it would be B's token paying for A's
// launch); A's own timer, with every panel closed, sends them on A's account. The sandbox's money record says who
// paid.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { LaunchResponse, ResearchStatusDto } from '../../../../src/research/contract';
import { sandboxSuite } from '../../harness';
import { advance, column, sheetId, twoEditorsRuntime, EDITOR, REPORT_OUTPUT, USER } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });
const A_TOKEN = 'sbx_pro_token';
const B_TOKEN = 'sbx_rival_token';
const HOUR = 3_600_000;

let runtime: GasRuntime;

const tasksOf = async (token: string) => (await suite.control.tasks(token)).length;

describe("a launch's queued creates are sent on its launcher's account only (integration, two editors)", () => {
  it("B's ticks leave A's queued creates; A's timer sends them, and only A's account pays", async () => {
    runtime = await twoEditorsRuntime(suite, 3, B_TOKEN, true);

    // The service answers A's creates with 503: the launch keeps them queued, authorised, for a later tick.
    await suite.control.setFault({ route: 'tasks.create', errorRate: 1, errorStatus: 503 });
    const launched = runtime.run<LaunchResponse>(
      'launchResearch',
      [
        {
          template: 'Research {Domain}',
          depth: 'medium',
          output: REPORT_OUTPUT,
          sheetId: sheetId(runtime),
          rows: [2, 3, 4],
        },
      ],
      { kind: 'sidebar', user: USER },
    );
    expect(launched).toMatchObject({ ok: true, created: 0, queued: 3 });
    await suite.control.clearFaults();

    // B opens the Research panel: its ticks send nothing of A's, on B's account or any.
    await advance(suite, runtime, 60_000);
    runtime.run<ResearchStatusDto>('tickResearch', [], { kind: 'sidebar', user: EDITOR });
    expect(await tasksOf(B_TOKEN)).toBe(0);
    expect(await tasksOf(A_TOKEN)).toBe(0);
    expect((await suite.control.ledgerDay(B_TOKEN)).reserved).toBe(0);
    expect(column(runtime, 'Status').slice(0, 3)).toEqual(['Queued', 'Queued', 'Queued']);
    // Nor do they keep a timer of B's: A's timer serves them.
    expect(runtime.triggers.list().filter((trigger) => trigger.owner === EDITOR)).toHaveLength(0);

    // Every panel closed: A's timer sends A's creates on A's account, and writes the results.
    for (let hour = 0; hour < 3; hour++) {
      await advance(suite, runtime, HOUR);
      for (const result of runtime.triggers.fireDue()) if (!result.ok) throw new Error(String(result.error));
    }
    expect(await tasksOf(A_TOKEN)).toBe(3);
    expect(await tasksOf(B_TOKEN)).toBe(0);
    expect((await suite.control.ledgerDay(B_TOKEN)).reserved).toBe(0);
    expect(
      column(runtime, 'Status')
        .slice(0, 3)
        .every((status) => /^Done \(\d+ credits\)$/.test(status)),
    ).toBe(true);
  });
});
