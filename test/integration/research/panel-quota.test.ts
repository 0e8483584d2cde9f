// Open Research panels and Google's daily quota of property reads and writes (50,000 for a consumer account, shared
// by every feature of the add-in), through the built bundle, the emulator's quota meter and the sandbox on a slow
// manual clock (300 tasks stay pending the whole time): three panels polling every 15 s use under 1,800 property
// calls an hour, so a panel open all day takes less than half the quota.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { sandboxSuite } from '../harness';
import { advance, launch, poll, runtimeFor, REPORT_OUTPUT, USER } from './harness';

const PANEL_POLL_MS = 15_000;
// At this pace a medium task takes hours: every poll below has (nearly) all 300 tasks to read.
const suite = sandboxSuite({ clock: 'manual', speed: 0.002 });

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

/** Property calls an hour while `panels` panels poll every 15 s for `minutes` minutes (timer firing as it is due). */
async function propertyCallsPerHour(runtime: GasRuntime, panels: number, minutes: number): Promise<number> {
  const before = runtime.quotaUsage(USER).propertyOps;
  for (let step = 0; step < (minutes * 60_000) / PANEL_POLL_MS; step++) {
    for (let panel = 0; panel < panels; panel++) {
      await advance(suite, runtime, PANEL_POLL_MS / panels);
      expect(poll(runtime).pending).toBeGreaterThan(250);
    }
    runtime.triggers.fireDue();
  }
  return ((runtime.quotaUsage(USER).propertyOps - before) * 60) / minutes;
}

describe('open Research panels and the daily property quota', () => {
  it('three panels on 300 pending tasks use under 1,800 property calls an hour, one panel under 1,000', async () => {
    const companies = await suite.control.companies(300);
    const runtime = await runtimeFor(
      suite,
      [['Domain'], ...companies.map((company) => [company.domain])],
      'sbx_pro_token',
      {
        addOn: true,
      },
    );
    expect(
      launch(
        runtime,
        { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT },
        companies.map((_, i) => i + 2),
      ),
    ).toMatchObject({ ok: true, created: 300 });
    const three = await propertyCallsPerHour(runtime, 3, 10);
    const one = await propertyCallsPerHour(runtime, 1, 10);
    console.log(`property calls an hour: three panels ${three}, one panel ${one}`);
    expect(three).toBeLessThanOrEqual(1800);
    expect(one).toBeLessThanOrEqual(1000);
  });
});
