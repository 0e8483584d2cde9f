// Requests the service client builds: method, URL (paths, path-segment encoding, query strings),
// headers and JSON bodies of every operation, including batch forms and chunking.

import type { ServiceClientDeps } from '../../../src/api/client';
import {
  BASE_URL,
  TOKEN,
  candidate,
  profileBody,
  reply,
  scriptedClient,
  searchBody,
  taskBody,
  userBody,
} from './fakes';

const setup = (overrides: Partial<ServiceClientDeps> = {}) => scriptedClient(overrides);

const JSON_HEADERS = {
  Authorization: `Bearer ${TOKEN}`,
  Accept: 'application/json',
  'Content-Type': 'application/json',
};
const GET_HEADERS = { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' };

describe('service client requests', () => {
  test('getUser sends GET /v1/user with the bearer header and no body', () => {
    const { http, client } = setup();
    http.answer(reply(200, userBody()));
    const result = client.getUser();
    expect(result).toEqual({ ok: true, value: userBody(), status: 200, retries: 0 });
    expect(http.requests).toEqual([{ url: `${BASE_URL}/v1/user`, method: 'get', headers: GET_HEADERS }]);
  });

  test('the base URL is used without its trailing slash and with its path prefix', () => {
    const { http, client } = setup({ settings: { baseUrl: ' https://API.example.test/service/// ', token: TOKEN } });
    http.answer(reply(200, userBody()));
    client.getUser();
    expect(http.requests[0].url).toBe('https://api.example.test/service/v1/user');
  });

  test('createTask POSTs only the interface fields as JSON', () => {
    const { http, client } = setup();
    http.answer(reply(200, taskBody()));
    const schema = { type: 'object' as const, properties: { ceo: { type: 'string' } } };
    const result = client.createTask({
      brief: 'Who runs Acme?',
      depth: 'high',
      output_schema: schema,
      extra: 1,
    } as never);
    expect(result.ok).toBe(true);
    expect(http.requests).toEqual([
      {
        url: `${BASE_URL}/v1/deep_research_tasks`,
        method: 'post',
        headers: JSON_HEADERS,
        payload: JSON.stringify({ brief: 'Who runs Acme?', depth: 'high', output_schema: schema }),
      },
    ]);
  });

  test('createTask leaves out depth and output_schema when not given', () => {
    const { http, client } = setup();
    http.answer(reply(200, taskBody()));
    client.createTask({ brief: 'Acme' });
    expect(JSON.parse(http.requests[0].payload as string)).toEqual({ brief: 'Acme' });
  });

  test('getTask encodes the ID as one path segment and accepts a pasted task URL', () => {
    const { http, client } = setup();
    http.answer(reply(200, taskBody()), reply(200, taskBody()));
    client.getTask('a b?#');
    client.getTask('https://app.example.test/tasks/task_42?tab=report');
    expect(http.requests.map((request) => request.url)).toEqual([
      `${BASE_URL}/v1/deep_research_tasks/a%20b%3F%23`,
      `${BASE_URL}/v1/deep_research_tasks/task_42`,
    ]);
    expect(http.requests.every((request) => request.method === 'get' && request.payload === undefined)).toBe(true);
  });

  test('listTasks sends offset and limit only when given and reads the bare array', () => {
    const { http, client } = setup();
    http.answer(reply(200, [taskBody({ id: 'b' }), taskBody({ id: 'a' })]), reply(200, []));
    const listed = client.listTasks({ offset: 50, limit: 25 });
    client.listTasks();
    expect(listed.ok && listed.value.map((task) => task.id)).toEqual(['b', 'a']);
    expect(http.requests.map((request) => request.url)).toEqual([
      `${BASE_URL}/v1/deep_research_tasks?offset=50&limit=25`,
      `${BASE_URL}/v1/deep_research_tasks`,
    ]);
  });

  test('lookupCompany sends GET /v1/companies/{identifier} with the identifier encoded', () => {
    const { http, client } = setup();
    http.answer(reply(200, profileBody()), reply(200, profileBody('x')));
    http.answer(reply(404, { detail: 'Not Found' }));
    client.lookupCompany(' acme.com ');
    client.lookupCompany('5f0c8a1e-0000-4000-8000-000000000001');
    client.lookupCompany('acme.com/about?x#y');
    expect(http.requests.map((request) => request.url)).toEqual([
      `${BASE_URL}/v1/companies/acme.com`,
      `${BASE_URL}/v1/companies/5f0c8a1e-0000-4000-8000-000000000001`,
      `${BASE_URL}/v1/companies/acme.com%2Fabout%3Fx%23y`,
    ]);
  });

  test('searchCompanies POSTs q, nested filters and pagination, leaving out empty filter parts', () => {
    const { http, client } = setup();
    http.answer(reply(200, searchBody(['a.com'])));
    client.searchCompanies({
      q: 'fintech in Berlin',
      filters: {
        include: { country: ['Germany'], size: ['11-50', '51-200'], city: [] },
        exclude: { domains: ['bank.com'] },
        range: { founded: { min: 2015 } },
      },
      pagination: { offset: 25, limit: 25 },
    });
    const [request] = http.requests;
    expect(request).toMatchObject({ url: `${BASE_URL}/v1/companies/search`, method: 'post', headers: JSON_HEADERS });
    expect(JSON.parse(request.payload as string)).toEqual({
      q: 'fintech in Berlin',
      filters: {
        include: { country: ['Germany'], size: ['11-50', '51-200'] },
        exclude: { domains: ['bank.com'] },
        range: { founded: { min: 2015 } },
      },
      pagination: { offset: 25, limit: 25 },
    });
  });

  test('searchCompanies with only empty filters sends no filters key', () => {
    const { http, client } = setup();
    http.answer(reply(200, searchBody([])));
    client.searchCompanies({ q: 'x', filters: { include: { country: [] }, range: { founded: {} } } });
    expect(JSON.parse(http.requests[0].payload as string)).toEqual({ q: 'x' });
  });

  test('searchCompaniesGet puts q, filters (as a JSON string), offset and limit in the query', () => {
    const { http, client } = setup();
    http.answer(reply(200, searchBody(['a.com'])));
    const filters = { include: { country: ['United States'] }, range: { founded: { max: 2000 } } };
    client.searchCompaniesGet({ q: 'a&b=c', filters, pagination: { offset: 0, limit: 250 } });
    const [request] = http.requests;
    expect(request.method).toBe('get');
    expect(request.payload).toBeUndefined();
    expect(request.headers).toEqual(GET_HEADERS);
    expect(request.url).toBe(
      `${BASE_URL}/v1/companies/search?q=a%26b%3Dc&filters=${encodeURIComponent(JSON.stringify(filters))}&offset=0&limit=250`,
    );
  });

  test('similarCompanies POSTs filters and pagination with the identifier in the path', () => {
    const { http, client } = setup();
    http.answer(reply(200, searchBody(['b.com'], { reference_company: candidate('acme.com') })));
    const result = client.similarCompanies('acme.com', {
      filters: { exclude: { size: ['10001+'] } },
      pagination: { limit: 10 },
    });
    expect(result.ok && result.value.reference_company?.domain).toBe('acme.com');
    expect(http.requests[0]).toMatchObject({ url: `${BASE_URL}/v1/companies/acme.com/similar`, method: 'post' });
    expect(JSON.parse(http.requests[0].payload as string)).toEqual({
      filters: { exclude: { size: ['10001+'] } },
      pagination: { limit: 10 },
    });
  });

  test('similarCompanies without options POSTs an empty object', () => {
    const { http, client } = setup();
    http.answer(reply(200, searchBody([])));
    client.similarCompanies('acme.com');
    expect(http.requests[0].payload).toBe('{}');
  });

  test('similarCompaniesGet puts filters and paging in the query', () => {
    const { http, client } = setup();
    http.answer(reply(200, searchBody([])));
    client.similarCompaniesGet('acme.com', { pagination: { offset: 10 } });
    expect(http.requests[0]).toEqual({
      url: `${BASE_URL}/v1/companies/acme.com/similar?offset=10`,
      method: 'get',
      headers: GET_HEADERS,
    });
  });

  test('createColumns POSTs column_configs and insert_after to the table, accepting a pasted table URL', () => {
    const { http, client } = setup();
    const record = {
      id: 'col_1',
      created_at: '2025-01-01T00:00:00Z',
      config: { kind: 'input', name: 'Domain', key: 'domain' },
    };
    http.answer(reply(200, [record]));
    const columns = [{ kind: 'input' as const, name: 'Domain', key: 'domain' }];
    const result = client.createColumns('https://app.example.test/tables/tbl_9', {
      column_configs: columns,
      insert_after: 'col_0',
    });
    expect(result).toEqual({ ok: true, value: [record], status: 200, retries: 0 });
    expect(http.requests[0]).toEqual({
      url: `${BASE_URL}/v1/tables/tbl_9/columns`,
      method: 'post',
      headers: JSON_HEADERS,
      payload: JSON.stringify({ column_configs: columns, insert_after: 'col_0' }),
    });
  });

  test('replaceTemplate PUTs name and column_configs', () => {
    const { http, client } = setup();
    const template = {
      id: 'tpl_1',
      created_at: '2025-01-01',
      name: 'Leads',
      column_configs: [{ kind: 'input', name: 'D', key: 'd' }],
    };
    http.answer(reply(200, template));
    const result = client.replaceTemplate('tpl 1', { name: null, column_configs: template.column_configs as never });
    expect(result.ok && result.value.name).toBe('Leads');
    expect(http.requests[0]).toMatchObject({
      url: `${BASE_URL}/v1/templates/tpl%201`,
      method: 'put',
      headers: JSON_HEADERS,
    });
    expect(JSON.parse(http.requests[0].payload as string)).toEqual({
      name: null,
      column_configs: template.column_configs,
    });
  });

  test('a batch goes out as one fetchAll and results come back in input order', () => {
    const { http, client } = setup();
    http.answer(
      reply(200, profileBody('a.com')),
      reply(404, { detail: 'Not Found' }),
      reply(202, { status: 'enriching', domain: 'c.com' }),
    );
    const results = client.lookupCompanies(['a.com', 'b.com', 'c.com']);
    expect(http.batches).toHaveLength(1);
    expect(http.batches[0].map((request) => request.url)).toEqual(
      ['a.com', 'b.com', 'c.com'].map((d) => `${BASE_URL}/v1/companies/${d}`),
    );
    expect(results.map((result) => (result.ok ? result.value.state : result.error.kind))).toEqual([
      'ready',
      'not_found',
      'enriching',
    ]);
  });

  test('getTasks, createTasks, runSearches and runSimilar each send one batch', () => {
    const { http, client } = setup();
    http.answer(reply(200, taskBody({ id: 't1' })), reply(200, taskBody({ id: 't2' })));
    expect(client.getTasks(['t1', 't2']).map((r) => r.ok && r.value.id)).toEqual(['t1', 't2']);
    http.answer(reply(200, taskBody({ id: 'n1' })), reply(200, taskBody({ id: 'n2' })));
    expect(client.createTasks([{ brief: 'a' }, { brief: 'b' }]).map((r) => r.ok && r.value.id)).toEqual(['n1', 'n2']);
    http.answer(reply(200, searchBody(['p1.com'])), reply(200, searchBody(['p2.com'])));
    const pages = client.runSearches([0, 25].map((offset) => ({ q: 'x', pagination: { offset, limit: 25 } })));
    expect(pages.map((r) => r.ok && r.value.results[0].domain)).toEqual(['p1.com', 'p2.com']);
    http.answer(reply(200, searchBody(['s1.com'])), reply(200, searchBody(['s2.com'])));
    const similar = client.runSimilar([
      { companyIdentifier: 'a.com' },
      { companyIdentifier: 'b.com', request: { pagination: { offset: 25 } } },
    ]);
    expect(similar.map((r) => r.ok && r.value.results[0].domain)).toEqual(['s1.com', 's2.com']);
    expect(http.batches.map((batch) => batch.length)).toEqual([2, 2, 2, 2]);
    expect(http.batches[2].map((request) => JSON.parse(request.payload as string).pagination.offset)).toEqual([0, 25]);
  });

  test('maxParallel splits a large batch into several fetchAll calls', () => {
    const { http, client } = setup({ maxParallel: 2 });
    const domains = ['a.com', 'b.com', 'c.com', 'd.com', 'e.com'];
    http.answer(...domains.map((domain) => reply(200, profileBody(domain))));
    const results = client.lookupCompanies(domains);
    expect(http.batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
    expect(results.map((result) => result.ok && result.value.state === 'ready' && result.value.profile.domain)).toEqual(
      domains,
    );
  });

  test('an empty batch sends nothing', () => {
    const { http, client } = setup();
    expect(client.lookupCompanies([])).toEqual([]);
    expect(http.batches).toHaveLength(0);
  });

  test('invalid path parameters are refused without sending, the rest of the batch still goes', () => {
    const { http, client } = setup();
    http.answer(reply(200, profileBody()));
    const results = client.lookupCompanies(['  ', 'acme.com', '..']);
    expect(http.requests.map((request) => request.url)).toEqual([`${BASE_URL}/v1/companies/acme.com`]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.kind))).toEqual([
      'invalid_input',
      'ok',
      'invalid_input',
    ]);
    expect(client.getTask('https://app.example.test/tables/tbl_1')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(client.createColumns('', { column_configs: [] })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(client.replaceTemplate('.', { column_configs: [] })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(http.requests).toHaveLength(1);
  });

  test("a GET search whose URL would pass Apps Script's 2082-character limit is refused before sending", () => {
    const { http, client } = setup();
    const domains = Array.from({ length: 200 }, (_, index) => `company-${index}.com`);
    const result = client.searchCompaniesGet({ q: 'x', filters: { exclude: { domains } } });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(http.requests).toHaveLength(0);
    http.answer(reply(200, searchBody([])));
    expect(client.searchCompanies({ q: 'x', filters: { exclude: { domains } } }).ok).toBe(true);
  });

  test('a body that cannot be encoded as JSON is refused without sending', () => {
    const { http, client } = setup();
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    const result = client.createTask({ brief: 'x', output_schema: cyclic as never });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'invalid_input', reason: 'the request body cannot be encoded as JSON' },
      retries: 0,
    });
    expect(http.requests).toHaveLength(0);
  });
});
