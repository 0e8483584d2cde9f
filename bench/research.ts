// `npm run bench -- research`: the cost of one poll tick with 300 pending research tasks, through the built bundle,
// the Apps Script emulator and the sandbox over HTTP (manual clock): fetchAll calls, requests, sheet reads and writes,
// wall time. Also prints the cost of the launch that created the 300 tasks.
import { startSandbox } from '../test/integration/harness';
import { advance, launch, runtimeFor, tick } from '../test/integration/research/harness';

const PENDING = 300;

export async function run(): Promise<void> {
  const world = await startSandbox({ clock: 'manual' });
  try {
    await world.control.setAccount('sandbox-pro', { credits: 100000 });
    const companies = await world.control.companies(PENDING);
    const rows = [
      ['Company', 'Domain'],
      ...Array.from({ length: PENDING }, (_, i) => [
        companies[i % companies.length].name,
        companies[i % companies.length].domain,
      ]),
    ];
    const runtime = await runtimeFor(world, rows);
    runtime.counters.reset();
    let started = Date.now();
    const launched = launch(
      runtime,
      {
        template: 'Research {Domain}',
        depth: 'medium',
        output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
      },
      rows.slice(1).map((_, i) => i + 2),
    );
    const launchSeconds = (Date.now() - started) / 1000;
    console.log(
      `launch: ${launched.created} tasks created, ${runtime.counters.urlFetch.fetchAllCalls} fetchAll calls, ${runtime.counters.urlFetch.total} requests, sheet reads=${runtime.counters.sheet.reads} writes=${runtime.counters.sheet.writes}, ${launchSeconds.toFixed(2)} s`,
    );
    // Let the tasks start so the tick has progress to write, but none has finished.
    await advance(world, runtime, 4000);
    runtime.counters.reset();
    started = Date.now();
    tick(runtime);
    const tickSeconds = (Date.now() - started) / 1000;
    const { urlFetch, sheet } = runtime.counters;
    const statuses = runtime.spreadsheet
      .sheet('Accounts')
      .getDisplayValues()
      .slice(1)
      .map((row) => row[2]);
    const researching = statuses.filter((status) => status.startsWith('Researching')).length;
    console.log(
      `tick: ${PENDING} pending polled, ${urlFetch.total} requests in ${urlFetch.fetchAllCalls} fetchAll calls, sheet reads=${sheet.reads} writes=${sheet.writes}, ${researching} rows show progress, ${tickSeconds.toFixed(2)} s`,
    );
    await runtime.close();
    console.log(
      `research: pending=${PENDING} fetchall_calls=${urlFetch.fetchAllCalls} sheet_writes=${sheet.writes} tick_s=${tickSeconds.toFixed(2)}`,
    );
  } finally {
    await world.sandbox.stop();
  }
}
