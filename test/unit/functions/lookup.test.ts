import { companyLookup, MAX_FORMULA_LOOKUPS } from '../../../src/functions/lookup';
import { CELL_TEXT } from '../../../src/functions/cell-text';
import { harness } from './fakes';

const DEFAULT_WIDTH = 7;

describe('COMPANY_LOOKUP', () => {
  it('returns one row of the default fields for a single domain, normalizing the input', () => {
    const h = harness();
    const rows = companyLookup('  https://www.Stripe.com/pricing ', undefined, undefined, h.env());
    expect(rows).toEqual([['stripe', 'stripe.com', '', 'United States', '', '', 2010]]);
    expect(h.service.lookups()).toEqual(['stripe.com']);
  });

  it('handles a range: blanks stay blank, duplicates are fetched once, e-mails become domains, trailing blanks are cut', () => {
    const h = harness();
    const rows = companyLookup(
      [['stripe.com'], [''], ['joe@STRIPE.com'], ['www.acme.io'], ['not a domain'], [''], ['']],
      'domain,company_name',
      true,
      h.env(),
    );
    expect(rows).toEqual([
      ['Domain', 'Company name'],
      ['stripe.com', 'stripe'],
      ['', ''],
      ['stripe.com', 'stripe'],
      ['acme.io', 'acme'],
      ['Invalid domain: "not a domain"', ''],
    ]);
    expect(h.service.lookups().sort()).toEqual(['acme.io', 'stripe.com']);
    expect(h.service.fetchAllCalls).toBe(1);
  });

  it('makes no HTTP call when recalculated with cached inputs, whatever the fields asked', () => {
    const h = harness();
    companyLookup([['a.com'], ['b.com']], undefined, undefined, h.env());
    const before = h.service.requests.length;
    const again = companyLookup([['b.com'], ['a.com']], 'company_name', undefined, h.env());
    expect(again).toEqual([['b'], ['a']]);
    expect(h.service.requests.length).toBe(before);
  });

  it(`resolves at most ${MAX_FORMULA_LOOKUPS} companies in one formula; the inputs past them say to use Enrich`, () => {
    const h = harness();
    const inputs = Array.from({ length: MAX_FORMULA_LOOKUPS + 3 }, (_, i) => [
      `company${i % (MAX_FORMULA_LOOKUPS + 2)}.com`,
    ]);
    const rows = companyLookup(
      inputs,
      'domain',
      undefined,
      h.env({ limits: { stopFetchingAfterMs: Infinity, deadlineMs: Infinity } }),
    );
    expect(h.service.lookups()).toHaveLength(MAX_FORMULA_LOOKUPS);
    expect(rows.slice(MAX_FORMULA_LOOKUPS - 1).map((row) => row[0])).toEqual([
      `company${MAX_FORMULA_LOOKUPS - 1}.com`,
      CELL_TEXT.useEnrich,
      CELL_TEXT.useEnrich,
      'company0.com',
    ]);
    expect(CELL_TEXT.useEnrich).toContain(MAX_FORMULA_LOOKUPS.toLocaleString('en-US'));
    // Everything it fetched is cached: a recalculation sends nothing.
    const sent = h.service.requests.length;
    companyLookup(inputs, 'domain', undefined, h.env());
    expect(h.service.requests.length).toBe(sent);
  });

  it('answers 404 with "Not found" (cached) and 202 with "Enriching..." (not cached)', () => {
    const h = harness();
    h.service.answers.set('gone.com', { status: 404 });
    h.service.answers.set('new.com', { status: 202 });
    const rows = companyLookup([['gone.com'], ['new.com']], 'domain', undefined, h.env());
    expect(rows).toEqual([[CELL_TEXT.notFound], [CELL_TEXT.enriching]]);
    h.service.answers.set('new.com', { status: 200 });
    const later = companyLookup([['gone.com'], ['new.com']], 'domain', undefined, h.env());
    expect(later).toEqual([[CELL_TEXT.notFound], ['new.com']]);
    expect(h.service.lookups()).toEqual(['gone.com', 'new.com', 'new.com']);
  });

  it('without a shared token answers the setup text and sends nothing', () => {
    const h = harness();
    const rows = companyLookup('stripe.com', undefined, undefined, h.env({ token: null }));
    expect(rows).toEqual([
      [
        'Formulas can\'t use a token: in Extensions > Sheet Scout > Settings tick "Let formulas in this spreadsheet use my token"',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ]);
    expect(h.service.requests).toHaveLength(0);
  });

  it('takes the field names the sheet shows, case and spacing ignored, like their keys', () => {
    const h = harness();
    const byHeaders = companyLookup('stripe.com', 'Employees, Country', true, h.env());
    expect(byHeaders).toEqual(companyLookup('stripe.com', 'employee_count,hq_country', true, h.env()));
    expect(byHeaders[0]).toEqual(['Employees', 'Country']);
    const spelt = companyLookup('stripe.com', ' company NAME ,Founded,HQ country, hqcountry', true, h.env());
    expect(spelt[0]).toEqual(['Company name', 'Founded', 'Country']);
    expect(spelt[1]).toEqual(['stripe', 2010, 'United States']);
    expect(companyLookup('stripe.com', [['Company name'], ['Domain']], true, h.env())[0]).toEqual([
      'Company name',
      'Domain',
    ]);
  });

  it('says which field a misspelt name most likely meant', () => {
    const h = harness();
    expect(companyLookup('a.com', 'Employes', undefined, h.env())).toEqual([
      ['Unknown field: "Employes". Did you mean "Employees"?'],
    ]);
    expect(companyLookup('a.com', 'company_nmae', undefined, h.env())).toEqual([
      ['Unknown field: "company_nmae". Did you mean "Company name"?'],
    ]);
    expect(companyLookup('a.com', 'revenue', undefined, h.env())[0][0]).toBe(
      'Unknown field: "revenue". Use: Company name, Domain, Short description, Full description, Products and services, ' +
        'Use cases, Target audience, Country, State or province, City, HQ address, Employees, Founded, LinkedIn, ' +
        'Twitter, Company ID',
    );
    expect(h.service.requests).toHaveLength(0);
  });

  it('names an unknown field and refuses a bad with_header', () => {
    const h = harness();
    expect(companyLookup('a.com', 'company_name,revenue', undefined, h.env())[0][0]).toMatch(
      /^Unknown field: "revenue"/,
    );
    expect(companyLookup('a.com', undefined, 'maybe', h.env())).toEqual([['with_header must be TRUE or FALSE']]);
    expect(h.service.requests).toHaveLength(0);
  });

  it('answers a 401 with the token message for every uncached row and stops after the first batch', () => {
    const h = harness();
    for (let i = 0; i < 120; i++) h.service.answers.set(`d${i}.com`, { status: 401 });
    const rows = companyLookup(
      Array.from({ length: 120 }, (_, i) => [`d${i}.com`]),
      'domain',
      undefined,
      h.env(),
    );
    expect(new Set(rows.map((row) => row[0]))).toEqual(new Set(['Token rejected: check it in Settings']));
    expect(h.service.fetchAllCalls).toBe(1);
  });

  it('keeps going after a partial outage in one batch, but stops when a whole batch fails', () => {
    const h = harness();
    for (let i = 0; i < 10; i++) h.service.answers.set(`p${i}.com`, { status: 503 });
    const partial = companyLookup(
      Array.from({ length: 120 }, (_, i) => [`p${i}.com`]),
      'domain',
      undefined,
      h.env(),
    );
    expect(partial.slice(0, 10).every((row) => row[0] === 'Service unavailable, retry later')).toBe(true);
    expect(partial.slice(10).every((row, i) => row[0] === `p${i + 10}.com`)).toBe(true);

    const down = harness();
    for (let i = 0; i < 120; i++) down.service.answers.set(`q${i}.com`, { status: 503 });
    const rows = companyLookup(
      Array.from({ length: 120 }, (_, i) => [`q${i}.com`]),
      'domain',
      undefined,
      down.env(),
    );
    expect(rows.every((row) => row[0] === 'Service unavailable, retry later')).toBe(true);
    expect(new Set(down.service.lookups()).size).toBe(50);
  });

  it('stops starting batches when the time budget is spent and marks the rest Pending', () => {
    const h = harness(6_000);
    const inputs = Array.from({ length: 300 }, (_, i) => [`c${i}.com`]);
    const env = h.env();
    const rows = companyLookup(inputs, 'domain', undefined, env);
    // 6 s per batch (50, then four times and twice as large while healthy, up to 100): batches start at 0, 6, 12 s; a
    // fourth would end past the 20 s start limit.
    expect(h.service.fetchAllCalls).toBe(3);
    const sent = h.service.lookups().length;
    expect(sent).toBe(50 + 100 + 100);
    expect(rows.filter((row) => row[0] === CELL_TEXT.pending)).toHaveLength(300 - sent);
    expect(rows.slice(0, sent).every((row, i) => row[0] === `c${i}.com`)).toBe(true);
    expect(h.clock.now() - env.startedAt).toBeLessThanOrEqual(24_000);
    // The next recalculation serves those from the cache and fetches the rest.
    const again = companyLookup(inputs, 'domain', undefined, h.env());
    expect(again.every((row, i) => row[0] === `c${i}.com`)).toBe(true);
    expect(h.service.lookups()).toHaveLength(300);
  });

  it('starts no round the slowest one this document met could carry past 27 s: Pending instead of a timeout', () => {
    const h = harness(12_000);
    companyLookup([['first.com']], 'domain', undefined, h.env());
    expect(h.env().slowestRoundMs).toBe(12_000);
    // A later execution (a range after other work, or Sheets' own delay) is at 16 s when its first round would start.
    h.service.latencyMs = 1_000;
    const env = h.env();
    h.clock.advance(16_000);
    const rows = companyLookup([['late.com']], 'domain', undefined, env);
    expect(rows).toEqual([[CELL_TEXT.pending]]);
    expect(h.service.lookups()).toEqual(['first.com']);
    // Early in an execution the same round goes out, and a fast round lowers what is expected.
    const early = companyLookup([['late.com']], 'domain', undefined, h.env());
    expect(early).toEqual([['late.com']]);
    expect(h.env().slowestRoundMs).toBe(10_800);
  });

  it('retries a 429 within the budget and gives "Rate limited, retry later" when it persists', () => {
    const h = harness();
    h.service.answers.set('busy.com', { status: 429 });
    const rows = companyLookup('busy.com', 'domain', undefined, h.env());
    expect(rows).toEqual([['Rate limited, retry later']]);
    expect(h.service.lookups().length).toBeGreaterThan(1);
  });

  it('opens the circuit breaker after repeated failures across cells, then sends nothing', () => {
    const h = harness();
    h.service.answers.set('down.com', { status: 503 });
    for (let i = 0; i < 3; i++) companyLookup('down.com', 'domain', undefined, h.env({ limits: { deadlineMs: 0 } }));
    const sent = h.service.requests.length;
    expect(companyLookup('other.com', 'domain', undefined, h.env())).toEqual([['Service unavailable, retry later']]);
    expect(h.service.requests.length).toBe(sent);
    // Cached answers are still served while the breaker is open.
    h.clock.time += 61_000;
    expect(companyLookup('other.com', 'domain', undefined, h.env())).toEqual([['other.com']]);
  });

  it('returns values as data: a formula-like company name stays the same text (no apostrophe), lists join by line', () => {
    const h = harness();
    h.service.answers.set('evil.com', {
      status: 200,
      name: '=cmd|"/c calc"!A1',
      context: { products_services: ['Payments', 'Billing'] },
    });
    expect(companyLookup('evil.com', 'company_name,products_services', undefined, h.env())).toEqual([
      ['=cmd|"/c calc"!A1', 'Payments\nBilling'],
    ]);
  });

  it('looks up a company UUID as is', () => {
    const h = harness();
    const uuid = '123E4567-E89B-12D3-A456-426614174000';
    companyLookup(uuid, 'domain', undefined, h.env());
    expect(h.service.lookups()).toEqual([uuid.toLowerCase()]);
  });

  it('gives a single blank cell for an all-blank input and the default width otherwise', () => {
    const h = harness();
    expect(companyLookup([[''], ['']], undefined, undefined, h.env())).toEqual([['']]);
    expect(companyLookup('x.com', undefined, undefined, h.env())[0]).toHaveLength(DEFAULT_WIDTH);
  });
});
