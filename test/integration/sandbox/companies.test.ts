// Contract tests over HTTP: company lookup (spec 4.7, addendum), semantic search (4.8, 4.9, 2.9, 2.10, 8) and
// lookalike search (4.10, 4.11): identifiers, enrichment, filters in both wire forms, limits and depth, GET = POST.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; the assertions check their shape */
import { sandboxPerFile, TOKENS } from './sandbox-client';

const sandbox = sandboxPerFile();
let seeded: { id: string | null; domain: string; name: string }[];

beforeAll(async () => {
  seeded = await sandbox.companies('?enriched=true&limit=10');
});

/** The profile's context fields (spec 4.7), which search results carry flat (4.8). */
const CONTEXT_FIELDS = [
  'short_description',
  'full_description',
  'products_services',
  'use_cases',
  'target_audience',
  'founding_year',
  'employee_count',
  'hq_country',
  'hq_state_province',
  'hq_city',
  'hq_full_address',
  'social_profiles',
];
const RESULT_FIELDS = ['id', 'domain', 'name', ...CONTEXT_FIELDS, 'website_authority', 'relevance_score'];
const SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'];

const search = (body: unknown, token: string = TOKENS.pro) =>
  sandbox.call('POST', '/v1/companies/search', { body, token });
const searchGet = (params: Record<string, string>, token: string = TOKENS.pro) =>
  sandbox.call('GET', `/v1/companies/search?${new URLSearchParams(params).toString()}`, { token });
const lookup = (identifier: string) => sandbox.call('GET', `/v1/companies/${encodeURIComponent(identifier)}`);

function expectIssue(reply: { status: number; body: any }, loc: (string | number)[]): void {
  expect(reply.status).toBe(422);
  const locs = reply.body.detail.map((entry: any) => JSON.stringify(entry.loc));
  expect(locs).toContain(JSON.stringify(loc));
}

describe('lookup (4.7)', () => {
  test('a domain returns the profile with id, domain, company_name and the rich context', async () => {
    const reply = await lookup(seeded[0].domain);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['company_name', 'context', 'domain', 'id']);
    expect(reply.body.domain).toBe(seeded[0].domain);
    const context = reply.body.context;
    for (const field of [...CONTEXT_FIELDS, 'sources']) {
      expect(context).toHaveProperty(field);
    }
    expect(SIZES).toContain(context.employee_count);
    expect(Number.isInteger(context.founding_year)).toBe(true);
    expect(context.sources.length).toBeGreaterThan(0);
  });

  test.each([
    (domain: string) => `https://${domain}`,
    (domain: string) => `http://www.${domain}/about?x=1#top`,
    (domain: string) => `WWW.${domain.toUpperCase()}`,
    (domain: string) => `${domain}/pricing`,
    (domain: string) => `https://blog.${domain}:443/`,
  ])('domain forms are normalized (%#)', async (form) => {
    const reply = await lookup(form(seeded[1].domain));
    expect(reply.status).toBe(200);
    expect(reply.body.domain).toBe(seeded[1].domain);
  });

  test("a UUID fetches that company's profile, in any case", async () => {
    const byDomain = (await lookup(seeded[2].domain)).body;
    expect((await lookup(byDomain.id)).body).toEqual(byDomain);
    expect((await lookup(byDomain.id.toUpperCase())).body).toEqual(byDomain);
  });

  test.each([
    'not a domain',
    'localhost',
    '127.0.0.1',
    'acme',
    'x@y.com',
    'foo.invalid',
    '00000000-0000-4000-8000-000000000000',
  ])('an invalid identifier or unknown UUID is 404 (%p)', async (identifier) => {
    const reply = await lookup(identifier);
    expect(reply.status).toBe(404);
    expect(typeof reply.body.detail).toBe('string');
  });

  test('a valid domain outside the index is 404 (profile unavailable)', async () => {
    expect((await lookup('no-such-company-in-the-sandbox.com')).status).toBe(404);
  });

  test('a known but unenriched domain answers 202 until enrichment finishes, then 200', async () => {
    await sandbox.control('POST', 'config', { enrichmentDelayMs: 3000 });
    const pending = (await sandbox.companies('?enriched=false&limit=1'))[0];
    const first = await lookup(pending.domain);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'enriching', domain: pending.domain });
    expect(typeof first.body.message).toBe('string');
    await sandbox.advance(2000);
    expect((await lookup(pending.domain)).status).toBe(202);
    await sandbox.advance(1000);
    const ready = await lookup(pending.domain);
    expect(ready.status).toBe(200);
    expect(ready.body.domain).toBe(pending.domain);
    expect((await lookup(ready.body.id)).status).toBe(200);
  });

  test('before enrichment a pending company is in neither search nor lookalike; afterwards it is', async () => {
    await sandbox.control('POST', 'config', { enrichmentDelayMs: 0 });
    const pending = (await sandbox.companies('?enriched=false&limit=1'))[0];
    const excluded = await sandbox.call('POST', `/v1/companies/${pending.domain}/similar`, { body: {} });
    expect(excluded.status).toBe(404);
    const byName = async () =>
      (await search({ q: pending.name, pagination: { limit: 250 } })).body.results.map((result: any) => result.domain);
    expect(await byName()).not.toContain(pending.domain);
    expect((await lookup(pending.domain)).status).toBe(202);
    expect((await lookup(pending.domain)).status).toBe(200);
    expect(await byName()).toContain(pending.domain);
  });

  test('lookups cost 0 credits', async () => {
    await lookup(seeded[0].domain);
    await lookup('nothing.example');
    expect(await sandbox.credits()).toBe(500);
  });
});

describe('changing a company (control API)', () => {
  it('serves the changed facts until reset, and refuses unknown fields and companies', async () => {
    const domain = seeded[0].domain;
    await sandbox.control('POST', `companies/${domain}`, { employee_count: '10001+', hq_city: 'Lisbon' });
    const changed = (await lookup(domain)).body;
    expect(changed.context).toMatchObject({ employee_count: '10001+', hq_city: 'Lisbon' });
    await expect(sandbox.control('POST', `companies/${domain}`, { employee_count: 'huge' })).rejects.toThrow(/400/);
    await expect(sandbox.control('POST', `companies/${domain}`, { id: 'x' })).rejects.toThrow(/400/);
    await expect(sandbox.control('POST', 'companies/no-such-company.example', { hq_city: 'X' })).rejects.toThrow(/404/);
    await sandbox.reset();
    expect((await lookup(domain)).body.context.hq_city).not.toBe('Lisbon');
  });
});

describe('semantic search (4.8, 4.9, 2.9)', () => {
  test('results carry every field of the addendum, request metadata echoes the request, no total count', async () => {
    const reply = await search({ q: 'payroll software for restaurants', pagination: { offset: 0, limit: 5 } });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['request', 'results']);
    expect(reply.body.request).toEqual({ offset: 0, limit: 5, query: 'payroll software for restaurants', filters: {} });
    expect(reply.body.results).toHaveLength(5);
    for (const result of reply.body.results) {
      expect(Object.keys(result).sort()).toEqual([...RESULT_FIELDS].sort());
      expect(Object.keys(result.website_authority).sort()).toEqual(['percentile', 'score', 'tier', 'tier_label']);
    }
  });

  test('results are ranked by text relevance over the descriptions (not substring matching)', async () => {
    const results = (await search({ q: 'payroll platforms for restaurant groups', pagination: { limit: 10 } })).body
      .results;
    const scores = results.map((result: any) => result.relevance_score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    expect(scores[0]).toBe(1);
    for (const result of results.slice(0, 3))
      expect(`${result.products_services} ${result.target_audience}`.toLowerCase()).toMatch(/payroll/);
    expect(`${results[0].target_audience}`.toLowerCase()).toMatch(/restaurant/);
  });

  test('candidate ids and domains work as identifiers in lookup and lookalike', async () => {
    const [first] = (await search({ q: 'carbon accounting', pagination: { limit: 1 } })).body.results;
    expect((await lookup(first.id)).body.domain).toBe(first.domain);
    expect((await sandbox.call('GET', `/v1/companies/${first.domain}/similar?limit=1`)).status).toBe(200);
  });

  test('GET (deprecated) returns results identical to POST', async () => {
    const filters = {
      include: { country: ['United States', 'Germany'], size: ['11-50', '51-200'] },
      range: { founded: { min: 2000 } },
    };
    const post = await search({
      q: 'fraud detection for online retailers',
      filters,
      pagination: { offset: 3, limit: 7 },
    });
    const get = await searchGet({
      q: 'fraud detection for online retailers',
      filters: JSON.stringify(filters),
      offset: '3',
      limit: '7',
    });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(post.body);
  });

  test('pages are consistent: offset continues where the previous page ended', async () => {
    const whole = (await search({ q: 'security', pagination: { limit: 20 } })).body.results.map(
      (result: any) => result.id,
    );
    const first = (await search({ q: 'security', pagination: { offset: 0, limit: 10 } })).body.results.map(
      (result: any) => result.id,
    );
    const second = (await search({ q: 'security', pagination: { offset: 10, limit: 10 } })).body.results.map(
      (result: any) => result.id,
    );
    expect([...first, ...second]).toEqual(whole);
  });

  test.each([
    [{}, ['body', 'q']],
    [{ q: '' }, ['body', 'q']],
    [{ q: '   ' }, ['body', 'q']],
    [{ q: 7 }, ['body', 'q']],
    [{ q: 'x', pagination: { limit: 251 } }, ['body', 'pagination', 'limit']],
    [{ q: 'x', pagination: { limit: 0 } }, ['body', 'pagination', 'limit']],
    [{ q: 'x', pagination: { offset: -1 } }, ['body', 'pagination', 'offset']],
    [{ q: 'x', pagination: { offset: 1.5 } }, ['body', 'pagination', 'offset']],
    [{ q: 'x', pagination: 'all' }, ['body', 'pagination']],
    [{ q: 'x', filters: 'include.country=US' }, ['body', 'filters']],
  ])('POST body %j is 422 at %j', async (body, loc) => expectIssue(await search(body), loc));

  test.each([
    [{}, ['query', 'q']],
    [{ q: 'x', limit: '251' }, ['query', 'limit']],
    [{ q: 'x', limit: 'ten' }, ['query', 'limit']],
    [{ q: 'x', offset: '-3' }, ['query', 'offset']],
    [{ q: 'x', filters: '{"include": {"country": ["Germany"]' }, ['query', 'filters']],
    [{ q: 'x', filters: 'not json' }, ['query', 'filters']],
  ])('GET params %j are 422 at %j', async (params, loc) =>
    expectIssue(await searchGet(params as Record<string, string>), loc),
  );

  test('a malformed JSON body is 422', async () => {
    const reply = await sandbox.call('POST', '/v1/companies/search', {
      rawBody: '{"q": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].type).toBe('json_invalid');
  });

  test('limit 250 is accepted', async () => {
    const reply = await search({ q: 'software', pagination: { limit: 250 } });
    expect(reply.status).toBe(200);
    expect(reply.body.results).toHaveLength(250);
  });

  test('paid plans page up to 2,000 results; past that, pages are empty', async () => {
    const edge = await search({ q: 'software platform for teams', pagination: { offset: 1990, limit: 250 } });
    expect(edge.body.results).toHaveLength(10);
    expect(
      (await search({ q: 'software platform for teams', pagination: { offset: 2000, limit: 10 } })).body.results,
    ).toEqual([]);
  });

  test('the free tier pages up to 25 results', async () => {
    const first = await search({ q: 'software platform for teams', pagination: { limit: 250 } }, TOKENS.free);
    expect(first.body.results).toHaveLength(25);
    expect(
      (await search({ q: 'software platform for teams', pagination: { offset: 20, limit: 10 } }, TOKENS.free)).body
        .results,
    ).toHaveLength(5);
    expect(
      (await search({ q: 'software platform for teams', pagination: { offset: 25, limit: 10 } }, TOKENS.free)).body
        .results,
    ).toEqual([]);
  });
});

describe('filters (2.10)', () => {
  const query = 'software for teams';
  const results = async (filters: unknown, limit = 250) =>
    (await search({ q: query, filters, pagination: { limit } })).body.results as any[];

  test('include.size, include.country and include.city restrict results', async () => {
    for (const result of await results({ include: { size: ['11-50'] } })) expect(result.employee_count).toBe('11-50');
    for (const result of await results({ include: { country: ['Germany', 'France'] } }))
      expect(['Germany', 'France']).toContain(result.hq_country);
    const berlin = await results({ include: { city: ['Berlin'] } });
    expect(berlin.length).toBeGreaterThan(0);
    for (const result of berlin) expect(result.hq_city).toBe('Berlin');
  });

  test('exclude.size, exclude.country and exclude.city remove results', async () => {
    const kept = await results({ exclude: { size: ['1-10', '11-50'], country: ['United States'], city: ['London'] } });
    expect(kept.length).toBeGreaterThan(0);
    for (const result of kept) {
      expect(['1-10', '11-50']).not.toContain(result.employee_count);
      expect(result.hq_country).not.toBe('United States');
      expect(result.hq_city).not.toBe('London');
    }
  });

  test('range.founded.min and max bound the founding year (inclusive)', async () => {
    const bounded = await results({ range: { founded: { min: 2005, max: 2010 } } });
    expect(bounded.length).toBeGreaterThan(0);
    for (const result of bounded) {
      expect(result.founding_year).toBeGreaterThanOrEqual(2005);
      expect(result.founding_year).toBeLessThanOrEqual(2010);
    }
  });

  test('filters narrow the candidate set without replacing the query: same relevance, same order', async () => {
    const all = await results(undefined, 250);
    const score = new Map(all.map((result) => [result.id, result.relevance_score]));
    const narrowed = await results({ include: { country: ['United States'] } }, 50);
    const shared = narrowed.filter((result) => score.has(result.id));
    expect(shared.length).toBeGreaterThan(10);
    for (const result of shared) expect(result.relevance_score).toBe(score.get(result.id));
    const order = all.map((result) => result.id).filter((id) => narrowed.some((result) => result.id === id));
    expect(shared.map((result) => result.id)).toEqual(order.slice(0, shared.length));
  });

  test('flat dotted keys are accepted and equal the nested form, which is echoed', async () => {
    const nested = await search({
      q: query,
      filters: { include: { country: ['Canada'] }, exclude: { size: ['1-10'] }, range: { founded: { max: 2015 } } },
    });
    const dotted = await search({
      q: query,
      filters: { 'include.country': ['Canada'], 'exclude.size': ['1-10'], 'range.founded.max': 2015 },
    });
    expect(dotted.body).toEqual(nested.body);
    expect(dotted.body.request.filters).toEqual({
      include: { country: ['Canada'] },
      exclude: { size: ['1-10'] },
      range: { founded: { max: 2015 } },
    });
  });

  test('country and city values match without regard to case', async () => {
    const lower = await results({ include: { country: ['germany'] } });
    expect(lower.length).toBeGreaterThan(0);
    expect(lower.map((result) => result.id)).toEqual(
      (await results({ include: { country: ['Germany'] } })).map((result) => result.id),
    );
  });

  test('exclude.domains removes those companies, accepts URLs and normalizes them', async () => {
    const top = (await results(undefined, 3)).map((result) => result.domain);
    const reply = await search({
      q: query,
      filters: { exclude: { domains: [`https://www.${top[0]}/about`, top[1].toUpperCase(), top[1]] } },
      pagination: { limit: 3 },
    });
    expect(reply.body.request.filters.exclude.domains).toEqual([top[0], top[1]]);
    const domains = reply.body.results.map((result: any) => result.domain);
    expect(domains).not.toContain(top[0]);
    expect(domains).not.toContain(top[1]);
    expect(domains[0]).toBe(top[2]);
  });

  test.each([
    [{ include: { industry: ['AI'] } }, ['body', 'filters', 'include', 'industry']],
    [{ include: { domains: ['a.com'] } }, ['body', 'filters', 'include', 'domains']],
    [{ 'include.industry': ['AI'] }, ['body', 'filters', 'include.industry']],
    [{ country: ['Germany'] }, ['body', 'filters', 'country']],
    [{ range: { employees: { min: 1 } } }, ['body', 'filters', 'range', 'employees']],
    [{ range: { founded: { min: 2000, after: 1 } } }, ['body', 'filters', 'range', 'founded', 'after']],
    [{ include: { size: ['11-50', '50-100'] } }, ['body', 'filters', 'include', 'size', 1]],
    [{ include: { country: 'Germany' } }, ['body', 'filters', 'include', 'country']],
    [{ include: { country: [7] } }, ['body', 'filters', 'include', 'country', 0]],
    [{ range: { founded: { min: '2000' } } }, ['body', 'filters', 'range', 'founded', 'min']],
    [{ range: { founded: { min: 2000.5 } } }, ['body', 'filters', 'range', 'founded', 'min']],
    [{ range: { founded: { min: 2010, max: 2000 } } }, ['body', 'filters', 'range', 'founded']],
    [{ exclude: { domains: ['good.com', 'not a domain'] } }, ['body', 'filters', 'exclude', 'domains', 1]],
    [{ exclude: { domains: ['localhost'] } }, ['body', 'filters', 'exclude', 'domains', 0]],
  ])('filters %j are 422 at %j', async (filters, loc) => expectIssue(await search({ q: query, filters }), loc));

  test('GET filters carry the same precise locations under "query"', async () => {
    expectIssue(await searchGet({ q: query, filters: JSON.stringify({ include: { industry: ['AI'] } }) }), [
      'query',
      'filters',
      'include',
      'industry',
    ]);
  });

  test('exclude.domains: 1,000 distinct domains are accepted, 1,001 are 422, duplicates count once', async () => {
    const domains = Array.from({ length: 1001 }, (_, index) => `excluded-${index}.com`);
    expect((await search({ q: query, filters: { exclude: { domains: domains.slice(0, 1000) } } })).status).toBe(200);
    expectIssue(await search({ q: query, filters: { exclude: { domains } } }), [
      'body',
      'filters',
      'exclude',
      'domains',
    ]);
    const withDuplicates = [
      ...domains.slice(0, 1000),
      ...domains.slice(0, 500).map((domain) => `https://www.${domain}/`),
    ];
    const reply = await search({ q: query, filters: { exclude: { domains: withDuplicates } } });
    expect(reply.status).toBe(200);
    expect(reply.body.request.filters.exclude.domains).toHaveLength(1000);
  });
});

describe('lookalike search (4.10, 4.11)', () => {
  test('returns similar companies, never the reference itself, with reference_company', async () => {
    const reference = (await lookup(seeded[3].domain)).body;
    const reply = await sandbox.call('POST', `/v1/companies/${reference.domain}/similar`, {
      body: { pagination: { limit: 250 } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.reference_company.id).toBe(reference.id);
    expect(reply.body.reference_company.domain).toBe(reference.domain);
    expect(reply.body.results).toHaveLength(250);
    expect(reply.body.results.map((result: any) => result.id)).not.toContain(reference.id);
    for (const result of reply.body.results) expect(Object.keys(result).sort()).toEqual([...RESULT_FIELDS].sort());
    const scores = reply.body.results.map((result: any) => result.relevance_score);
    expect(scores).toEqual([...scores].sort((left: number, right: number) => right - left));
  });

  test('the most similar companies do what the reference does and sell to similar audiences', async () => {
    const reference = (await lookup(seeded[4].domain)).body;
    const results = (await sandbox.call('GET', `/v1/companies/${reference.domain}/similar?limit=5`)).body.results;
    const referenceProducts = reference.context.products_services.toLowerCase().split('; ');
    const overlapping = results.filter((result: any) =>
      referenceProducts.some((product: string) => result.products_services.toLowerCase().includes(product)),
    );
    expect(overlapping.length).toBeGreaterThanOrEqual(3);
  });

  test('the reference may be a domain, a URL or a UUID', async () => {
    const reference = (await lookup(seeded[5].domain)).body;
    const byDomain = (await sandbox.call('GET', `/v1/companies/${reference.domain}/similar?limit=3`)).body;
    const byUuid = (await sandbox.call('GET', `/v1/companies/${reference.id}/similar?limit=3`)).body;
    const byUrl = (
      await sandbox.call(
        'GET',
        `/v1/companies/${encodeURIComponent(`https://www.${reference.domain}/`)}/similar?limit=3`,
      )
    ).body;
    expect(byUuid.results).toEqual(byDomain.results);
    expect(byUrl.results).toEqual(byDomain.results);
  });

  test('GET (deprecated) returns results identical to POST', async () => {
    const filters = { exclude: { country: ['United States'] }, range: { founded: { min: 1990 } } };
    const domain = seeded[6].domain;
    const post = await sandbox.call('POST', `/v1/companies/${domain}/similar`, {
      body: { filters, pagination: { offset: 2, limit: 9 } },
    });
    const get = await sandbox.call(
      'GET',
      `/v1/companies/${domain}/similar?${new URLSearchParams({ filters: JSON.stringify(filters), offset: '2', limit: '9' })}`,
    );
    expect(post.status).toBe(200);
    expect(get.body).toEqual(post.body);
  });

  test('filters narrow the lookalike candidates', async () => {
    const results = (
      await sandbox.call('POST', `/v1/companies/${seeded[7].domain}/similar`, {
        body: { filters: { include: { size: ['51-200'] }, exclude: { city: ['Berlin'] } }, pagination: { limit: 50 } },
      })
    ).body.results;
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.employee_count).toBe('51-200');
      expect(result.hq_city).not.toBe('Berlin');
    }
  });

  test('an unknown reference company is 404', async () => {
    expect((await sandbox.call('GET', '/v1/companies/no-such-company-in-the-sandbox.com/similar')).status).toBe(404);
    expect(
      (await sandbox.call('POST', '/v1/companies/00000000-0000-4000-8000-000000000000/similar', { body: {} })).status,
    ).toBe(404);
  });

  test('same limits: limit over 250 and malformed filters are 422; the free tier pages up to 25', async () => {
    const domain = seeded[8].domain;
    expectIssue(await sandbox.call('GET', `/v1/companies/${domain}/similar?limit=251`), ['query', 'limit']);
    expectIssue(await sandbox.call('GET', `/v1/companies/${domain}/similar?filters=%7Bbad`), ['query', 'filters']);
    expectIssue(
      await sandbox.call('POST', `/v1/companies/${domain}/similar`, { body: { pagination: { limit: 300 } } }),
      ['body', 'pagination', 'limit'],
    );
    expectIssue(
      await sandbox.call('POST', `/v1/companies/${domain}/similar`, {
        body: { filters: { exclude: { domains: ['%%%'] } } },
      }),
      ['body', 'filters', 'exclude', 'domains', 0],
    );
    const free = await sandbox.call('POST', `/v1/companies/${domain}/similar`, {
      body: { pagination: { limit: 100 } },
      token: TOKENS.free,
    });
    expect(free.body.results).toHaveLength(25);
  });
});
