// Re-running rows another editor launched (issue 37, point 5), through the built bundle in the emulator against the
// sandbox, with two editors of one spreadsheet, each with their own Sheet Scout account: editor A launches research,
// editor B ticks "Re-run" over A's running rows. B is asked first, with whose tasks they are (from the document's
// properties, where only the add-in writes), and A's tasks
// stay on their rows until B answers yes. The re-run's results are written with every panel closed: by B's own timer
// when A's account may not read B's tasks (another organization), by A's timer or panel when it may; the ticks that
// write them spend nothing of anyone's (the sandbox's money record).
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { LaunchResponse, ResearchStatusDto } from '../../../../src/research/contract';
import type { LaunchRowsRequest } from '../../../../src/research/launch/launch-service';
import { sandboxSuite } from '../../harness';
import {
  advance,
  column,
  oracleCharges,
  oracleTotals,
  poll,
  sheetId,
  twoEditorsRuntime,
  EDITOR,
  REPORT_OUTPUT,
  USER,
} from '../harness';

const suite = sandboxSuite({ clock: 'manual' });
const A_TOKEN = 'sbx_pro_token';
const A_ACCOUNT = 'pro@sandbox.example.com';
const HOUR = 3_600_000;
const REQUEST = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };

let runtime: GasRuntime;

const launchAs = (user: string, request: Partial<LaunchRowsRequest>, rows: number[]) =>
  runtime.run<LaunchResponse>('launchResearch', [{ ...REQUEST, ...request, sheetId: sheetId(runtime), rows }], {
    kind: 'sidebar',
    user,
  });

/** The rows A's panel lists for A's records (by task id), in row order: their row, and whether they left it. */
function rowsOf(taskIds: string[], user = USER): Array<{ row: number | null; detached: boolean }> {
  const status = runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar', user });
  return taskIds
    .map((id) => {
      const found = status.rows.find((entry) => entry.taskId === id);
      return { row: found?.row ?? null, detached: found?.detached ?? true };
    })
    .sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
}

const taskIdsOf = async (token: string) => (await suite.control.tasks(token)).map((task) => task.id);

/** B's re-run of `rows` with "Re-run" ticked, answering yes to the question it is asked (none on older versions). */
function rerunAnsweringYes(rows: number[]): LaunchResponse {
  const asked = launchAs(EDITOR, { rerun: true }, rows);
  if (!asked.question) return asked;
  const launchers = [...new Set(asked.othersRunning.map((entry) => entry.launchedBy ?? ''))];
  return launchAs(EDITOR, { rerun: true, again: true, replacing: launchers }, asked.question.rows);
}

/**
 * B's rows as the ledger places B's tasks (read without asking the service: no tick), each row's Status beside what
 * B's money record charged for the task written there.
 */
async function rowsAsCharged(token: string): Promise<Array<{ row: number | null; shown: string; charged: string }>> {
  const charged = await oracleCharges(suite, token);
  const status = runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar', user: EDITOR });
  const statuses = column(runtime, 'Status');
  return status.rows
    .filter((entry) => entry.taskId !== null && charged.has(entry.taskId) && !entry.detached)
    .sort((a, b) => (a.row ?? 0) - (b.row ?? 0))
    .map((entry) => ({
      row: entry.row,
      shown: entry.row === null ? '' : statuses[entry.row - 2],
      charged: `Done (${charged.get(entry.taskId as string)} credits)`,
    }));
}

/** B's re-run is in rows 2 and 3, each showing what B's account was charged for it. */
async function expectWrittenAsCharged(token: string): Promise<void> {
  const rows = await rowsAsCharged(token);
  expect(rows.map((entry) => entry.row)).toEqual([2, 3]);
  expect(rows.map((entry) => entry.shown)).toEqual(rows.map((entry) => entry.charged));
}

/** What A's account (the pro token) and B's (`bToken`) reserved, by the sandbox's money record. */
async function reservedBy(bToken: string): Promise<{ a: number; b: number }> {
  return { a: (await oracleTotals(suite, A_TOKEN)).reserved, b: (await oracleTotals(suite, bToken)).reserved };
}

/** Two rows launched by A, then re-run by B answering yes: each account reserved the two tasks it launched. */
async function launchedAndRerun(bToken: string, addOn: boolean): Promise<{ a: number; b: number }> {
  runtime = await twoEditorsRuntime(suite, 2, bToken, addOn);
  expect(launchAs(USER, {}, [2, 3])).toMatchObject({ ok: true, created: 2 });
  expect(rerunAnsweringYes([2, 3])).toMatchObject({ ok: true, created: 2 });
  const reserved = await reservedBy(bToken);
  expect(reserved).toEqual({ a: 20, b: 20 });
  return reserved;
}

describe('a re-run over rows another editor launched (integration, two editors)', () => {
  it("asks first and names whose tasks they are; A's tasks stay on their rows until B answers yes", async () => {
    runtime = await twoEditorsRuntime(suite, 3, 'sbx_rival_token', true);
    expect(launchAs(USER, {}, [2, 3])).toMatchObject({ ok: true, created: 2 });
    const aTasks = await taskIdsOf(A_TOKEN);

    // B's own row first: B's launch, and B's re-run of it, ask nothing.
    expect(launchAs(EDITOR, {}, [4])).toMatchObject({ ok: true, created: 1 });
    expect(launchAs(EDITOR, { rerun: true }, [4])).toMatchObject({ ok: true, created: 1, othersRunning: [] });

    const asked = launchAs(EDITOR, { rerun: true }, [2, 3]);
    expect(asked).toMatchObject({
      ok: true,
      created: 0,
      othersRunning: [
        { row: 2, launchedBy: A_ACCOUNT },
        { row: 3, launchedBy: A_ACCOUNT },
      ],
      question: { rows: [2, 3], perRow: 10, limit: null },
    });
    expect(asked.message).toMatch(/2 running, launched by another editor/);
    // Nothing was sent on B's account for A's rows, and A's tasks are still A's rows'.
    expect(await taskIdsOf('sbx_rival_token')).toHaveLength(2);
    expect(rowsOf(aTasks)).toEqual([
      { row: 2, detached: false },
      { row: 3, detached: false },
    ]);
    // An answer about someone else's tasks is no answer: asked again, nothing detached or sent.
    expect(launchAs(EDITOR, { rerun: true, again: true, replacing: ['someone@else.example'] }, [2, 3])).toMatchObject({
      created: 0,
      othersRunning: [{ row: 2, launchedBy: A_ACCOUNT }, { row: 3 }],
    });
    expect(rowsOf(aTasks)).toEqual([
      { row: 2, detached: false },
      { row: 3, detached: false },
    ]);

    // Yes, naming A: the re-run starts on B's account, and A's tasks leave the rows (they stay in A's records).
    expect(launchAs(EDITOR, { rerun: true, again: true, replacing: [A_ACCOUNT] }, [2, 3])).toMatchObject({
      ok: true,
      created: 2,
    });
    expect(rowsOf(aTasks).map((entry) => entry.detached)).toEqual([true, true]);
    expect(await taskIdsOf('sbx_rival_token')).toHaveLength(4);
  });

  it("another organization's re-run is written by its payer's timer with every panel closed", async () => {
    const reserved = await launchedAndRerun('sbx_rival_token', true);
    // Every panel closed: only the timers run (hourly, an installed add-on's).
    for (let hour = 0; hour < 2; hour++) {
      await advance(suite, runtime, HOUR);
      for (const fired of runtime.triggers.fireDue()) expect(fired).toMatchObject({ ok: true });
    }
    await expectWrittenAsCharged('sbx_rival_token');
    // Writing them spent nothing more of either account.
    expect(await reservedBy('sbx_rival_token')).toEqual(reserved);
  });

  it("a colleague's re-run is written by A's panel and A's timer, B's panel closed, B's money unchanged", async () => {
    const reserved = await launchedAndRerun('sbx_pro2_token', false);
    // A's panel polls (B's is closed), then A's timer runs: each as A, on A's token.
    await advance(suite, runtime, 30_000);
    poll(runtime, { user: USER });
    await advance(suite, runtime, 60_000);
    runtime.run('sheetScoutTimer', [], { kind: 'trigger', user: USER });
    await expectWrittenAsCharged('sbx_pro2_token');
    expect(await reservedBy('sbx_pro2_token')).toEqual(reserved);
  });
});
