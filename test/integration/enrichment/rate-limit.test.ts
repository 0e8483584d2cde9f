// Bulk enrichment against a rate-limited service, through the built bundle in the emulator on a manual clock that
// the sandbox's clock follows (its rate limit refills with the job's modelled time and waits, so every count and
// duration is the same on any machine): the adaptive throughput learns the limit from the first 429s and paces under
// it, every row is written, no company is served twice, few calls are refused, and the next job in the same document
// starts at the learned pace.
import type { SandboxControl } from '../../../dev/sandbox/control-client';
import { startSandbox, runtimeFor, sandboxLinkedClock } from '../harness';
import { drive, sheetValues, start, LEADS } from './harness';
import type { SpawnedSandbox } from '../../../dev/sandbox/spawn';

const LIMIT = 20;
let sandbox: SpawnedSandbox;
let control: SandboxControl;

beforeAll(async () => {
  ({ sandbox, control } = await startSandbox({ clock: 'manual' }));
});

afterAll(async () => {
  await sandbox.stop();
});

it('learns the limit, writes every row, serves each company once and keeps 429s rare', async () => {
  await control.reset();
  const all = await control.companies(240, true);
  const companies = all.slice(0, 120);
  await control.setRateLimit(LIMIT);
  const rows = [['Website'], ...companies.map((company) => [company.domain])];
  const clock = sandboxLinkedClock(sandbox.url, await control.now());
  const runtime = runtimeFor(sandbox.url, { sheets: { [LEADS]: rows }, clock });
  try {
    const began = clock.now();
    start(runtime, { fields: ['company_name'] });
    const { progress } = await drive(runtime);
    const seconds = (clock.now() - began) / 1000;
    expect(progress.status).toBe('done');
    const names = sheetValues(runtime)
      .slice(1, 121)
      .map((row) => row[1]);
    expect(names).toEqual(companies.map((company) => company.name));

    const served = runtime.httpLog.filter((entry) => entry.status === 200).map((entry) => entry.url);
    expect(new Set(served).size).toBe(served.length);
    expect(served).toHaveLength(120);
    const refused = runtime.httpLog.filter((entry) => entry.status === 429).length;
    expect(refused).toBeLessThanOrEqual(0.1 * runtime.httpLog.length);
    // 120 calls at 20 a second (the first 20 in the bucket): at least 5 s of the job's time, and not much more than
    // the ideal 6 s.
    expect(seconds).toBeGreaterThanOrEqual(4.5);
    expect(seconds).toBeLessThan(12);

    // The document remembers the pace: a second job over 120 new rows starts paced and meets almost no 429.
    const more = all.slice(120);
    runtime.spreadsheet.sheet('Leads').setValues(
      `A122:A241`,
      more.map((company) => [company.domain]),
    );
    const before = runtime.httpLog.length;
    start(runtime, { fields: ['company_name'] });
    await drive(runtime);
    const second = runtime.httpLog.slice(before);
    expect(second.filter((entry) => entry.status === 200)).toHaveLength(120);
    expect(second.filter((entry) => entry.status === 429).length).toBeLessThanOrEqual(3);
    expect(
      sheetValues(runtime)
        .slice(121, 241)
        .map((row) => row[1]),
    ).toEqual(more.map((company) => company.name));
  } finally {
    await runtime.close();
    await clock.close();
  }
});
