// =COMPANY_LOOKUP over 2,000 unique domains through the bundle in the emulator (Google's cache rule: 1,000 items, 900
// kept after an eviction) against the sandbox with latency, so the first calculation leaves rows Pending and 100
// domains answer 202 first: "Refresh pending lookups" completes it in at most 3 refreshes, no company is fetched
// twice once answered, and a recalculation afterwards sends nothing.
import { fillColumn, formulasSuite, values } from './helpers';
import type { SeededCompany } from '../../../dev/sandbox/control-client';

const suite = formulasSuite({ clock: 'manual' });

const UNIQUE = 2000;
const NOT_YET_ENRICHED = 100;
/** Per lookup: a fetchAll of 50 takes this long, so one 20-second calculation reaches about 1,200 of the 2,000. */
const LATENCY_MS = 800;
const UNSETTLED = /^(Pending|Enriching)/;

/** Deterministic interleaving of the not-yet-enriched companies among the others. */
function interleaved(ready: SeededCompany[], waiting: SeededCompany[]): SeededCompany[] {
  const out = [...ready];
  waiting.forEach((company, i) => out.splice((i * 37) % out.length, 0, company));
  return out;
}

describe('=COMPANY_LOOKUP over more companies than the cache has items', () => {
  it('completes through "Refresh pending lookups" in at most 3 refreshes, then recalculates without a request', async () => {
    const list = interleaved(
      await suite.control.companies(UNIQUE - NOT_YET_ENRICHED, true),
      await suite.control.companies(NOT_YET_ENRICHED, false),
    );
    const runtime = suite.open('sbx_pro_token', UNIQUE + 100);
    fillColumn(
      runtime,
      'A',
      2,
      list.map((company) => company.domain),
    );
    await suite.control.setFault({ route: 'lookup', latencyMs: LATENCY_MS });

    runtime.userEdit('B2', `=COMPANY_LOOKUP(A2:A${UNIQUE + 1}, "company_name,domain")`);
    const unsettled = () => values(runtime, `B2:B${UNIQUE + 1}`).filter((row) => UNSETTLED.test(String(row[0]))).length;
    const pendingAfterFirst = values(runtime, `B2:B${UNIQUE + 1}`).filter((row) =>
      String(row[0]).startsWith('Pending'),
    ).length;
    expect(pendingAfterFirst).toBeGreaterThan(0);

    let refreshes = 0;
    while (unsettled() > 0 && refreshes < 5) {
      // A minute passes at the service: enrichments started by a 202 finish.
      await suite.control.advanceClock(60_000);
      runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
      refreshes++;
    }
    expect(unsettled()).toBe(0);
    expect(refreshes).toBeLessThanOrEqual(3);
    expect(values(runtime, `B2:C${UNIQUE + 1}`)).toEqual(list.map((company) => [company.name, company.domain]));

    // Each company was fetched until it answered once: the only repeats follow a 202.
    const lookups = runtime.httpLog.filter((entry) => entry.url.includes('/v1/companies/'));
    const accepted = lookups.filter((entry) => entry.status === 202).length;
    expect(accepted).toBeGreaterThanOrEqual(NOT_YET_ENRICHED);
    expect(lookups).toHaveLength(UNIQUE + accepted);
    expect(runtime.cache.document.keys().length).toBeLessThanOrEqual(300);

    const sent = runtime.counters.urlFetch.total;
    runtime.open();
    runtime.recalculate();
    expect(runtime.counters.urlFetch.total).toBe(sent);
    expect(values(runtime, `B2:C${UNIQUE + 1}`)).toEqual(list.map((company) => [company.name, company.domain]));
  }, 90_000);
});
