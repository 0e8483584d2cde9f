// An account watch's run cut short by the execution limit while it writes the watch's record (issue 49): through the
// built bundle, the emulator and the sandbox over HTTP. A first run, uncut, finds the service calls of the run's
// execution that write the hidden records sheet or its fingerprints in the document's properties; then, for each of
// those calls and the two calls on either side, a document as it was is cut there. Every one resumes at the next ticks:
// the run finishes with each row researched once, as the service charged it, and the watch is never read as "changed
// outside Sheet Scout" (which would stop it). Every 30th call between the run's first and last writes is cut too.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { OutputRequest, WatchAnswer, WatchRequest } from '../../../../src/research/contract';
import { RECORD_VALUES_KEY, RECORDS_SHEET } from '../../../../src/shared/storage/record-sheet';
import { FIRST_LOOK } from '../../../../src/research/watch/watch';
import { sandboxSuite } from '../../harness';
import { advance, column, oracleTotals, poll, runtimeFor, SHEET, tick } from '../harness';

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
  const request = (confirmedCreditsPerRun: number | null): WatchRequest => ({
    sheetId: runtime.spreadsheet.sheet(SHEET).sheetId,
    rows: companies.map((_, i) => i + 2),
    template: 'Research {Domain}',
    depth: 'medium',
    output: OUTPUT,
    cadence: 'weekly',
    weekday: 3,
    confirmedCreditsPerRun,
  });
  const save = (confirmed: number | null) =>
    runtime.run<WatchAnswer>('saveResearchWatch', [request(confirmed)], { kind: 'sidebar' });
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

describe('account watch cut short while writing its record', () => {
  it('resumes after a cut at each service call around each write of the records sheet', async () => {
    const uncut = await dueWatch();
    const writes = recordWrites(uncut);
    // The run marked started, then done: each a row write and its fingerprints' commit.
    expect(writes.length).toBeGreaterThanOrEqual(4);
    // Every call within two of a write, and every 30th call of the run between its first write and its last.
    const near = writes.flatMap((call) => [call - 2, call - 1, call, call + 1, call + 2]);
    const between = Array.from(
      { length: Math.floor((writes[writes.length - 1] - writes[0]) / 30) },
      (_, i) => writes[0] + 30 * i,
    );
    const cuts = [...new Set([...near, ...between])].sort((a, b) => a - b);
    expect(cuts.length).toBeGreaterThan(20);
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
  });
});
