// An enrichment larger than what is left of the day's requests, through the built bundle, the emulator as a published
// add-on (hourly timer) and the sandbox over HTTP: the preview shows the plan before anything starts (requests
// needed, left today, days), the job does what fits, then waits instead of pausing, and the timer finishes it once
// requests leave the budget's 24-hour window, with every panel closed.
import { createManualClock, type ManualClock } from '../../../dev/gas-runtime';
import { addUsage, REQUEST_BUDGET_KEYS } from '../../../src/platform/request-budget';
import type { EnrichPreview, EnrichProgress } from '../../../src/enrichment/contract';
import { USER, runtimeFor, closeAfterTest, sandboxSuite } from '../harness';
import { start, LEADS } from './harness';

const HOUR = 60 * 60 * 1000;
const suite = sandboxSuite();

describe('an enrichment larger than the requests left today', () => {
  it('shows its plan first, waits for requests instead of pausing, and the timer finishes it the next day', async () => {
    const companies = await suite.control.companies(300, true);
    const clock = createManualClock();
    const rt = closeAfterTest(
      runtimeFor(suite.url, {
        sheets: { [LEADS]: [['Website'], ...companies.map((company) => [company.domain])] },
        clock,
        addOn: true,
      }),
    );
    // The user's other work used all but 120 of today's 18,000 requests.
    rt.properties.user(USER).set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, clock.now(), 18_000 - 120)));

    const preview = rt.run<EnrichPreview>('getEnrichmentPreview', [{ fields: ['company_name'] }], { kind: 'sidebar' });
    expect(preview).toMatchObject({ ok: true, plan: { requests: 300, leftToday: 120, dailyLimit: 18_000, days: 2 } });

    start(rt, { fields: ['company_name'] });
    let progress: EnrichProgress | null = null;
    for (let step = 0; step < 10 && !progress?.waitingForRequestsUntil; step++)
      progress = rt.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
    expect(progress).toMatchObject({ status: 'running', counts: { written: 120 } });
    const until = progress?.waitingForRequestsUntil as number;
    expect(until).toBeGreaterThan(clock.now() + 23 * HOUR);
    expect(rt.httpLog).toHaveLength(120);

    // The panel is closed: only the add-on's hourly timer runs.
    for (let hour = 0; hour < 30; hour++) {
      (rt.clock as ManualClock).advance(HOUR);
      for (const result of rt.triggers.fireDue()) if (!result.ok) throw new Error(String(result.error));
      const now = rt.run<EnrichProgress>('getEnrichmentProgress', [], { kind: 'sidebar' });
      expect(now.status).not.toBe('paused');
      if (now.status === 'done') break;
    }
    const done = rt.run<EnrichProgress>('getEnrichmentProgress', [], { kind: 'sidebar' });
    expect(done).toMatchObject({ status: 'done', counts: { written: 300 }, waitingForRequestsUntil: null });
    expect(clock.now()).toBeGreaterThanOrEqual(until);
    expect(rt.httpLog).toHaveLength(300);
    const names = rt.spreadsheet
      .sheet(LEADS)
      .getValues()
      .slice(1, 301)
      .map((row) => row[1]);
    expect(names).toEqual(companies.map((company) => company.name));
    expect(rt.triggers.list().filter((trigger) => trigger.handler === 'sheetScoutTimer')).toHaveLength(0);
  });
});
