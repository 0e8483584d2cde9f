// Company search panel against the sandbox through the built bundle in the emulator: filters reach the request
// exactly, paging to 2,000 in one parallel round, the free tier's 25, the 1,000-domain limit, exclude-from-sheet,
// 404/422 mapping, writing values into a new sheet, appending without duplicates and "Run again".
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { DomainList, ExcludeSummary } from '../../../src/search/exclude-domains';
import type { PreviewAnswer, WriteAnswer } from '../../../src/search/service';
import { fieldOfLocation } from '../../../src/search/run-search';
import { parseSavedSearchNote } from '../../../src/search/results/saved-search';
import { emptyFilterForm } from '../../../src/search/spec';
import type { SeededCompany } from '../../../dev/sandbox/control-client';
import { runtimeFor, closeAfterTest, sandboxSuite } from '../harness';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { panel, sentBodies, spec } from './harness';

const suite = sandboxSuite({ resetEachTest: false });

const PRO = 'sbx_pro_token';
const FREE = 'sbx_free_token';

let companies: SeededCompany[];

function runtime(token = PRO, sheets?: Record<string, unknown[][]>): GasRuntime {
  return closeAfterTest(runtimeFor(suite.url, { token, minRows: 200, sheets }));
}

function ok<T extends { ok: boolean }>(answer: T): Extract<T, { ok: true }> {
  if (!answer.ok) throw new Error(`expected ok, got ${JSON.stringify(answer)}`);
  return answer as Extract<T, { ok: true }>;
}

beforeAll(async () => {
  companies = await suite.control.companies(40);
});

describe('filters', () => {
  it('sends every include filter, the founded range and the exclude domains in the POST body exactly, and the sandbox echoes them', async () => {
    const rt = runtime();
    const filters = {
      ...emptyFilterForm(),
      sizes: ['51-200' as const, '11-50' as const],
      includeCountries: ['United States', 'Germany'],
      includeCities: ['New York', 'Berlin', 'San Francisco', 'Munich'],
      foundedFrom: 1990,
      foundedTo: 2020,
      excludeDomains: ['https://www.Example.com/about', companies[0].domain],
    };
    const answer = ok(panel.preview(rt, spec({ filters, count: 100 })));
    const [sent] = sentBodies(rt, /\/v1\/companies\/search$/);
    const expected = {
      include: {
        size: ['11-50', '51-200'],
        country: ['United States', 'Germany'],
        city: ['New York', 'Berlin', 'San Francisco', 'Munich'],
      },
      exclude: { domains: ['example.com', companies[0].domain] },
      range: { founded: { min: 1990, max: 2020 } },
    };
    expect(rt.httpLog[0].method).toBe('POST');
    expect(sent.body).toEqual({ q: 'software', filters: expected, pagination: { offset: 0, limit: 100 } });
    const echo = await suite.control.request<{ request: { filters: unknown } }>('POST', '/v1/companies/search', {
      body: sent.body,
      token: PRO,
    });
    expect(echo.body.request.filters).toEqual(expected);
    expect(answer.count).toBeGreaterThan(0);
    for (const row of answer.preview) {
      expect(['United States', 'Germany']).toContain(row.country);
      expect(['11-50', '51-200']).toContain(row.size);
      expect(row.founded).toBeGreaterThanOrEqual(1990);
      expect(row.founded).toBeLessThanOrEqual(2020);
    }
    expect(answer.suggestions.countries.every((country) => ['United States', 'Germany'].includes(country))).toBe(true);
  });

  it('sends the exclude size/country/city filters', async () => {
    const rt = runtime();
    const filters = {
      ...emptyFilterForm(),
      sizes: ['1-10' as const, '10001+' as const],
      sizeMode: 'exclude' as const,
      excludeCountries: ['United States'],
      excludeCities: ['London'],
    };
    const answer = ok(panel.preview(rt, spec({ filters, count: 250 })));
    const [sent] = sentBodies(rt, /\/v1\/companies\/search$/);
    const expected = { exclude: { size: ['1-10', '10001+'], country: ['United States'], city: ['London'] } };
    expect(sent.body.filters).toEqual(expected);
    expect(
      (
        await suite.control.request<{ request: { filters: unknown } }>('POST', '/v1/companies/search', {
          body: sent.body,
          token: PRO,
        })
      ).body.request.filters,
    ).toEqual(expected);
    expect(
      answer.preview.some((row) => row.country === 'United States' || row.size === '1-10' || row.size === '10001+'),
    ).toBe(false);
  });

  it('maps the sandbox’s real 422 locations to the panel controls', async () => {
    const cases: Array<[unknown, string]> = [
      [{ q: 'x', filters: { include: { size: ['huge'] } } }, 'sizes'],
      [{ q: 'x', filters: { 'include.country': [''] } }, 'includeCountries'],
      [{ q: 'x', filters: { exclude: { city: [''] } } }, 'excludeCities'],
      [{ q: 'x', filters: { range: { founded: { min: 'old' } } } }, 'foundedFrom'],
      [{ q: 'x', filters: { range: { founded: { max: 1.5 } } } }, 'foundedTo'],
      [{ q: 'x', filters: { exclude: { domains: ['not a domain'] } } }, 'excludeDomains'],
      [
        { q: 'x', filters: { exclude: { domains: Array.from({ length: 1001 }, (_, i) => `d${i}.com`) } } },
        'excludeDomains',
      ],
      [{ q: '   ' }, 'query'],
      [{ q: 'x', pagination: { offset: 0, limit: 251 } }, 'count'],
    ];
    for (const [body, field] of cases) {
      const answer = await suite.control.request<{ detail: Array<{ loc: Array<string | number> }> }>(
        'POST',
        '/v1/companies/search',
        { body: body, token: PRO },
      );
      expect(answer.status).toBe(422);
      expect(answer.body.detail.map((issue) => fieldOfLocation(issue.loc))).toEqual(
        answer.body.detail.map(() => field),
      );
    }
  });
});

describe('paging and depth', () => {
  it('fetches 2,000 results as 8 pages of 250 in one parallel round and writes them into a new sheet', () => {
    const rt = runtime();
    const before = rt.counters.urlFetch.fetchAllCalls;
    const answer = ok(panel.preview(rt, spec({ count: 2000 })));
    expect(answer.count).toBe(2000);
    expect(rt.counters.urlFetch.fetchAllCalls - before).toBe(1);
    expect(sentBodies(rt, /\/v1\/companies\/search$/).map((sent) => sent.body.pagination)).toEqual(
      Array.from({ length: 8 }, (_, i) => ({ offset: i * 250, limit: 250 })),
    );
    expect(answer.preview).toHaveLength(50);
    const written = ok(
      panel.write(rt, {
        searchId: answer.searchId,
        spec: spec({ count: 2000 }),
        columns: ['name', 'domain', 'size', 'founded'],
        target: { kind: 'new' },
      }),
    );
    expect(written).toMatchObject({ written: 2000, skipped: 0, sheet: { name: 'Search: software' } });
    expect(sentBodies(rt, /\/v1\/companies\/search$/)).toHaveLength(8); // the write used the previewed results
    const sheet = rt.spreadsheet.sheet('Search: software');
    const values = sheet.getValues(`A1:D2001`);
    expect(values[0]).toEqual(['Company', 'Domain', 'Employees', 'Founded']);
    expect(new Set(values.slice(1).map((row) => row[1])).size).toBe(2000);
    expect(values.slice(1).every((row) => typeof row[3] === 'number')).toBe(true);
    expect(
      sheet
        .getFormulas('A1:D2001')
        .flat()
        .every((formula) => formula === ''),
    ).toBe(true);
    expect(['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+']).toContain(
      values[1][2],
    );
    const saved = parseSavedSearchNote(sheet.getNotes('A1')[0][0]);
    expect(saved?.spec).toMatchObject({ mode: 'describe', query: 'software', count: 2000 });
    expect(rt.spreadsheet.activeSheet.name).toBe('Search: software');
  });

  it('gives the free tier its 25 results and says why; a Pro token afterwards gets its 100 (issue 29)', () => {
    const rt = runtime(FREE);
    const answer = ok(panel.preview(rt, spec({ count: 100 })));
    expect(answer).toMatchObject({
      count: 25,
      depth: 25,
      exhausted: false,
      warning: 'The free plan returns up to 25 results per search',
    });
    expect(panel.state(rt).depth).toBe(25);
    expect(panel.preview(rt, spec({ count: 25 }))).toMatchObject({ ok: true, count: 25, warning: null });
    // The token is switched to the Pro account: what was learned of the free one does not hold it back.
    rt.properties.user().set(SETTINGS_KEYS.token, PRO);
    expect(panel.state(rt).depth).toBe(2000);
    expect(panel.preview(rt, spec({ count: 100 }))).toMatchObject({ ok: true, count: 100, warning: null });
  });

  it('refuses more than 1,000 exclude domains before sending, and sends exactly 1,000', () => {
    const rt = runtime();
    const many = Array.from({ length: 1001 }, (_, i) => `excluded-${i}.com`);
    const refused = panel.preview(rt, spec({ filters: { ...emptyFilterForm(), excludeDomains: many } }));
    expect(refused).toMatchObject({ ok: false, problems: [{ field: 'excludeDomains' }] });
    expect(refused.ok ? '' : refused.message).toContain('1,001 domains to exclude');
    expect(rt.httpLog).toHaveLength(0);
    const top = ok(panel.preview(rt, spec({ count: 50 }))).preview.map((row) => row.domain);
    const thousand = [...many.slice(0, 1000 - top.length), ...top.map((domain) => `https://www.${domain}/`)];
    const answer = ok(
      panel.preview(rt, spec({ count: 50, filters: { ...emptyFilterForm(), excludeDomains: thousand } })),
    );
    const sent = sentBodies(rt, /\/v1\/companies\/search$/).pop();
    expect((sent?.body.filters as { exclude: { domains: string[] } }).exclude.domains).toHaveLength(1000);
    expect(answer.preview.some((row) => top.includes(row.domain))).toBe(false);
  });
});

describe('exclude from a sheet, lookalike, errors', () => {
  it('reads the companies already in a sheet and leaves them out of the results', () => {
    const first = ok(panel.preview(runtime(), spec({ count: 10 }))).preview;
    const rt = runtime(PRO, {
      Leads: [
        ['Company', 'Website'],
        ...first.map((row) => [row.name, `https://${row.domain}/`]),
        ['Someone', 'not a site'],
      ],
    });
    const leads = panel.state(rt).activeSheet;
    const list = rt.run<{ domains: string[]; invalid: string[] }>(
      'getSearchExcludeDomains',
      [{ kind: 'sheet', sheetId: leads.id }],
      { kind: 'sidebar' },
    );
    expect(list.domains).toEqual(first.map((row) => row.domain));
    expect(list.invalid).toEqual(['not a site']);
    const answer = ok(
      panel.preview(rt, spec({ count: 10, filters: { ...emptyFilterForm(), excludeDomains: list.domains } })),
    );
    expect(answer.preview.some((row) => list.domains.includes(row.domain))).toBe(false);
    const column = rt.run<{ domains: string[] }>(
      'getSearchExcludeDomains',
      [{ kind: 'column', sheetId: leads.id, column: 1, skipHeader: true }],
      { kind: 'sidebar' },
    );
    expect(column.domains).toEqual(list.domains);
  });

  it('counts the sheet list and the pasted list on the server as the panel does, without calling the service', () => {
    const rt = runtime(PRO, { Leads: [['Website'], ['https://www.acme.io/'], ['b.com'], ['Acme Inc']] });
    const leads = panel.state(rt).activeSheet;
    const list = rt.run<DomainList>('getSearchExcludeDomains', [{ kind: 'sheet', sheetId: leads.id }], {
      kind: 'sidebar',
    });
    const pasted = [
      ...Array.from({ length: 1000 }, (_, i) => `https://www.excluded-${i}.com/`),
      'ACME.io',
      'nope nope',
    ].join('\n');
    const entries = [
      { id: `sheet:${leads.id}`, label: 'Already in Leads', list },
      { id: 'pasted', label: 'Pasted list', text: pasted },
    ];
    const summarize = (acceptMostRecent: boolean): ExcludeSummary =>
      rt.run<ExcludeSummary>('summarizeSearchExcludeDomains', [{ entries, acceptMostRecent }], { kind: 'sidebar' });
    const refused = summarize(false);
    expect(refused).toMatchObject({
      sources: [
        { label: 'Already in Leads', count: 2 },
        { label: 'Pasted list', count: 1001 },
      ],
      count: 1002,
      duplicates: 1,
      invalid: [
        { label: 'Already in Leads', values: ['Acme Inc'] },
        // A pasted line is one entry, as a column's cell is ("Acme Inc" above).
        { label: 'Pasted list', values: ['nope nope'] },
      ],
      overLimit: true,
      overLimitMessage: expect.stringContaining('1,002 domains to exclude: the service takes at most 1,000.'),
    });
    expect(refused.toSend).toHaveLength(1002);
    const accepted = summarize(true);
    expect(accepted).toMatchObject({ overLimit: true, overLimitMessage: null });
    expect(accepted.toSend).toHaveLength(1000);
    expect(accepted.toSend[0]).toBe('excluded-1.com'); // b.com and excluded-0.com are the oldest
    expect(accepted.toSend[999]).toBe('acme.io'); // at its latest occurrence, the end of the pasted list
    expect(rt.httpLog).toHaveLength(0);
    const answer = ok(
      panel.preview(rt, spec({ count: 10, filters: { ...emptyFilterForm(), excludeDomains: accepted.toSend } })),
    );
    expect(sentBodies(rt, /\/v1\/companies\/search$/).pop()?.body.filters).toEqual({
      exclude: { domains: accepted.toSend },
    });
    expect(answer.count).toBe(10);
  });

  it('prefills "Similar to" from the selected cell and runs the lookalike search by POST', () => {
    const reference = companies[3];
    const rt = runtime(PRO, { Leads: [['Domain'], [`https://www.${reference.domain}`]] });
    const sheet = rt.spreadsheet.sheet('Leads');
    rt.spreadsheet.selection = { sheet, rect: sheet.rect('A2') };
    const state = panel.state(rt);
    expect(state.selectedDomain).toBe(reference.domain);
    const answer = ok(
      panel.preview(rt, spec({ mode: 'similar', query: '', reference: state.selectedDomain ?? '', count: 300 })),
    );
    expect(answer.count).toBe(300);
    expect(answer.reference?.domain).toBe(reference.domain);
    expect(answer.preview.some((row) => row.domain === reference.domain)).toBe(false);
    const calls = rt.httpLog.filter((entry) => entry.url.includes('/similar'));
    expect(calls.map((entry) => entry.method)).toEqual(['POST', 'POST']);
    expect(calls[0].url).toBe(`${suite.url}/v1/companies/${reference.domain}/similar`);
  });

  it('says a lookalike reference is not in the index (404), pointed at the reference control', () => {
    const answer: PreviewAnswer = panel.preview(
      runtime(),
      spec({ mode: 'similar', reference: 'www.no-such-company-anywhere.com', count: 10 }),
    );
    expect(answer).toEqual({
      ok: false,
      message: 'no-such-company-anywhere.com is not in the company index; try Describe',
      problems: [
        { field: 'reference', message: 'no-such-company-anywhere.com is not in the company index; try Describe' },
      ],
    });
  });

  it('reports a rejected token without leaking it', () => {
    const answer = panel.preview(runtime('sbx_wrong_token'), spec());
    expect(answer).toEqual({ ok: false, message: 'Token rejected: check it in Settings', problems: [] });
  });
});

describe('appending and run again', () => {
  it('appends without duplicates, matching the sheet’s own columns, and runs a saved search again', () => {
    const rt = runtime(PRO, {
      Leads: [
        ['Website', 'Owner'],
        [`${companies[0].domain}`, 'me'],
      ],
    });
    const leads = panel.state(rt).activeSheet;
    const small = spec({ count: 25 });
    const created = ok(
      panel.write(rt, { searchId: null, spec: small, columns: ['name', 'domain', 'country'], target: { kind: 'new' } }),
    );
    expect(created.written).toBe(25);
    const again: WriteAnswer = panel.write(rt, {
      searchId: null,
      spec: small,
      columns: ['name', 'domain', 'country'],
      target: { kind: 'append', sheetId: created.sheet.id },
    });
    expect(again).toMatchObject({ ok: true, written: 0, skipped: 25 });
    const wider = ok(
      panel.write(rt, {
        searchId: null,
        spec: spec({ count: 60 }),
        columns: ['name', 'domain', 'country'],
        target: { kind: 'append', sheetId: created.sheet.id },
      }),
    );
    expect(wider).toMatchObject({ written: 35, skipped: 25, addedColumns: [] });
    const sheet = rt.spreadsheet.sheet(created.sheet.name);
    const domains = sheet.getValues('B2:B61').map((row) => row[0]);
    expect(new Set(domains).size).toBe(60);

    const appended = ok(
      panel.write(rt, {
        searchId: null,
        spec: small,
        columns: ['name', 'domain'],
        target: { kind: 'append', sheetId: leads.id },
      }),
    );
    expect(appended.addedColumns).toEqual(['Company']);
    const leadsValues = rt.spreadsheet.sheet('Leads').getValues('A1:C3');
    expect(leadsValues[0]).toEqual(['Website', 'Owner', 'Company']);
    expect(leadsValues[1]).toEqual([companies[0].domain, 'me', '']);
    expect(leadsValues[2][1]).toBe('');

    sheet.deleteRows(5, 3);
    const rerun = ok(panel.runAgain(rt, created.sheet.id));
    expect(rerun).toMatchObject({ written: 3, skipped: 22 });
    expect(new Set(sheet.getValues('B2:B61').map((row) => row[0])).size).toBe(60);
    expect(panel.runAgain(rt, leads.id)).toMatchObject({
      ok: false,
      message: '"Leads" was not created by a Sheet Scout search (its A1 note holds no saved search)',
    });
  });
});
