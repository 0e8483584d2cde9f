// Contract tests over HTTP for the control API (/_sandbox/): fault injection (429 with Retry-After, 500, 503, dropped
// connections, latency, slow bodies, counts, determinism by seed), request statistics, clock, accounts, company
// listing and configuration; plus a check that the server keeps answering under concurrent load.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; the assertions check their shape */
import { SandboxClient, sandboxPerFile, TOKENS } from './sandbox-client';

const sandbox = sandboxPerFile();

const user = () => sandbox.call('GET', '/v1/user');
const searchQuick = () =>
  sandbox.call('POST', '/v1/companies/search', { body: { q: 'payroll', pagination: { limit: 1 } } });
const rawControl = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/_sandbox/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });

describe('fault injection', () => {
  test('429 carries Retry-After in seconds and a detail body', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', errorRate: 1, errorStatus: 429, retryAfterSeconds: 7 });
    const reply = await user();
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(typeof reply.body.detail).toBe('string');
  });

  test.each([500, 503])('error status %d', async (status) => {
    await sandbox.control('POST', 'faults', { route: 'search', errorRate: 1, errorStatus: status });
    const reply = await searchQuick();
    expect(reply.status).toBe(status);
    expect(typeof reply.body.detail).toBe('string');
  });

  test('count limits how many requests are affected', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', errorRate: 1, errorStatus: 503, count: 2 });
    expect([(await user()).status, (await user()).status, (await user()).status]).toEqual([503, 503, 200]);
  });

  test('faults are deterministic for a seed, and the rate is honoured', async () => {
    const statuses = async (seed: number) => {
      await sandbox.control('POST', 'faults', { route: 'user', errorRate: 0.5, errorStatus: 500, seed });
      const seen: number[] = [];
      for (let index = 0; index < 40; index++) seen.push((await user()).status);
      return seen;
    };
    const first = await statuses(11);
    await sandbox.reset();
    expect(await statuses(11)).toEqual(first);
    const failures = first.filter((status) => status === 500).length;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(32);
    await sandbox.reset();
    expect(await statuses(12)).not.toEqual(first);
  });

  test('a route fault affects only its route; "*" affects all; a route fault takes precedence over "*"', async () => {
    await sandbox.control('POST', 'faults', { route: 'search', errorRate: 1, errorStatus: 500 });
    expect((await user()).status).toBe(200);
    expect((await searchQuick()).status).toBe(500);
    await sandbox.control('POST', 'faults', { route: '*', errorRate: 1, errorStatus: 503 });
    expect((await user()).status).toBe(503);
    expect((await searchQuick()).status).toBe(500);
  });

  test('dropped connections: the client sees a network failure', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', dropRate: 1, count: 1 });
    await expect(user()).rejects.toThrow();
    expect((await user()).status).toBe(200);
  });

  test('latency on a manual clock is stated, not waited out: the emulator counts it as modelled time', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', latencyMs: 600_000 });
    const reply = await user();
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-sandbox-latency-ms')).toBe('600000');
  });

  test('latency on a real clock delays the answer, and is stated too', async () => {
    const real = await SandboxClient.start({ clock: 'real' });
    try {
      await real.control('POST', 'faults', { route: 'user', latencyMs: 300 });
      const started = Date.now();
      const reply = await real.call('GET', '/v1/user');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-sandbox-latency-ms')).toBe('300');
    } finally {
      await real.stop();
    }
  });

  test('slow bodies arrive complete, over the configured time', async () => {
    await sandbox.control('POST', 'faults', { route: 'search', slowBodyMs: 400 });
    const started = Date.now();
    const reply = await searchQuick();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(reply.status).toBe(200);
    expect(reply.body.results).toHaveLength(1);
  });

  test('rawNewlines writes newlines inside JSON strings raw, as the real task GET has been seen doing', async () => {
    const domain = (await sandbox.companies('?limit=1'))[0].domain;
    const task = await sandbox.createTask({ brief: `Research ${domain}\nFocus: products\\n (literal)` });
    await sandbox.control('POST', 'faults', { route: 'tasks.get', rawNewlines: true, count: 1 });
    const response = await fetch(`${sandbox.url}/v1/deep_research_tasks/${task.id}`, {
      headers: { authorization: `Bearer ${TOKENS.pro}` },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain(`Research ${domain}\nFocus: products\\\\n (literal)`);
    expect(() => JSON.parse(text)).toThrow();
    expect(JSON.parse(text.replace(/\n/g, '\\n')).brief).toBe(task.brief);
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${task.id}`)).body.brief).toBe(task.brief);
  });

  test('faults apply before authentication (a gateway answers first)', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', errorRate: 1, errorStatus: 429 });
    expect((await sandbox.call('GET', '/v1/user', { token: null })).status).toBe(429);
  });

  test('DELETE clears faults, and so does reset', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', errorRate: 1 });
    expect(await sandbox.control('GET', 'faults')).toHaveLength(1);
    await sandbox.control('DELETE', 'faults');
    expect((await user()).status).toBe(200);
    await sandbox.control('POST', 'faults', { route: 'user', errorRate: 1 });
    await sandbox.reset();
    expect((await user()).status).toBe(200);
  });

  test.each([
    { route: 'everything', errorRate: 1 },
    { route: 'user', errorRate: 2 },
    { route: 'user', errorRate: 1, errorStatus: 404 },
    { route: 'user', count: -1 },
    { route: 'user', errorRate: 0.7, dropRate: 0.7 },
  ])('an invalid fault %j is 400', async (fault) => {
    expect((await rawControl('POST', 'faults', fault)).status).toBe(400);
  });
});

describe('statistics', () => {
  test('every request is counted per route, including faulted and unauthenticated ones', async () => {
    await sandbox.control('POST', 'faults', { route: 'search', errorRate: 1, count: 1 });
    await searchQuick();
    await searchQuick();
    await user();
    await sandbox.call('GET', '/v1/user', { token: null });
    await sandbox.call('GET', '/v1/companies/example.com');
    await sandbox.call('GET', '/v1/deep_research_tasks');
    expect(await sandbox.control('GET', 'stats')).toEqual({ search: 2, user: 2, lookup: 1, 'tasks.list': 1 });
    await sandbox.control('POST', 'stats/reset');
    expect(await sandbox.control('GET', 'stats')).toEqual({});
  });

  test('dropped requests are counted too', async () => {
    await sandbox.control('POST', 'faults', { route: 'user', dropRate: 1, count: 1 });
    await user().catch(() => undefined);
    expect((await sandbox.control('GET', 'stats')).user).toBe(1);
  });
});

describe('clock, accounts, companies and config', () => {
  test('the manual clock starts at a fixed instant, advances on request and resets', async () => {
    const start = await sandbox.control('GET', 'clock');
    expect(start.now).toBe('2025-06-02T09:00:00.000Z');
    expect(start.mode).toBe('manual');
    const later = await sandbox.control('POST', 'clock/advance', { ms: 90_000 });
    expect(later.now).toBe('2025-06-02T09:01:30.000Z');
    await sandbox.reset();
    expect((await sandbox.control('GET', 'clock')).now).toBe(start.now);
  });

  test('task timestamps come from the sandbox clock', async () => {
    await sandbox.advance(5000);
    const domain = (await sandbox.companies('?limit=1'))[0].domain;
    const task = await sandbox.createTask({ brief: `Research ${domain}` });
    expect(task.created_at).toBe('2025-06-02T09:00:05.000Z');
  });

  test('account credits and plan can be set; unknown accounts and bad values are rejected', async () => {
    const state = await sandbox.control('POST', 'accounts/sandbox-solo', { credits: 7, plan: 'free' });
    expect(state).toMatchObject({ name: 'sandbox-solo', credits: 7, plan: 'free' });
    expect(await sandbox.credits(TOKENS.solo)).toBe(7);
    expect((await rawControl('POST', 'accounts/nobody', { credits: 1 })).status).toBe(404);
    expect((await rawControl('POST', 'accounts/sandbox-pro', { credits: -5 })).status).toBe(400);
    expect((await rawControl('POST', 'accounts/sandbox-pro', { plan: 'enterprise' })).status).toBe(400);
    await sandbox.reset();
    expect(await sandbox.credits(TOKENS.solo)).toBe(200);
  });

  test("an account's older tasks made elsewhere can be seeded: listed in creation order, finished, charged nothing", async () => {
    const domain = (await sandbox.companies('?limit=1'))[0].domain;
    await sandbox.advance(10 * 60_000);
    const mine = await sandbox.createTask({ brief: `Research ${domain}` });
    const credits = await sandbox.credits(TOKENS.pro);
    const { ids } = await sandbox.control('POST', 'tasks/seed', { count: 3, spacingMs: 60_000, ageMs: 30_000 });
    expect(ids).toHaveLength(3);
    const listed = await sandbox.call('GET', '/v1/deep_research_tasks?limit=10');
    // Newest first: the seeded ones (newest 30 s ago) are older than the task created now, and oldest-first in `ids`.
    expect(listed.body.map((task: any) => task.id)).toEqual([mine.id, ...[...ids].reverse()]);
    expect(listed.body.slice(1).every((task: any) => task.status === 'done' && task.report.kind === 'markdown')).toBe(
      true,
    );
    expect(listed.body[3].created_at).toBe('2025-06-02T09:07:30.000Z');
    expect(await sandbox.credits(TOKENS.pro)).toBe(credits);
    expect((await rawControl('POST', 'tasks/seed', { count: 0 })).status).toBe(400);
    expect((await rawControl('POST', 'tasks/seed', { count: 1, account: 'nobody' })).status).toBe(404);
  });

  test('seeded companies can be listed, enriched or not', async () => {
    const pending = await sandbox.companies('?enriched=false&limit=5');
    expect(pending).toHaveLength(5);
    for (const company of pending) {
      expect(company.enriched).toBe(false);
      expect((await sandbox.call('GET', `/v1/companies/${company.domain}`)).status).toBe(202);
    }
    const enriched = await sandbox.companies('?enriched=true&limit=5');
    for (const company of enriched)
      expect((await sandbox.call('GET', `/v1/companies/${company.domain}`)).status).toBe(200);
    const all = await sandbox.companies('?limit=5000');
    expect(all).toHaveLength(5000);
  });

  test('the index holds at least 5,000 enriched companies and a few hundred pending domains', async () => {
    const enriched = await sandbox.companies('?enriched=true&limit=5000&offset=0');
    const pending = await sandbox.companies('?enriched=false&limit=5000');
    expect(enriched.length).toBeGreaterThanOrEqual(5000);
    expect(pending.length).toBeGreaterThanOrEqual(200);
    const countries = new Set(enriched.map((company: any) => company.hq_country));
    const sizes = new Set(enriched.map((company: any) => company.employee_count));
    const industries = new Set(enriched.map((company: any) => company.industry));
    expect(countries.size).toBeGreaterThanOrEqual(10);
    expect(sizes.size).toBe(8);
    expect(industries.size).toBeGreaterThanOrEqual(15);
  });

  test('the research pace of the tasks created from then on is configurable, and reset restores it', async () => {
    const domain = (await sandbox.companies('?limit=1'))[0].domain;
    expect((await sandbox.control('POST', 'config', { researchSpeed: 0.1 })).researchSpeed).toBe(0.1);
    const slow = await sandbox.createTask({ brief: `Research ${domain}` });
    await sandbox.control('POST', 'config', { researchSpeed: 1 });
    // Planning takes 3.5 s at speed 1: 35 s at a tenth of it; the task keeps its pace after the change.
    await sandbox.advance(30_000);
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${slow.id}`)).body.status).toBe('created');
    await sandbox.advance(6_000);
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${slow.id}`)).body.status).toBe('in_progress');
    await sandbox.advance(60_000);
    expect((await sandbox.call('GET', `/v1/deep_research_tasks/${slow.id}`)).body.status).toBe('in_progress');
    expect((await rawControl('POST', 'config', { researchSpeed: 0 })).status).toBe(400);
    await sandbox.reset();
    expect((await sandbox.control('GET', 'config')).speed).toBe(1);
  });

  test('the enrichment delay is configurable', async () => {
    expect((await sandbox.control('POST', 'config', { enrichmentDelayMs: 1234 })).enrichmentDelayMs).toBe(1234);
    expect((await sandbox.control('GET', 'config')).enrichmentDelayMs).toBe(1234);
    expect((await rawControl('POST', 'config', { enrichmentDelayMs: -1 })).status).toBe(400);
  });
});

describe('under load', () => {
  test('answers 600 concurrent mixed requests correctly', async () => {
    const domains = (await sandbox.companies('?limit=20')).map((company) => company.domain);
    const requests = Array.from({ length: 600 }, (_, index) => {
      const kind = index % 4;
      if (kind === 0) return user();
      if (kind === 1)
        return sandbox.call('POST', '/v1/companies/search', {
          body: { q: `software for ${['banks', 'hospitals', 'retailers'][index % 3]}`, pagination: { limit: 10 } },
        });
      if (kind === 2) return sandbox.call('GET', `/v1/companies/${domains[index % domains.length]}`);
      return sandbox.call('GET', `/v1/companies/${domains[index % domains.length]}/similar?limit=10`);
    });
    const replies = await Promise.all(requests);
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
  });
});
