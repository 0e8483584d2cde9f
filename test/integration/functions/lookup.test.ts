// =COMPANY_LOOKUP through the emulator (formulas typed into cells, spilled by the runtime) against the sandbox, on a
// manual clock: the formulas see their modelled time, so the 30 s limit holds or not the same on any machine.
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { fillColumn, formulasSuite, values } from './helpers';

const suite = formulasSuite({ clock: 'manual' });

describe('=COMPANY_LOOKUP in a sheet', () => {
  it('spills one row per input: normalized, de-duplicated, blanks and invalid inputs in place', async () => {
    const [a, b] = await suite.control.companies(2, true);
    const runtime = suite.open();
    fillColumn(runtime, 'A', 1, [
      `https://www.${a.domain}/about`,
      '',
      a.domain.toUpperCase(),
      `sales@${b.domain}`,
      'not a domain',
    ]);
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A5, "domain,company_name,employee_count")');
    expect(values(runtime, 'B1:D5')).toEqual([
      [a.domain, a.name, a.employee_count],
      ['', '', ''],
      [a.domain, a.name, a.employee_count],
      [b.domain, b.name, b.employee_count],
      ['Invalid domain: "not a domain"', '', ''],
    ]);
    expect(await suite.control.lookupsServed()).toBe(2);
    expect(runtime.counters.urlFetch.fetchAllCalls).toBe(1);
  });

  it('makes zero HTTP calls when the file is reopened or an unrelated input changes, while cached', async () => {
    const list = await suite.control.companies(20, true);
    const runtime = suite.open();
    fillColumn(
      runtime,
      'A',
      1,
      list.map((c) => c.domain),
    );
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A20)');
    runtime.userEdit('J1', '=COMPANY_LOOKUP(A1, "company_name", TRUE)');
    expect(await suite.control.lookupsServed()).toBe(20);
    const before = runtime.counters.urlFetch.total;
    runtime.open();
    runtime.userEdit('A21', list[0].domain);
    expect(runtime.counters.urlFetch.total).toBe(before);
    expect(await suite.control.lookupsServed()).toBe(20);
    expect(values(runtime, 'J1:J2')).toEqual([['Company name'], [list[0].name]]);
    expect(values(runtime, 'B1:C1')).toEqual([[list[0].name, list[0].domain]]);
  });

  it('keeps each result beside its input after the inputs are sorted, with no new HTTP call', async () => {
    const list = await suite.control.companies(4, true);
    const runtime = suite.open();
    fillColumn(runtime, 'A', 2, [list[0].domain, list[1].domain, '', list[2].domain, list[3].domain]);
    runtime.userEdit('C2', '=COMPANY_LOOKUP(A2:A6, "domain")');
    const sent = runtime.counters.urlFetch.total;
    const sheet = runtime.spreadsheet.sheet();
    sheet.sortRows({ row: 2, column: 1, numRows: 5, numColumns: 1 }, [{ column: 1, ascending: false }]);
    runtime.recalculate();
    const inputs = values(runtime, 'A2:A6').map((row) => row[0]);
    expect(inputs).not.toEqual([list[0].domain, list[1].domain, '', list[2].domain, list[3].domain]);
    expect(values(runtime, 'C2:C6').map((row) => row[0])).toEqual(inputs);
    expect(runtime.counters.urlFetch.total).toBe(sent);
  });

  it('says so when a sort moved a range formula away from its inputs, and answers again once it is back', async () => {
    const list = await suite.control.companies(4, true);
    const runtime = suite.open();
    const domains = [list[0].domain, list[1].domain, list[2].domain, list[3].domain].sort();
    fillColumn(runtime, 'A', 2, domains);
    runtime.userEdit('B2', '=COMPANY_LOOKUP(A2:A5, "domain")');
    expect(values(runtime, 'B2:B5').flat()).toEqual(domains);
    // Sorting whole rows Z to A takes the formula's row 2 to row 5.
    const sheet = runtime.spreadsheet.sheet();
    sheet.sortRows({ row: 2, column: 1, numRows: 4, numColumns: 2 }, [{ column: 1, ascending: false }]);
    runtime.recalculate();
    expect(sheet.getFormulas('B5')).toEqual([['=COMPANY_LOOKUP(A2:A5, "domain")']]);
    expect(values(runtime, 'B5')).toEqual([
      [
        'Sorted away from A2:A5: its rows would not line up. Move it back to B2, or use one =COMPANY_LOOKUP(A5) per row',
      ],
    ]);
    runtime.userEdit('B5', '');
    runtime.userEdit('B2', '=COMPANY_LOOKUP(A2:A5, "domain")');
    expect(values(runtime, 'B2:B5').flat()).toEqual([...domains].reverse());
  });

  it('takes the headers the sheet shows as field names, and says which one a typo meant', async () => {
    const [a] = await suite.control.companies(1, true);
    const runtime = suite.open();
    fillColumn(runtime, 'A', 2, [a.domain]);
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A2, "Employees, Country, company NAME, hq_country", TRUE)');
    runtime.userEdit('B4', '=COMPANY_LOOKUP(A2, "Employes")');
    expect(values(runtime, 'B1:D2')).toEqual([
      ['Employees', 'Country', 'Company name'],
      [a.employee_count, a.hq_country, a.name],
    ]);
    expect(values(runtime, 'B4')).toEqual([['Unknown field: "Employes". Did you mean "Employees"?']]);
  });

  it('answers a blank input with a blank cell and an unknown domain with "Not found"', async () => {
    const runtime = suite.open();
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1)');
    runtime.userEdit('B2', '=COMPANY_LOOKUP("surely-no-such-company-here.com", "domain")');
    expect(values(runtime, 'B1:B2')).toEqual([[''], ['Not found']]);
  });

  it('without a shared token asks for setup and sends nothing', async () => {
    const runtime = suite.open(null);
    runtime.userEdit('B1', '=COMPANY_LOOKUP("stripe.com", "domain")');
    expect(values(runtime, 'B1')).toEqual([
      [
        'Formulas can\'t use a token: in Extensions > Sheet Scout > Settings tick "Let formulas in this spreadsheet use my token"',
      ],
    ]);
    expect(runtime.counters.urlFetch.total).toBe(0);
  });

  it('gives the same short text for a rejected token in every cell, and the breaker then stops calling', async () => {
    const list = await suite.control.companies(5, true);
    const runtime = suite.open('sbx_wrong_token');
    list.forEach((company, index) => runtime.userEdit(`A${index + 1}`, company.domain));
    for (let row = 1; row <= 5; row++) runtime.userEdit(`B${row}`, `=COMPANY_LOOKUP(A${row}, "domain")`);
    expect(values(runtime, 'B1:B5').flat()).toEqual(new Array(5).fill('Token rejected: check it in Settings'));
    // Three failing executions open the breaker: the last two cells were answered without HTTP.
    expect(await suite.control.lookupsServed()).toBe(3);
    expect(JSON.stringify(runtime.spreadsheet.sheet().getValues('A1:B5'))).not.toContain('sbx_wrong_token');
  });

  it('"Refresh pending lookups" re-runs cells that said "Token rejected" once a valid token is shared', async () => {
    const [a] = await suite.control.companies(1, true);
    const runtime = suite.open('sbx_wrong_token');
    runtime.userEdit('B1', `=COMPANY_LOOKUP("${a.domain}", "domain")`);
    runtime.userEdit('B2', '=COMPANY_LOOKUP("not a domain", "domain")');
    expect(values(runtime, 'B1')).toEqual([['Token rejected: check it in Settings']]);
    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, 'sbx_pro_token');
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B1:B2')).toEqual([[a.domain], ['Invalid domain: "not a domain"']]);
    expect(runtime.ui.toasts.at(-1)?.message).toBe('Refreshed 1 formula (1 lookup fetched)');
  });

  it('maps a persisting 429 to "Rate limited, retry later" and 503 to "Service unavailable, retry later"', async () => {
    const [a, b] = await suite.control.companies(2, true);
    const runtime = suite.open();
    await suite.control.setFault({
      route: 'lookup',
      errorRate: 1,
      errorStatus: 429,
      retryAfterSeconds: 1,
    });
    runtime.userEdit('B1', `=COMPANY_LOOKUP("${a.domain}", "domain")`);
    expect(values(runtime, 'B1')).toEqual([['Rate limited, retry later']]);
    expect(await suite.control.lookupsServed()).toBeGreaterThan(1);
    await suite.control.setFault({ route: 'lookup', errorRate: 1, errorStatus: 503 });
    runtime.userEdit('B2', `=COMPANY_LOOKUP("${b.domain}", "domain")`);
    expect(values(runtime, 'B2')).toEqual([['Service unavailable, retry later']]);
    // A transient failure is retried inside the budget and does not reach the cell.
    await suite.control.clearFaults();
    await suite.control.setFault({
      route: 'lookup',
      errorRate: 1,
      errorStatus: 503,
      count: 1,
    });
    runtime.userEdit('B3', `=COMPANY_LOOKUP("${b.domain}", "domain")`);
    expect(values(runtime, 'B3')).toEqual([[b.domain]]);
  }, 30_000);

  it('maps dropped connections to "Network error, retry later"', async () => {
    const [a] = await suite.control.companies(1, true);
    const runtime = suite.open();
    await suite.control.setFault({ route: 'lookup', dropRate: 1 });
    runtime.userEdit('B1', `=COMPANY_LOOKUP("${a.domain}", "domain")`);
    expect(values(runtime, 'B1')).toEqual([['Network error, retry later']]);
  }, 30_000);

  it('shows "Enriching..." on 202, and "Refresh pending lookups" later fills it in', async () => {
    const [pending] = await suite.control.companies(1, false);
    const [ready] = await suite.control.companies(1, true);
    const runtime = suite.open();
    fillColumn(runtime, 'A', 1, [ready.domain, pending.domain]);
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A2, "domain,company_name")');
    expect(values(runtime, 'B1:C2')).toEqual([
      [ready.domain, ready.name],
      ['Enriching... try again in a minute', ''],
    ]);
    const config = await suite.control.call<{ enrichmentDelayMs: number }>('GET', '/_sandbox/config');
    await suite.control.advanceClock(config.enrichmentDelayMs + 1000);
    const before = await suite.control.lookupsServed();
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B1:C2')).toEqual([
      [ready.domain, ready.name],
      [pending.domain, pending.name],
    ]);
    // Only the pending domain was asked again (prefetched by the menu, then served from the cache to the formula).
    expect((await suite.control.lookupsServed()) - before).toBe(1);
    expect(runtime.ui.toasts.at(-1)?.message).toBe('Refreshed 1 formula (1 lookup fetched)');
  });

  it("keeps one spreadsheet's formulas to 2,000 requests a day, apart from the user's own count, and says so past it", async () => {
    const list = await suite.control.companies(3, true);
    const runtime = suite.open();
    fillColumn(
      runtime,
      'A',
      1,
      list.map((c) => c.domain),
    );
    const hour = Math.floor(runtime.clock.now() / 3_600_000);
    runtime.properties.document.set('sheetscout.requests.formulas', JSON.stringify({ [hour]: 1_999 }));
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A3, "domain")');
    const spent =
      "This spreadsheet's formulas have used today's requests: use Formulas > Refresh pending lookups, or Enrich";
    expect(values(runtime, 'B1:B3').map((row) => row[0])).toEqual([list[0].domain, spent, spent]);
    expect(await suite.control.lookupsServed()).toBe(1);
    expect(JSON.parse(runtime.properties.document.get('sheetscout.requests.formulas')!)).toEqual({ [hour]: 2_000 });
    expect(runtime.properties.user().get('sheetscout.requests.usage')).toBeNull();
    // The menu's refresh runs as the user: it fetches the rest, counted as the user's own work.
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B1:B3').map((row) => row[0])).toEqual(list.map((c) => c.domain));
    expect(JSON.parse(runtime.properties.user().get('sheetscout.requests.usage')!)).toEqual({ [hour]: 2 });
  });

  it('stays inside the 30 s limit under heavy latency: what was fetched is shown, the rest says Pending', async () => {
    const list = await suite.control.companies(60, true);
    const runtime = suite.open();
    fillColumn(
      runtime,
      'A',
      1,
      list.map((c) => c.domain),
    );
    await suite.control.setFault({ route: 'lookup', latencyMs: 11_000 });
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A60, "domain")');
    // The formula's time: its modelled calls and the 11 s the service states per round (costs.ts).
    const formulaMs = runtime.counters.modelled.lastExecutionMs;
    const column = values(runtime, 'B1:B60').map((row) => row[0]);
    expect(column.slice(0, 50)).toEqual(list.slice(0, 50).map((c) => c.domain));
    expect(column.slice(50)).toEqual(new Array(10).fill('Pending: recalculate or use Enrich'));
    expect(formulaMs).toBeGreaterThanOrEqual(11_000);
    expect(formulaMs).toBeLessThan(30_000);
    // Recalculating fetches only the rest.
    await suite.control.clearFaults();
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B51:B60').map((row) => row[0])).toEqual(list.slice(50).map((c) => c.domain));
    expect(await suite.control.lookupsServed()).toBe(60);
  }, 45_000);

  it('"Freeze formulas to values" turns the selected formula and its spill into plain values', async () => {
    const list = await suite.control.companies(3, true);
    const runtime = suite.open();
    fillColumn(runtime, 'A', 1, [list[0].domain, '', list[2].domain]);
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A3, "domain,employee_count")');
    const sheet = runtime.spreadsheet.sheet();
    runtime.spreadsheet.selection = { sheet, rect: { row: 1, column: 2, numRows: 1, numColumns: 1 } };
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Freeze formulas to values');
    expect(
      sheet
        .getFormulas('B1:C3')
        .flat()
        .every((formula) => formula === ''),
    ).toBe(true);
    expect(values(runtime, 'B1:C3')).toEqual([
      [list[0].domain, list[0].employee_count],
      ['', ''],
      [list[2].domain, list[2].employee_count],
    ]);
    // Size buckets such as "11-50" stay text (not turned into dates); editing the input no longer re-runs anything.
    const before = runtime.counters.urlFetch.total;
    runtime.userEdit('A1', 'other.com');
    expect(runtime.counters.urlFetch.total).toBe(before);
    expect(runtime.ui.toasts.at(-1)?.message).toBe('Froze 1 formula (6 cells) to values');
  });
});
