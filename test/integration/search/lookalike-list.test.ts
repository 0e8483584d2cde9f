// "Similar to a list" through the built bundle in the emulator against the sandbox: references read from the selected
// range, one lookalike request per reference with the same filters, the merged ranking checked against the sandbox's
// own lists fused independently here, unknown and still-enriching references reported, exclusions over the 1,000
// filter removed after the call, the free plan's 25, and a malformed request refused.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type {
  LookalikeAnswer,
  LookalikeListRequest,
  ReferenceList,
} from '../../../src/search/lookalikes/lookalike-service';
import { emptyFilterForm } from '../../../src/search/spec';
import type { SeededCompany } from '../../../dev/sandbox/control-client';
import { runtimeFor, closeAfterTest, sandboxSuite } from '../harness';
import { sentBodies } from './harness';

const suite = sandboxSuite({ resetEachTest: false });

const PRO = 'sbx_pro_token';
const FREE = 'sbx_free_token';

let companies: SeededCompany[];
let pending: string;

function runtime(token: string, rows: unknown[][], selection: string): GasRuntime {
  const created = runtimeFor(suite.url, { token, minRows: 200, sheets: { Customers: rows } });
  const sheet = created.spreadsheet.sheet('Customers');
  created.spreadsheet.selection = { sheet, rect: sheet.rect(selection) };
  return closeAfterTest(created);
}

const panel = {
  references: (rt: GasRuntime) => rt.run<ReferenceList>('getLookalikeReferences', [], { kind: 'sidebar' }),
  run: (rt: GasRuntime, request: LookalikeListRequest) =>
    rt.run<LookalikeAnswer>('runLookalikeSearch', [request], { kind: 'sidebar' }),
};

function ok<T extends { ok: boolean }>(answer: T): Extract<T, { ok: true }> {
  if (!answer.ok) throw new Error(`expected ok, got ${JSON.stringify(answer)}`);
  return answer as Extract<T, { ok: true }>;
}

/** A reference's lookalike list straight from the sandbox, with the filters the add-in sent. */
async function similarList(domain: string, body: Record<string, unknown>): Promise<string[]> {
  const answer = await suite.control.request<{ results: Array<{ domain: string }> }>(
    'POST',
    `/v1/companies/${domain}/similar`,
    { body: body, token: PRO },
  );
  return answer.body.results.map((result) => result.domain);
}

/** Reciprocal rank fusion written out independently of the add-in's module: the test's oracle. */
function fused(
  lists: Array<[string, string[]]>,
  excluded: Set<string>,
): Array<{ domain: string; score: number; references: string[] }> {
  const byDomain = new Map<string, { domain: string; score: number; ranks: Array<[string, number]> }>();
  for (const [reference, domains] of lists) {
    const kept = domains.filter((domain) => !excluded.has(domain));
    kept.forEach((domain, index) => {
      const entry = byDomain.get(domain) ?? { domain, score: 0, ranks: [] };
      entry.score += 1 / (60 + index + 1);
      entry.ranks.push([reference, index + 1]);
      byDomain.set(domain, entry);
    });
  }
  return [...byDomain.values()]
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.ranks.length - a.ranks.length ||
        Math.min(...a.ranks.map((r) => r[1])) - Math.min(...b.ranks.map((r) => r[1])) ||
        (a.domain < b.domain ? -1 : 1),
    )
    .map((entry) => ({
      domain: entry.domain,
      score: entry.score,
      references: [...entry.ranks].sort((x, y) => x[1] - y[1]).map((r) => r[0]),
    }));
}

function sheetRows(rt: GasRuntime, name: string): unknown[][] {
  return rt.spreadsheet.sheet(name).getValues();
}

beforeAll(async () => {
  companies = await suite.control.companies(30);
  pending = (await suite.control.companies(1, false))[0].domain;
});

describe('similar to a list', () => {
  it('merges the references’ lookalikes by reciprocal rank fusion into a new sheet, reporting unknown and enriching references', async () => {
    // A customer list of one kind: a company and four of its lookalikes, which share many lookalikes of their own.
    const references = [
      companies[0].domain,
      ...(await similarList(companies[0].domain, { pagination: { offset: 0, limit: 4 } })),
    ];
    const rows = [
      ['Domain'],
      ...references.map((domain) => [`https://www.${domain}/`]),
      ['no-such-company-zz.com'],
      [pending],
      ['not a domain'],
    ];
    const rt = runtime(PRO, rows, 'A1:A9');
    const list = panel.references(rt);
    expect(list).toEqual({
      label: 'Customers!A1:A9',
      domains: [...references, 'no-such-company-zz.com', pending],
      invalid: ['not a domain'],
      duplicates: 0,
      problem: null,
    });

    const filters = { ...emptyFilterForm(), sizes: ['10001+' as const], sizeMode: 'exclude' as const };
    const answer = ok(
      panel.run(rt, {
        references: list.domains,
        filters,
        exclude: [{ id: 'pasted', label: 'Pasted list', text: companies[10].domain }],
        perReference: 60,
        top: 40,
        columns: ['name', 'domain', 'country'],
      }),
    );

    const sent = sentBodies(rt, /\/similar$/);
    expect(sent.map((call) => decodeURIComponent(call.url.split('/companies/')[1].replace('/similar', '')))).toEqual(
      list.domains,
    );
    const expectedFilters = { exclude: { size: ['10001+'], domains: [...list.domains, companies[10].domain] } };
    for (const call of sent)
      expect(call.body).toEqual({ filters: expectedFilters, pagination: { offset: 0, limit: 60 } });
    const lookups = rt.httpLog
      .filter((entry) => entry.method === 'GET')
      .map((entry) => entry.url.split('/companies/')[1]);
    expect(lookups.sort()).toEqual(['no-such-company-zz.com', pending].sort());
    expect(answer.references).toEqual({
      used: references,
      notFound: ['no-such-company-zz.com'],
      enriching: [pending],
      failed: [],
      partial: [],
    });
    expect(answer).toMatchObject({ written: 40, requests: 7 + 2, sentAsFilter: 8 });

    const lists: Array<[string, string[]]> = [];
    for (const reference of references) lists.push([reference, await similarList(reference, sent[0].body)]);
    const expected = fused(lists, new Set([...list.domains, companies[10].domain])).slice(0, 40);
    const written = sheetRows(rt, answer.sheet!.name);
    expect(answer.sheet!.name).toBe('Lookalikes: 7 companies');
    expect(written[0]).toEqual(['Company', 'Domain', 'Country', 'Match score (0-100)', 'Similar to']);
    expect(written.slice(1).map((row) => row[1])).toEqual(expected.map((entry) => entry.domain));
    written.slice(1).forEach((row, index) => {
      expect(row[3]).toBe(Math.round((100 * expected[index].score * 61) / lists.length));
      const [count, references] = String(row[4]).split(': ');
      expect(count).toBe(`${expected[index].references.length} of your ${lists.length}`);
      expect(references.split(', ').map((part) => part.replace(/ \(#\d+\)$/, ''))).toEqual(expected[index].references);
    });
    // The fusion lifts companies several references share: the first row is similar to more than one reference.
    expect(String(written[1][4]).split(', ').length).toBeGreaterThan(1);
    const note = rt.spreadsheet.sheet(answer.sheet!.name).getNotes('A1')[0][0];
    expect(note).toContain(`References (7): ${list.domains.join(', ')}`);
    expect(note).toContain('1 / (60 + rank)');
  });

  it('sends the references and the 1,000 most recent exclusions as the filter and removes older ones after the call', async () => {
    const references = companies.slice(12, 14).map((company) => company.domain);
    const theirLookalikes = (await similarList(references[0], { pagination: { offset: 0, limit: 6 } }))
      .filter((domain) => !references.includes(domain))
      .slice(0, 5);
    const pasted = [...theirLookalikes, ...Array.from({ length: 1100 }, (_, i) => `old-customer-${i}.com`)].join('\n');
    const rt = runtime(PRO, [['Domain'], ...references.map((domain) => [domain])], 'A2:A3');
    const list = panel.references(rt);
    const answer = ok(
      panel.run(rt, {
        references: list.domains,
        filters: emptyFilterForm(),
        exclude: [{ id: 'pasted', label: 'Pasted list', text: pasted }],
        perReference: 30,
        top: 100,
        columns: ['domain'],
      }),
    );
    const [first] = sentBodies(rt, /\/similar$/);
    const filter = (first.body.filters as { exclude: { domains: string[] } }).exclude.domains;
    expect(filter).toHaveLength(1000);
    expect(filter.slice(0, 2)).toEqual(references);
    for (const domain of theirLookalikes) expect(filter).not.toContain(domain);
    const domains = sheetRows(rt, answer.sheet!.name)
      .slice(1)
      .map((row) => row[0]);
    for (const domain of [...theirLookalikes, ...references]) expect(domains).not.toContain(domain);
    expect(answer.removedAfterCall).toBeGreaterThanOrEqual(theirLookalikes.length);
    expect(answer.written).toBe(domains.length);
  });

  it('detects the free plan’s 25 per reference and says so again on the next run, refusing nothing (a plan can change)', () => {
    const rt = runtime(FREE, [[companies[20].domain], [companies[21].domain]], 'A1:A2');
    const list = panel.references(rt);
    const request: LookalikeListRequest = {
      references: list.domains,
      filters: emptyFilterForm(),
      exclude: [],
      perReference: 100,
      top: 500,
      columns: ['domain'],
    };
    const answer = ok(panel.run(rt, request));
    expect(answer.warning).toBe('The free plan returns up to 25 results per reference');
    expect(answer.written).toBeLessThanOrEqual(50);
    expect(rt.run<{ depth: number }>('getSearchPanelState', [], { kind: 'sidebar' }).depth).toBe(25);
    const again = ok(panel.run(rt, request));
    expect(again.warning).toBe('The free plan returns up to 25 results per reference');
  });

  it('refuses a malformed request before anything is sent', () => {
    const rt = runtime(PRO, [[companies[0].domain]], 'A1');
    const before = rt.httpLog.length;
    expect(() =>
      rt.run(
        'runLookalikeSearch',
        [
          {
            references: companies[0].domain,
            filters: emptyFilterForm(),
            exclude: [],
            perReference: 10,
            top: 10,
            columns: [],
          },
        ],
        { kind: 'sidebar' },
      ),
    ).toThrow(/could not read this request \(references must be array\)/);
    expect(rt.httpLog.length).toBe(before);
  });
});
