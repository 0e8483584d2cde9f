// `npm run bench -- research`: research at size through the built bundle, the Apps Script emulator and the sandbox over
// HTTP, on a manual clock the cost model moves (bench/_modelled.ts), so every modelled figure repeats exactly:
//   a Research panel poll with 300 pending tasks (goal <= 1.0 s modelled): one when a tick is due and one between
//   ticks (each shows the ledger and never waits for the service), and the panel's tick that follows a due one (asks
//   the service, writes progress; at most every 15 s, less often after costly ticks; its answer follows the poll's),
//   a launch of 1,000 rows (goal <= 60 s modelled, never past 6 minutes in one execution),
//   a timer tick with 5,000 pending tasks (goal <= 60 s modelled).
// Each prints fetchAll calls, requests, sheet reads and writes, wall and modelled time.
import type { GasRuntime } from '../dev/gas-runtime';
import { startSandbox } from '../test/integration/harness';
import type { ResearchStatusDto } from '../src/research/contract';
import { advance, launch, poll, REPORT_OUTPUT, runtimeFor, tick } from '../test/integration/research/harness';
import { goal, markModelled, modelledBreakdown, modelledFields, modelledSince, seconds } from './_modelled';

const PANEL_PENDING = 300;
const LAUNCH_ROWS = 1000;
const TICK_PENDING = 5000;
const LAUNCH_REQUEST = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };

/** Runs `step` and prints its HTTP, sheet, wall and modelled figures. */
function measured<T>(
  runtime: GasRuntime,
  label: string,
  step: () => T,
): { value: T; figures: ReturnType<typeof modelledSince> } {
  runtime.counters.reset();
  const mark = markModelled(runtime.counters);
  const started = Date.now();
  const value = step();
  const wall = (Date.now() - started) / 1000;
  const figures = modelledSince(runtime.counters, mark);
  const { urlFetch, sheet } = runtime.counters;
  console.log(
    `${label}: ${urlFetch.total} requests in ${urlFetch.fetchAllCalls} fetchAll calls, sheet reads=${sheet.reads} ` +
      `writes=${sheet.writes}, ${wall.toFixed(2)} s wall, ${seconds(figures.ms)} s modelled`,
  );
  console.log(`  modelled time went to: ${modelledBreakdown(runtime.counters, 12)}`);
  return { value, figures };
}

export async function run(): Promise<void> {
  const world = await startSandbox({ clock: 'manual' });
  try {
    await world.control.setAccount('sandbox-pro', { credits: 1_000_000 });
    const companies = await world.control.companies(TICK_PENDING);
    const rows = [
      ['Company', 'Domain'],
      ...Array.from({ length: TICK_PENDING }, (_, i) => [
        companies[i % companies.length].name,
        companies[i % companies.length].domain,
      ]),
    ];
    const runtime = await runtimeFor(world, rows);
    const sheetRows = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

    // A panel poll over 300 pending tasks.
    launch(runtime, LAUNCH_REQUEST, sheetRows(2, PANEL_PENDING));
    await advance(world, runtime, 4000);
    const panelCall = (name: string) => runtime.run<ResearchStatusDto>(name, [], { kind: 'sidebar' });
    const due = measured(runtime, `panel poll when a tick is due, ${PANEL_PENDING} pending`, () =>
      panelCall('pollResearch'),
    );
    if (!due.value.tickDue) throw new Error('the poll did not ask for a tick');
    const ticking = measured(runtime, `the panel's tick that follows it`, () => panelCall('tickResearch'));
    const polled = measured(runtime, `panel poll between ticks, ${PANEL_PENDING} pending`, () => poll(runtime));

    // A launch of 1,000 rows (one execution).
    const launched = measured(runtime, `launch of ${LAUNCH_ROWS} rows`, () =>
      launch(runtime, LAUNCH_REQUEST, sheetRows(2 + PANEL_PENDING, LAUNCH_ROWS)),
    );
    if (launched.value.created !== LAUNCH_ROWS)
      throw new Error(`the launch created ${launched.value.created} tasks: ${JSON.stringify(launched.value)}`);

    // The rest of the 5,000, then one timer tick over all of them (started, none finished).
    for (let from = 2 + PANEL_PENDING + LAUNCH_ROWS; from < TICK_PENDING + 2; from += LAUNCH_ROWS)
      launch(runtime, LAUNCH_REQUEST, sheetRows(from, Math.min(LAUNCH_ROWS, TICK_PENDING + 2 - from)));
    await advance(world, runtime, 4000);
    const pendingBefore = poll(runtime).pending;
    const ticked = measured(runtime, `timer tick, ${pendingBefore} pending`, () => tick(runtime));
    await runtime.close();

    console.log(
      goal(`panel poll between ticks, ${PANEL_PENDING} pending (modelled)`, polled.figures.ms / 1000, 1, 's'),
    );
    console.log(
      goal(`panel poll when a tick is due, ${PANEL_PENDING} pending (modelled)`, due.figures.ms / 1000, 1, 's'),
    );
    console.log(goal(`launch of ${LAUNCH_ROWS} rows (modelled)`, launched.figures.ms / 1000, 60, 's'));
    console.log(goal(`launch's longest execution (modelled)`, launched.figures.maxExecutionMs / 1000 / 60, 6, 'min'));
    console.log(goal(`timer tick with ${pendingBefore} pending (modelled)`, ticked.figures.ms / 1000, 60, 's'));
    console.log(
      `research: poll_pending=${PANEL_PENDING} poll_modelled_s=${seconds(polled.figures.ms)} ` +
        `poll_tick_due_modelled_s=${seconds(due.figures.ms)} panel_tick_modelled_s=${seconds(ticking.figures.ms)} ` +
        `launch_rows=${LAUNCH_ROWS} launch_${modelledFields(launched.figures)} ` +
        `tick_pending=${pendingBefore} tick_modelled_s=${seconds(ticked.figures.ms)}`,
    );
  } finally {
    await world.sandbox.stop();
  }
}
