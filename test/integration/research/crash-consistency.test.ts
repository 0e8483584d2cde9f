// Crash consistency through the emulator: trigger ticks killed at random service calls (as Apps Script's execution
// limit would kill them) across 30 runs; the sheet always ends like an uninterrupted run's, and no task is created
// twice. The creates themselves happen in killed ticks too (they were refused with 503 at launch).
import type { GasRuntime } from '../../../dev/gas-runtime';
import { startSandbox, type SandboxStack } from '../harness';
import { advance, launch, poll, runtimeFor, SHEET, tick } from './harness';

let world: SandboxStack;
const ROWS = 4;

beforeAll(async () => {
  world = await startSandbox({ clock: 'manual' });
});

afterAll(async () => {
  await world.sandbox.stop();
});

function snapshot(runtime: GasRuntime): unknown {
  const sheet = runtime.spreadsheet.sheet(SHEET);
  return { values: sheet.getValues(), notes: sheet.getNotes() };
}

async function run(seed: number | null): Promise<{ snapshot: unknown; briefs: string[]; kills: number }> {
  await world.control.reset();
  const companies = await world.control.companies(ROWS);
  const runtime = await runtimeFor(world, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
  let random = seed ?? 1;
  const next = () => {
    random = (random * 48271) % 2147483647;
    return random / 2147483647;
  };
  await world.control.setFault({ route: 'tasks.create', errorRate: 1, errorStatus: 503 });
  const launched = launch(
    runtime,
    {
      template: 'Research {Domain}',
      depth: 'medium',
      output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null },
    },
    [2, 3, 4, 5],
  );
  expect(launched.queued).toBe(ROWS);
  await world.control.clearFaults();
  let kills = 0;
  for (let round = 0; round < 25; round++) {
    await advance(world, runtime, 3000);
    try {
      tick(runtime, seed === null ? {} : { killAtServiceCall: 1 + Math.floor(next() * 70) });
    } catch (error) {
      if (!/Exceeded maximum execution time/.test(String(error))) throw error;
      kills += 1;
    }
  }
  // A tick killed between marking a create as sent and its answer leaves a create nobody can confirm: after 30
  // minutes without it in the task list the row waits for the user, who sends it anyway (the list shows every task
  // here, so a create that did reach the service was adopted instead).
  await advance(world, runtime, 31 * 60000);
  tick(runtime);
  const unconfirmed = poll(runtime)
    .rows.filter((row) => row.state === 'unconfirmed')
    .map((row) => row.entryId);
  if (unconfirmed.length > 0) runtime.run('sendUnconfirmedResearchAnyway', [unconfirmed], { kind: 'sidebar' });
  for (let settle = 0; settle < 20 && poll(runtime).pending > 0; settle++) {
    await advance(world, runtime, 60000);
    tick(runtime);
  }
  expect(poll(runtime).pending).toBe(0);
  const result = {
    snapshot: snapshot(runtime),
    briefs: (await world.control.tasks('sbx_pro_token')).map((t) => t.brief),
    kills,
  };
  await runtime.close();
  return result;
}

it('30 runs with ticks killed at random points end like an uninterrupted run, with no task created twice', async () => {
  const reference = await run(null);
  expect(JSON.stringify(reference.snapshot)).toContain('Done (');
  expect(reference.briefs).toHaveLength(ROWS);
  let kills = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const outcome = await run(seed * 7919);
    expect(outcome.snapshot).toEqual(reference.snapshot);
    expect(outcome.briefs.sort()).toEqual([...reference.briefs].sort());
    kills += outcome.kills;
  }
  expect(kills).toBeGreaterThan(100);
}, 120000);
