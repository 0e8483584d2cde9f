// =COMPANY_SEARCH and =SIMILAR through the emulator against the sandbox: spill, paging, plan depth, filters from a
// JSON string and from a range, argument messages, and the cache on reopen.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { formulasSuite, values } from './helpers';

const suite = formulasSuite();

const HEADER = ['Domain', 'Company', 'Description', 'Country', 'City', 'Employees', 'Founded', 'Relevance'];

function spilled(runtime: GasRuntime, anchor: string, rows: number): unknown[][] {
  const column = anchor.replace(/\d+$/, '');
  const row = Number(anchor.slice(column.length));
  const lastColumn = String.fromCharCode(column.charCodeAt(0) + HEADER.length - 1);
  return values(runtime, `${anchor}:${lastColumn}${row + rows - 1}`);
}

describe('=COMPANY_SEARCH and =SIMILAR in a sheet', () => {
  it("answers the examples of the functions' help against the sandbox (issue 29)", async () => {
    const runtime = suite.open();
    runtime.userEdit('A1', '=SIMILAR("stripe.com")');
    runtime.userEdit('A20', '=COMPANY_SEARCH("payment APIs for marketplaces")');
    runtime.userEdit('K1', '=COMPANY_LOOKUP("stripe.com", "company_name")');
    const similar = spilled(runtime, 'A1', 11);
    expect(similar[0]).toEqual(HEADER);
    expect(similar.slice(1).every((row) => typeof row[0] === 'string' && (row[0] as string).includes('.'))).toBe(true);
    expect(spilled(runtime, 'A20', 2)[1][0]).toMatch(/\./);
    expect(values(runtime, 'K1')).toEqual([['Stripe']]);
  });

  it('spills a header and `limit` companies, and a reopened file makes no HTTP call', async () => {
    const runtime = suite.open();
    runtime.userEdit('A1', '=COMPANY_SEARCH("payment processing API", 5)');
    const rows = spilled(runtime, 'A1', 7);
    expect(rows[0]).toEqual(HEADER);
    expect(rows.slice(1, 6).every((row) => typeof row[0] === 'string' && (row[0] as string).includes('.'))).toBe(true);
    expect(rows[6].every((cell) => cell === '')).toBe(true);
    const before = runtime.counters.urlFetch.total;
    runtime.open();
    expect(runtime.counters.urlFetch.total).toBe(before);
    expect(spilled(runtime, 'A1', 7)).toEqual(rows);
  });

  it('applies filters given as a JSON string and as a key | value range', async () => {
    const runtime = suite.open();
    const sheet = runtime.spreadsheet.sheet();
    sheet.setValues('K1:L3', [
      ['key', 'value'],
      ['include.country', 'Germany'],
      ['include.size', '11-50, 51-200'],
    ]);
    runtime.userEdit('A1', '=COMPANY_SEARCH("software", 20, "{""include.country"": [""France""]}")');
    runtime.userEdit('A30', '=COMPANY_SEARCH("software", 20, K1:L3)');
    const french = spilled(runtime, 'A1', 21)
      .slice(1)
      .filter((row) => row[0] !== '');
    const german = spilled(runtime, 'A30', 21)
      .slice(1)
      .filter((row) => row[0] !== '');
    expect(french.length).toBeGreaterThan(0);
    expect(german.length).toBeGreaterThan(0);
    expect(french.every((row) => row[3] === 'France')).toBe(true);
    expect(german.every((row) => row[3] === 'Germany' && ['11-50', '51-200'].includes(row[5] as string))).toBe(true);
  });

  it('refuses a filter list holding null or numbers, naming the key, and reads an empty list as no restriction', async () => {
    const runtime = suite.open();
    runtime.spreadsheet
      .sheet()
      .setValues('Z1:Z3', [['{"include.city": [null]}'], ['{"include.country": [1, 2]}'], ['{"exclude.domains": []}']]);
    runtime.userEdit('A1', '=COMPANY_SEARCH("software", 5, Z1)');
    runtime.userEdit('A2', '=COMPANY_SEARCH("software", 5, Z2)');
    expect(values(runtime, 'A1')[0][0]).toBe(
      'Invalid filters: include.city must be a list of texts; null is not a text',
    );
    expect(values(runtime, 'A2')[0][0]).toBe(
      'Invalid filters: include.country must be a list of texts; 1 is not a text',
    );
    expect(runtime.counters.urlFetch.total).toBe(0);
    runtime.userEdit('A10', '=COMPANY_SEARCH("software", 5, Z3)');
    expect(values(runtime, 'A10:H10')[0]).toEqual(HEADER);
  });

  it('names a bad filter key without calling the service, and works once the range is fixed', async () => {
    const runtime = suite.open();
    runtime.spreadsheet.sheet().setValues('K1:L1', [['include.industry', 'SaaS']]);
    runtime.userEdit('A1', '=SIMILAR("stripe.com", 5, K1:L1)');
    expect(values(runtime, 'A1')[0][0]).toMatch(/^Invalid filters: unknown key "include.industry"\. Use include\.size/);
    expect(runtime.counters.urlFetch.total).toBe(0);
    const [reference] = await suite.control.companies(1, true);
    runtime.userEdit('K1', 'include.country');
    runtime.userEdit('L1', 'United States');
    runtime.userEdit('A1', `=SIMILAR("${reference.domain}", 5, K1:L1)`);
    expect(values(runtime, 'A1:H1')[0]).toEqual(HEADER);
    expect(
      values(runtime, 'D2:D6')
        .flat()
        .every((country) => country === 'United States'),
    ).toBe(true);
  });

  it('points =SIMILAR of a range to "Similar to a list", sending nothing', async () => {
    const runtime = suite.open();
    runtime.spreadsheet.sheet().setValues('A2:A3', [['stripe.com'], ['acme.io']]);
    runtime.userEdit('C2', '=SIMILAR(A2:A3)');
    expect(values(runtime, 'C2:C3')).toEqual([
      [
        'One company per SIMILAR: for lookalikes of a list, use Extensions > Sheet Scout > Company search > Similar to a list',
      ],
      [''],
    ]);
    expect(runtime.counters.urlFetch.total).toBe(0);
  });

  it('SIMILAR pages past 250 in one fetchAll and never lists the reference company', async () => {
    const [reference] = await suite.control.companies(1, true);
    const runtime = suite.open();
    runtime.userEdit('A1', `=SIMILAR("https://www.${reference.domain}/", 300)`);
    const rows = spilled(runtime, 'A1', 302);
    expect(rows.filter((row) => row[0] !== '')).toHaveLength(301);
    expect(rows.some((row) => row[0] === reference.domain)).toBe(false);
    expect(runtime.counters.urlFetch.fetchAllCalls).toBe(1);
    expect(runtime.counters.urlFetch.total).toBe(2);
  });

  it("stops at the free plan's search depth", async () => {
    const runtime = suite.open('sbx_free_token');
    runtime.userEdit('A1', '=COMPANY_SEARCH("software", 100)');
    const rows = spilled(runtime, 'A1', 30).filter((row) => row[0] !== '');
    expect(rows).toHaveLength(26);
  });

  it('answers "Not found" for an unknown reference company and the cause for a failing service', async () => {
    const runtime = suite.open();
    runtime.userEdit('A1', '=SIMILAR("surely-no-such-company-here.com")');
    expect(values(runtime, 'A1')).toEqual([['Not found']]);
    await suite.control.setFault({ route: 'search', errorRate: 1, errorStatus: 500 });
    runtime.userEdit('A3', '=COMPANY_SEARCH("software")');
    expect(values(runtime, 'A3')).toEqual([['Service unavailable, retry later']]);
  }, 20_000);
});
