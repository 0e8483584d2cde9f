// An account watch's run cut short by the execution limit while it writes the watch's record (issue 49): through the
// built bundle, the emulator and the sandbox over HTTP. A first run, uncut, finds the service calls of the run's
// execution that write the hidden records sheet or its fingerprints in the document's properties; then, for each of
// those calls and the two calls on either side, a document as it was is cut there. Every one resumes at the next ticks:
// the run finishes with each row researched once, as the service charged it, and the watch is never read as "changed
// outside Sheet Scout" (which would stop it). Every 30th call between the run's first and last writes is cut too.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { OutputRequest, WatchAnswer } from '../../../../src/research/contract';
import { RECORD_VALUES_KEY, RECORDS_SHEET } from '../../../../src/shared/storage/record-sheet';
import { FIRST_LOOK } from '../../../../src/research/watch/watch';
import { sandboxSuite } from '../../harness';
import { advance, column, oracleTotals, poll, runtimeFor, tick, weeklyWatch } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });
const ROWS = 3;
const OUTPUT: OutputRequest = {
  kind: 'fields',
  statusHeader: 'Status',
  fields: [{ name: 'employee_count', type: 'string', required: true, evidence: false }],
  schemaText: '',
  columns: {},
};

/** A document with a confirmed weekly watch of its rows, at the time of its first run. */
async function dueWatch(): Promise<GasRuntime> {
  await suite.control.reset();
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
  const companies = await suite.control.companies(ROWS);
  const runtime = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
  const save = (confirmed: number | null) =>
    runtime.run<WatchAnswer>('saveResearchWatch', [weeklyWatch(runtime, ROWS, OUTPUT, confirmed)], { kind: 'sidebar' });
  const saved = save(save(null).confirm?.creditsPerRun ?? null);
  await advance(suite, runtime, (saved.watch?.nextRunAt as number) - runtime.clock.now());
  return runtime;
}

/** Runs the timer once; the numbers of its service calls that changed the records sheet or its fingerprints. */
function recordWrites(runtime: GasRuntime): number[] {
  const records = () =>
    JSON.stringify([
      runtime.spreadsheet.sheet(RECORDS_SHEET).getValues(),
      runtime.properties.document.get(RECORD_VALUES_KEY),
    ]);
  let seen = records();
  let calls = 0;
  const writes: number[] = [];
  // The hook runs before call `index`: what changed since the previous hook, call index - 1 wrote.
  const look = (index: number) => {
    const now = records();
    if (now !== seen) writes.push(index - 1);
    seen = now;
  };
  runtime.run('sheetScoutTimer', [], { kind: 'trigger', onServiceCall: ({ index }) => look((calls = index)) });
  look(calls + 1);
  return writes;
}

/** Ticks (a panel's poll every 20 s) until the run's tasks are settled. */
async function settle(runtime: GasRuntime): Promise<void> {
  for (let step = 0; step < 60 && poll(runtime).pending > 0; step++) {
    await advance(suite, runtime, 20_000);
    tick(runtime);
  }
  expect(poll(runtime).pending).toBe(0);
}

/** What the watch's panel says of its last run. */
const lastRun = (runtime: GasRuntime) =>
  runtime.run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar' }).watch?.lastRun?.text;

/** The service calls of a first run that write the records sheet (two commits: the run marked started, then done). */
async function writesOfRun(): Promise<number[]> {
  const writes = recordWrites(await dueWatch());
  expect(writes.length).toBeGreaterThanOrEqual(4);
  return writes;
}

/** Cuts the first run of a new document at each of `cuts`; each resumes and finishes as an uncut run would. */
async function cutAndResume(cuts: number[]): Promise<void> {
  for (const killAtServiceCall of cuts) {
    const runtime = await dueWatch();
    expect(() => runtime.run('sheetScoutTimer', [], { kind: 'trigger', killAtServiceCall })).toThrow(
      'Exceeded maximum execution time',
    );
    tick(runtime);
    await settle(runtime);
    const { charged } = await oracleTotals(suite);
    expect({ killAtServiceCall, lastRun: lastRun(runtime) }).toEqual({
      killAtServiceCall,
      lastRun: `Researched ${ROWS} rows: 0 changed, 0 failed, ${charged} credits charged`,
    });
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(ROWS);
    expect(column(runtime, 'Signals')).toEqual(Array(ROWS).fill(FIRST_LOOK));
  }
}

describe('account watch cut short while writing its record', () => {
  it('resumes after a cut at each service call within two of a write of the records sheet', async () => {
    const writes = await writesOfRun();
    const cuts = [...new Set(writes.flatMap((call) => [call - 2, call - 1, call, call + 1, call + 2]))];
    expect(cuts.length).toBeGreaterThanOrEqual(10);
    await cutAndResume(cuts);
  });

  it('resumes after a cut at every 30th service call between the first write of the records sheet and the last', async () => {
    const writes = await writesOfRun();
    const [first, last] = [writes[0], writes[writes.length - 1]];
    const cuts = Array.from({ length: Math.floor((last - first) / 30) }, (_, i) => first + 15 + 30 * i);
    expect(cuts.length).toBeGreaterThanOrEqual(5);
    await cutAndResume(cuts);
  });
});
