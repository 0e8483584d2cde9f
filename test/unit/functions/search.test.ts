import { companySearch, similarCompanies, SEARCH_COLUMNS } from '../../../src/functions/search';
import { CELL_TEXT } from '../../../src/functions/cell-text';
import { harness } from './fakes';

function bodies(h: ReturnType<typeof harness>): Array<Record<string, unknown>> {
  return h.service.requests.map((r) => JSON.parse(r.payload ?? '{}') as Record<string, unknown>);
}

describe('COMPANY_SEARCH and SIMILAR', () => {
  it('spills a header row and `limit` companies (default 10) from one POST search', () => {
    const h = harness();
    const rows = companySearch('payment APIs', undefined, undefined, h.env());
    expect(rows[0]).toEqual(SEARCH_COLUMNS.map((c) => c.label));
    expect(rows).toHaveLength(11);
    expect(rows[1]).toEqual(['company0.com', 'Company 0', 'Does thing 0', 'Germany', 'Berlin', '11-50', 2000, 0.912]);
    expect(h.service.requests).toHaveLength(1);
    expect(h.service.requests[0].method).toBe('post');
    expect(bodies(h)[0]).toEqual({ q: 'payment APIs', pagination: { offset: 0, limit: 10 } });
  });

  it('answers Pending rather than start a search the slowest round seen could carry past 27 s', () => {
    const h = harness(15_000);
    companySearch('payment APIs', undefined, undefined, h.env());
    const env = h.env();
    h.clock.advance(13_000);
    expect(companySearch('fintech', undefined, undefined, env)).toEqual([[CELL_TEXT.pending]]);
    expect(h.service.requests).toHaveLength(1);
  });

  it('pages past 250 with parallel requests in one fetchAll and stops at the end of the results', () => {
    const h = harness();
    h.service.searchTotal = 600;
    const rows = companySearch('fintech', 1000, undefined, h.env());
    expect(h.service.fetchAllCalls).toBe(1);
    expect(bodies(h).map((b) => b.pagination)).toEqual([
      { offset: 0, limit: 250 },
      { offset: 250, limit: 250 },
      { offset: 500, limit: 250 },
      { offset: 750, limit: 250 },
    ]);
    expect(rows).toHaveLength(601);
  });

  it("keeps the pages before the plan's depth when a deeper page is refused", () => {
    const h = harness();
    h.service.searchTotal = 2000;
    h.service.searchDepth = 250;
    const rows = companySearch('fintech', 400, undefined, h.env());
    expect(rows).toHaveLength(251);
  });

  it('serves a recalculation from the cache with zero HTTP calls, even for a 2,000-row result', () => {
    const h = harness();
    h.service.searchTotal = 2000;
    const first = companySearch('fintech', 2000, undefined, h.env());
    const sent = h.service.requests.length;
    const again = companySearch('fintech', 2000, undefined, h.env());
    expect(again).toEqual(first);
    expect(h.service.requests.length).toBe(sent);
  });

  it('sends filters from a JSON string and from a key | value range as the nested wire form', () => {
    const h = harness();
    companySearch('crm', 5, '{"include.country": ["United States"], "range": {"founded": {"min": 2010}}}', h.env());
    companySearch(
      'crm',
      5,
      [
        ['key', 'value'],
        ['include.country', 'United States, Germany'],
        ['exclude.domains', 'https://www.hubspot.com/x'],
        ['include.size', '11-50'],
        ['range.founded.max', 2020],
      ],
      h.env(),
    );
    expect(bodies(h).map((b) => b.filters)).toEqual([
      { include: { country: ['United States'] }, range: { founded: { min: 2010 } } },
      {
        include: { country: ['United States', 'Germany'], size: ['11-50'] },
        exclude: { domains: ['hubspot.com'] },
        range: { founded: { max: 2020 } },
      },
    ]);
  });

  it('refuses bad arguments with a message naming the problem, sending nothing', () => {
    const h = harness();
    expect(companySearch('crm', 5, '{"include.industry": ["SaaS"]}', h.env())[0][0]).toMatch(
      /^Invalid filters: unknown key "include.industry"/,
    );
    expect(companySearch('crm', 5, [['include.size', 'tiny']], h.env())[0][0]).toMatch(
      /include.size "tiny" is not a size/,
    );
    expect(companySearch('crm', 5, '{oops', h.env())[0][0]).toMatch(/not valid JSON/);
    expect(companySearch('crm', 0, undefined, h.env())).toEqual([['limit must be a whole number from 1 to 2000']]);
    expect(companySearch('crm', 2001, undefined, h.env())).toEqual([['limit must be a whole number from 1 to 2000']]);
    expect(companySearch('', 5, undefined, h.env())[0][0]).toMatch(/^Enter a query/);
    expect(similarCompanies('nope', 5, undefined, h.env())).toEqual([['Invalid domain: "nope"']]);
    expect(similarCompanies([['a.com'], ['b.com']], 5, undefined, h.env())).toEqual([
      [
        'One company per SIMILAR: for lookalikes of a list, use Extensions > Sheet Scout > Company search > Similar to a list',
      ],
    ]);
    expect(h.service.requests).toHaveLength(0);
  });

  it('SIMILAR posts to the reference company path with its normalized domain', () => {
    const h = harness();
    const rows = similarCompanies('https://www.Stripe.com', 3, undefined, h.env());
    expect(rows).toHaveLength(4);
    expect(h.service.requests[0].url).toBe('https://service.test/v1/companies/stripe.com/similar');
    expect(h.service.requests[0].method).toBe('post');
  });

  it('answers one cell with the cause when the service fails, and does not cache it', () => {
    const h = harness();
    h.service.searchStatus = 401;
    expect(companySearch('crm', 5, undefined, h.env())).toEqual([['Token rejected: check it in Settings']]);
    h.service.searchStatus = null;
    expect(companySearch('crm', 5, undefined, h.env())).toHaveLength(6);
  });

  it('says so when nothing matches, and without a token asks for setup', () => {
    const h = harness();
    h.service.searchTotal = 0;
    expect(companySearch('nothing', 5, undefined, h.env())[1][0]).toBe(CELL_TEXT.noResults);
    expect(companySearch('crm', 5, undefined, h.env({ token: null }))).toEqual([[CELL_TEXT.setup]]);
  });
});
