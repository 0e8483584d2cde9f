// Contract tests over HTTP: the research task lifecycle (spec 3), billing (1.4, 8), reports (2.2, 2.3),
// asynchronous rejection of unusable briefs, mid-run failures, degradation, get/list (addendum paths, 4.2, 4.3).
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; the assertions check their shape */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sandboxPerFile, SandboxClient, TOKENS } from './sandbox-client';

const sandbox = sandboxPerFile();
/** Seeded companies with their lookup profiles. */
let profiles: any[];
let withSocial: any[];
let withoutSocial: any;

beforeAll(async () => {
  const seeded = await sandbox.companies('?enriched=true&limit=120');
  profiles = await Promise.all(
    seeded.map(async (company) => (await sandbox.call('GET', `/v1/companies/${company.domain}`)).body),
  );
  withSocial = profiles.filter((profile) => Object.keys(profile.context.social_profiles).length > 0);
  withoutSocial = profiles.find((profile) => Object.keys(profile.context.social_profiles).length === 0);
});

function citationsOf(markdown: string): Set<number> {
  const body = markdown.split('\n## Sources\n')[0];
  return new Set([...body.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])));
}

function expectConsistentMarkdownReport(task: any): void {
  const report = task.report;
  expect(report.kind).toBe('markdown');
  expect(typeof report.markdown).toBe('string');
  const ids = report.sources.map((source: any) => source.id);
  expect(ids).toEqual(ids.map((_: number, index: number) => index + 1));
  for (const source of report.sources) expect(source.url).toMatch(/^https:\/\//);
  const cited = citationsOf(report.markdown);
  for (const id of cited) expect(ids).toContain(id);
  for (const id of ids) expect(cited.has(id)).toBe(true);
  expect(task.sources).toBe(report.sources.length);
  expect(Array.isArray(report.degradation_reasons)).toBe(true);
}

describe('lifecycle (spec 3)', () => {
  test('created -> in_progress with growing counters -> done; report only when done', async () => {
    const created = await sandbox.createTask({ brief: `Research ${withSocial[0].domain}: products and customers` });
    const seen = await sandbox.runTask(created.id, TOKENS.pro, 500);
    const statuses = seen.map((task) => task.status);
    expect(statuses[0]).toBe('created');
    expect(statuses).toContain('in_progress');
    expect(statuses[statuses.length - 1]).toBe('done');
    const order = ['created', 'in_progress', 'done'];
    for (let index = 1; index < statuses.length; index++)
      expect(order.indexOf(statuses[index])).toBeGreaterThanOrEqual(order.indexOf(statuses[index - 1]));
    const running = seen.filter((task) => task.status === 'in_progress');
    expect(new Set(running.map((task) => task.agents)).size).toBeGreaterThan(1);
    for (const counter of ['iterations', 'agents', 'sources']) {
      for (let index = 1; index < seen.length; index++)
        expect(seen[index][counter]).toBeGreaterThanOrEqual(seen[index - 1][counter]);
    }
    for (const task of seen.slice(0, -1)) expect(task.report).toBeNull();
    const done = seen[seen.length - 1];
    expect(done.iterations).toBeGreaterThanOrEqual(1);
    expect(Date.parse(done.updated_at)).toBeGreaterThan(Date.parse(done.created_at));
    expectConsistentMarkdownReport(done);
  });

  test('at default speed a medium task takes about 10-20 s of sandbox time', async () => {
    const created = await sandbox.createTask({ brief: `Research ${withSocial[1].domain}` });
    const seen = await sandbox.runTask(created.id, TOKENS.pro, 500);
    const done = seen[seen.length - 1];
    const seconds = (Date.parse(done.updated_at) - Date.parse(done.created_at)) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(10);
    expect(seconds).toBeLessThanOrEqual(20);
  });

  test('no moves out of done or failed', async () => {
    const created = await sandbox.createTask({ brief: `Research ${withSocial[0].domain}` });
    const done = (await sandbox.runTask(created.id)).pop();
    await sandbox.advance(600_000);
    const later = (await sandbox.call('GET', `/v1/deep_research_tasks/${created.id}`)).body;
    expect(later).toEqual(done);
  });
});

describe('reports (2.2, 2.3)', () => {
  test("markdown report cites the target company's real profile sources", async () => {
    const target = withSocial[2];
    const created = await sandbox.createTask({ brief: `Research ${target.domain}` });
    const done = (await sandbox.runTask(created.id)).pop();
    expectConsistentMarkdownReport(done);
    expect(done.report.markdown).toContain(target.company_name);
    for (const source of done.report.sources) expect(target.context.sources).toContain(source.url);
    expect(done.report.degradation_reasons).toEqual([]);
  });

  test('schema report fields validate against output_schema; Evidenced wrappers carry real sources and reasoning', async () => {
    const target = withSocial[3];
    const evidenced = (inner: object) => ({
      type: 'object',
      properties: {
        value: inner,
        sources: { type: 'array', items: { type: 'string', format: 'uri' } },
        reasoning: { type: 'string' },
      },
      required: ['value', 'sources', 'reasoning'],
    });
    const schema = {
      type: 'object',
      $defs: {
        place: {
          type: 'object',
          properties: { city: { type: 'string' }, country: { type: 'string' } },
          required: ['city', 'country'],
        },
      },
      properties: {
        company_name: { type: 'string' },
        summary: evidenced({ type: 'string' }),
        founded: evidenced({ type: 'integer', minimum: 1800 }),
        employee_count: {
          type: 'string',
          enum: ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'],
        },
        headquarters: { $ref: '#/$defs/place' },
        products: { type: 'array', items: { type: 'string' }, minItems: 1 },
        website: { type: 'string', format: 'uri' },
        ceo_name: { type: ['string', 'null'] },
      },
      required: ['company_name', 'summary', 'founded', 'headquarters', 'ceo_name'],
    };
    const created = await sandbox.createTask({ brief: `Profile ${target.domain}`, output_schema: schema });
    const done = (await sandbox.runTask(created.id)).pop();
    expect(done.status).toBe('done');
    expect(done.report.kind).toBe('schema');
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    expect(ajv.validate(schema, done.report.fields)).toBe(true);
    const fields = done.report.fields;
    expect(fields.company_name).toBe(target.company_name);
    expect(fields.summary.value).toBe(target.context.short_description);
    expect(fields.founded.value).toBe(target.context.founding_year);
    expect(fields.headquarters).toEqual({ city: target.context.hq_city, country: target.context.hq_country });
    expect(fields.employee_count).toBe(target.context.employee_count);
    expect(fields.website).toBe(`https://${target.domain}/`);
    for (const wrapped of [fields.summary, fields.founded]) {
      expect(wrapped.sources.length).toBeGreaterThan(0);
      for (const url of wrapped.sources) expect(target.context.sources).toContain(url);
      expect(wrapped.reasoning.length).toBeGreaterThan(10);
    }
    expect(fields.ceo_name).toBeNull();
    expect(Array.isArray(done.report.degradation_reasons)).toBe(true);
  });

  test('an exhaustive brief at xhigh depth yields a markdown report over 50,000 characters', async () => {
    const created = await sandbox.createTask({ brief: `Exhaustive report on ${withSocial[4].domain}`, depth: 'xhigh' });
    const done = (await sandbox.runTask(created.id, TOKENS.pro, 2000)).pop();
    expect(done.status).toBe('done');
    expect(done.report.markdown.length).toBeGreaterThan(50_000);
    expect(done.agents).toBeLessThanOrEqual(25);
    expectConsistentMarkdownReport(done);
  });

  test('a market described in words is researched from matching companies of the index', async () => {
    const created = await sandbox.createTask({
      brief: 'cybersecurity vendors selling to hospitals in Germany',
      depth: 'high',
    });
    const done = (await sandbox.runTask(created.id)).pop();
    expect(done.status).toBe('done');
    expectConsistentMarkdownReport(done);
    expect(done.report.markdown).toMatch(/Market scan/);
    const domains = new Set(done.report.sources.map((source: any) => new URL(source.url).hostname));
    expect(domains.size).toBeGreaterThan(3);
  });
});

describe('billing (1.4, 3, 8)', () => {
  test('8 agents at xhigh cost 16 credits: 50 reserved at creation, 34 released when done', async () => {
    const [a, b, c, d] = withSocial;
    const brief = `Research ${a.domain} alongside ${b.domain}, ${c.domain} and ${d.domain}: products, customers, size and headquarters, social presence`;
    const created = await sandbox.createTask({ brief, depth: 'xhigh' });
    expect(await sandbox.credits()).toBe(450);
    const done = (await sandbox.runTask(created.id)).pop();
    expect(done.status).toBe('done');
    expect(done.agents).toBe(8);
    expect(await sandbox.credits()).toBe(484);
  });

  test('only agents that ran are billed, 2 credits each, and the agent count depends on the brief', async () => {
    const plain = await sandbox.createTask({ brief: `Research ${withSocial[5].domain}` });
    const plainDone = (await sandbox.runTask(plain.id)).pop();
    const afterPlain = await sandbox.credits();
    expect(afterPlain).toBe(500 - 2 * plainDone.agents);
    const broad = await sandbox.createTask({
      brief: `Research ${withSocial[5].domain}: competitors, products, customers, headcount`,
      depth: 'high',
    });
    const broadDone = (await sandbox.runTask(broad.id)).pop();
    expect(await sandbox.credits()).toBe(afterPlain - 2 * broadDone.agents);
    expect(plainDone.agents).toBeGreaterThanOrEqual(1);
    expect(broadDone.agents).toBeGreaterThan(plainDone.agents);
    expect(broadDone.agents).toBeLessThanOrEqual(15);
  });

  test('agents never exceed the depth budget; exceeding plans finalize early with a degradation reason', async () => {
    const created = await sandbox.createTask({
      brief: `Who competes with ${withSocial[6].domain}? Also their products, pricing, customers and headcount.`,
    });
    const done = (await sandbox.runTask(created.id)).pop();
    expect(done.agents).toBe(5);
    expect(done.report.degradation_reasons.some((reason: string) => /budget/.test(reason))).toBe(true);
    expect(await sandbox.credits()).toBe(490);
  });

  test('a failed research agent degrades the report (and still counts as an agent that ran)', async () => {
    expect(withoutSocial).toBeDefined();
    const created = await sandbox.createTask({
      brief: `Research ${withoutSocial.domain}: social presence and website traffic`,
    });
    const done = (await sandbox.runTask(created.id)).pop();
    expect(done.status).toBe('done');
    expect(done.report.degradation_reasons.some((reason: string) => /failed/.test(reason))).toBe(true);
    expect(await sandbox.credits()).toBe(500 - 2 * done.agents);
  });
});

describe('money oracle (GET /_sandbox/ledger)', () => {
  test('records per token and UTC day what research reserved, charged and refunded, a task finishing after midnight on the next day', async () => {
    const done = await sandbox.createTask({ brief: `Research ${withSocial[1].domain}` });
    const doneAgents = (await sandbox.runTask(done.id)).pop().agents;
    const failed = await sandbox.createTask({ brief: 'asdf' });
    await sandbox.runTask(failed.id);
    const solo = await sandbox.createTask({ brief: `Research ${withSocial[2].domain}` }, TOKENS.solo);
    const soloAgents = (await sandbox.runTask(solo.id, TOKENS.solo)).pop().agents;
    // Five seconds before midnight UTC: reserved today, charged and refunded tomorrow.
    const now = Date.parse((await sandbox.control('GET', 'clock')).now);
    await sandbox.advance(Date.parse('2025-06-02T23:59:55Z') - now);
    const late = await sandbox.createTask({ brief: `Research ${withSocial[3].domain}`, depth: 'high' });
    const lateAgents = (await sandbox.runTask(late.id)).pop().agents;

    const ledger = (await sandbox.control('GET', `ledger/${TOKENS.pro}`)) as any;
    expect(ledger).toEqual({
      token: TOKENS.pro,
      account: 'sandbox-pro',
      days: [
        {
          day: '2025-06-02',
          reserved: 50,
          charged: 2 * doneAgents,
          refunded: 10 - 2 * doneAgents + 10,
          tasks: [
            { id: done.id, reserved: 10, charged: 2 * doneAgents, refunded: 10 - 2 * doneAgents },
            { id: failed.id, reserved: 10, charged: 0, refunded: 10 },
            { id: late.id, reserved: 30, charged: 0, refunded: 0 },
          ],
        },
        {
          day: '2025-06-03',
          reserved: 0,
          charged: 2 * lateAgents,
          refunded: 30 - 2 * lateAgents,
          tasks: [{ id: late.id, reserved: 0, charged: 2 * lateAgents, refunded: 30 - 2 * lateAgents }],
        },
      ],
    });
    // What the oracle records is what the balance moved by, token by token.
    const moved = ledger.days.reduce((sum: number, day: any) => sum - day.reserved + day.refunded, 0);
    expect(await sandbox.credits()).toBe(500 + moved);
    const all = (await sandbox.control('GET', 'ledger')) as any[];
    expect(all.map((entry) => entry.account).sort()).toEqual(['sandbox-pro', 'sandbox-solo']);
    expect(all.find((entry) => entry.token === TOKENS.solo).days).toEqual([
      {
        day: '2025-06-02',
        reserved: 10,
        charged: 2 * soloAgents,
        refunded: 10 - 2 * soloAgents,
        tasks: [{ id: solo.id, reserved: 10, charged: 2 * soloAgents, refunded: 10 - 2 * soloAgents }],
      },
    ]);
    expect((await sandbox.call('GET', '/_sandbox/ledger/sbx_nobody', { token: null })).status).toBe(404);
    await sandbox.reset();
    expect(await sandbox.control('GET', 'ledger')).toEqual([]);
  });
});

describe('failures (3, 7)', () => {
  test.each(['asdf', 'tell me something', '   '])(
    'brief %p fails asynchronously with reasons and fix suggestions, nothing charged',
    async (brief) => {
      const created = await sandbox.createTask({ brief });
      expect(created.status).toBe('created');
      expect(await sandbox.credits()).toBe(490);
      const seen = await sandbox.runTask(created.id);
      const failed = seen[seen.length - 1];
      expect(failed.status).toBe('failed');
      expect(failed.failure_reason).toMatch(/Reasons:/);
      expect(failed.failure_reason).toMatch(/How to fix/);
      expect(failed.agents).toBe(0);
      expect(failed.report).toBeNull();
      expect(await sandbox.credits()).toBe(500);
    },
  );

  test('a domain that is still being enriched is reported as such', async () => {
    const pending = (await sandbox.companies('?enriched=false&limit=1'))[0];
    const created = await sandbox.createTask({ brief: `Research ${pending.domain}` });
    const failed = (await sandbox.runTask(created.id)).pop();
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toContain('still being enriched');
  });

  test.each([
    ['credits', /credits/i],
    ['internal', /internal error/i],
  ])('failing mid-run (%s) sets failure_reason and refunds everything', async (reason, pattern) => {
    const created = await sandbox.createTask({ brief: `Research ${withSocial[7].domain}: competitors`, depth: 'high' });
    let task = created;
    while (task.agents === 0) {
      await sandbox.advance(500);
      task = (await sandbox.call('GET', `/v1/deep_research_tasks/${created.id}`)).body;
    }
    expect(task.status).toBe('in_progress');
    const failed = await sandbox.control('POST', `tasks/${created.id}/fail`, { reason });
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toMatch(pattern);
    expect(await sandbox.credits()).toBe(500);
    await sandbox.advance(120_000);
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${created.id}`)).body.status).toBe('failed');
  });

  test('a finished task cannot be failed (409)', async () => {
    const created = await sandbox.createTask({ brief: `Research ${withSocial[0].domain}` });
    await sandbox.runTask(created.id);
    const response = await fetch(`${sandbox.url}/_sandbox/tasks/${created.id}/fail`, {
      method: 'POST',
      body: '{"reason":"internal"}',
    });
    expect(response.status).toBe(409);
  });
});

describe('get and list (addendum)', () => {
  test("get: 404 for an unknown id, 403 for another organization, 200 for the owner's organization", async () => {
    const created = await sandbox.createTask({ brief: `Research ${withSocial[0].domain}` });
    const unknown = await sandbox.call('GET', '/v1/deep_research_tasks/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${created.id}`, { token: TOKENS.rival })).status).toBe(
      403,
    );
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${created.id}`, { token: TOKENS.solo })).status).toBe(
      403,
    );
    const member = await sandbox.call('GET', `/v1/deep_research_tasks/${created.id}`, { token: TOKENS.pro2 });
    expect(member.status).toBe(200);
    expect(member.body.owner.id).toBe('usr_sandbox_pro');
  });

  test('list: a bare array, newest first, with offset and limit', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      ids.push((await sandbox.createTask({ brief: `Research ${withSocial[index].domain}` })).id);
      await sandbox.advance(10);
    }
    const all = await sandbox.call('GET', '/v1/deep_research_tasks');
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.map((task: any) => task.id)).toEqual([...ids].reverse());
    const page = await sandbox.call('GET', '/v1/deep_research_tasks?offset=1&limit=2');
    expect(page.body.map((task: any) => task.id)).toEqual([ids[2], ids[1]]);
    expect((await sandbox.call('GET', '/v1/deep_research_tasks?offset=10')).body).toEqual([]);
  });

  test('list: default limit 50', async () => {
    await sandbox.control('POST', 'accounts/sandbox-pro', { credits: 10_000 });
    for (let index = 0; index < 52; index++) await sandbox.createTask({ brief: `Research ${withSocial[0].domain}` });
    expect((await sandbox.call('GET', '/v1/deep_research_tasks')).body).toHaveLength(50);
  });

  test('list: only tasks the caller may read', async () => {
    await sandbox.createTask({ brief: `Research ${withSocial[0].domain}` });
    expect((await sandbox.call('GET', '/v1/deep_research_tasks', { token: TOKENS.rival })).body).toEqual([]);
    expect((await sandbox.call('GET', '/v1/deep_research_tasks', { token: TOKENS.pro2 })).body).toHaveLength(1);
  });

  test.each(['limit=0', 'limit=101', 'limit=abc', 'offset=-1'])('list: %s is 422', async (query) => {
    const reply = await sandbox.call('GET', `/v1/deep_research_tasks?${query}`);
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc[0]).toBe('query');
  });
});

describe('speed on the real clock', () => {
  let fast: SandboxClient;

  beforeAll(async () => {
    fast = await SandboxClient.start({ clock: 'real', speed: 40 });
  });

  afterAll(async () => {
    await fast?.stop();
  });

  test('--speed 40 finishes a medium task in well under two seconds of real time', async () => {
    const domain = withSocial[0].domain;
    const started = Date.now();
    const created = await fast.createTask({ brief: `Research ${domain}` });
    let task = created;
    while (task.status !== 'done' && task.status !== 'failed' && Date.now() - started < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      task = (await fast.call('GET', `/v1/deep_research_tasks/${created.id}`)).body;
    }
    expect(task.status).toBe('done');
    // The run's own times on the sandbox's real clock: each step is stamped when it was due, however late this
    // machine asked.
    expect(Date.parse(task.updated_at) - Date.parse(task.created_at)).toBeLessThan(2000);
  });
});
