// =COMPANY_LOOKUP against a rate-limited service, through the built bundle on a manual clock that the sandbox's clock
// follows (its rate limit refills with the formulas' modelled time and waits, so every count is the same on any
// machine): one range of 60 domains at 20 requests a second fits in one calculation (the adaptive throughput paces
// after the first 429s and the refused calls are retried after Retry-After), every cell shows its company, and the
// next calculation in the document starts at the learned pace. A column of single-cell formulas, each its own
// execution, that starts behind the limit also ends with companies or a short message, never an error.
import { fillColumn, formulasSuite, values } from './helpers';

const suite = formulasSuite({ clock: 'sandbox' });

describe('formulas under a rate limit', () => {
  it('fills a 60-domain range at 20 requests a second within one calculation, and the next one starts paced', async () => {
    const all = await suite.control.companies(100, true);
    const [list, more] = [all.slice(0, 60), all.slice(60)];
    await suite.control.setRateLimit(20);
    const runtime = suite.open();
    fillColumn(
      runtime,
      'A',
      1,
      all.map((company) => company.domain),
    );
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A60, "company_name")');
    expect(values(runtime, 'B1:B60').map((row) => row[0])).toEqual(list.map((company) => company.name));
    // The first round of 50 meets the limit (20 pass); the refused ones are retried after Retry-After, paced.
    const refused = runtime.httpLog.filter((entry) => entry.status === 429).length;
    expect(refused).toBeGreaterThanOrEqual(30);
    expect(refused).toBeLessThanOrEqual(40);
    expect(await suite.control.lookupsServed()).toBe(60 + refused);
    // The document learned the pace: a second range a moment later meets far fewer 429s (only the rate's probing).
    const from = runtime.httpLog.length;
    runtime.userEdit('D61', '=COMPANY_LOOKUP(A61:A100, "company_name")');
    expect(values(runtime, 'D61:D100').map((row) => row[0])).toEqual(more.map((company) => company.name));
    const refusedAfter = runtime.httpLog.slice(from).filter((entry) => entry.status === 429).length;
    expect(refusedAfter).toBeLessThan(refused / 2);
    expect(refusedAfter).toBeLessThanOrEqual(10);
  });

  it('ends 30 single-cell formulas with a company or a short message under a limit of 1 a second', async () => {
    const list = await suite.control.companies(30, true);
    // Each formula's execution takes about a second of modelled time (its start, the first domain's unpacking, the
    // cache, the lookup), as long as the limit refills one request: another client of the same token has just used
    // the one request the bucket holds, so the formulas start behind the limit and stay close to it.
    await suite.control.setRateLimit(1);
    const runtime = suite.open();
    fillColumn(
      runtime,
      'A',
      1,
      list.map((company) => company.domain),
    );
    const used = await fetch(`${suite.url}/v1/companies/${encodeURIComponent(list[0].domain)}`, {
      headers: { Authorization: 'Bearer sbx_pro_token' },
    });
    expect(used.status).toBe(200);
    for (let row = 1; row <= 30; row++) runtime.userEdit(`B${row}`, `=COMPANY_LOOKUP(A${row}, "company_name")`);
    const shown = values(runtime, 'B1:B30').map((row) => String(row[0]));
    shown.forEach((text, index) =>
      expect([list[index].name, 'Rate limited, retry later', 'Pending: recalculate or use Enrich']).toContain(text),
    );
    expect(shown.filter((text, index) => text === list[index].name).length).toBeGreaterThan(0);
    expect(runtime.httpLog.filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
  });
});
