// Retry behaviour of the client: only the failed, retryable subset is re-sent in later rounds;
// one sleep per round with exponential backoff and full jitter; Retry-After honoured up to a cap;
// the time budget and attempt limit respected; creations never blindly retried; quota is fatal.

import { createServiceClient } from '../../../src/api/client';
import { DEFAULT_RETRY_POLICY } from '../../../src/api/executor';
import { BASE_URL, TOKEN, noAnswer, profileBody, reply, scriptedClient, searchBody, taskBody } from './fakes';
import { ManualClock } from '../../fakes/ports';

const setup = scriptedClient;

const urlsOf = (batch: { url: string }[]) =>
  batch.map((request) => request.url.replace(`${BASE_URL}/v1/companies/`, ''));

describe('retry rounds', () => {
  test('only the retryable failures are re-sent, together, after one sleep', () => {
    const { clock, http, client } = setup();
    http.answer(
      reply(200, profileBody('a.com')),
      reply(503, ''),
      reply(404, ''),
      noAnswer('Address unavailable', true),
      reply(500, ''),
    );
    http.answer(reply(200, profileBody('b.com')), reply(200, profileBody('d.com')), reply(200, profileBody('e.com')));
    const results = client.lookupCompanies(['a.com', 'b.com', 'c.com', 'd.com', 'e.com']);
    expect(http.batches.map(urlsOf)).toEqual([
      ['a.com', 'b.com', 'c.com', 'd.com', 'e.com'],
      ['b.com', 'd.com', 'e.com'],
    ]);
    expect(
      results.map((result) => (result.ok ? `ok/${result.retries}` : `${result.error.kind}/${result.retries}`)),
    ).toEqual(['ok/0', 'ok/1', 'not_found/0', 'ok/1', 'ok/1']);
    // Round 2's backoff cap is the base delay; random 0.5 gives half of it.
    expect(clock.sleeps).toEqual([DEFAULT_RETRY_POLICY.baseDelayMs / 2]);
  });

  test('a call that keeps failing is tried maxAttempts times with growing backoff caps', () => {
    const { clock, http, client } = setup({
      random: () => 0.999,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 300, budgetMs: 60_000 },
    });
    http.answer(reply(502, ''), reply(502, ''), reply(502, ''), reply(502, ''));
    const result = client.getUser();
    expect(result).toEqual({ ok: false, error: { kind: 'unavailable', status: 502 }, retries: 3 });
    expect(http.requests).toHaveLength(4);
    // Caps 100, 200, then 300 (maxDelayMs instead of 400); each sleep is random * cap, floored.
    expect(clock.sleeps).toEqual([99, 199, 299]);
  });

  test('jitter stays inside [0, cap]: random 0 retries without sleeping', () => {
    const { clock, http, client } = setup({ random: () => 0 });
    http.answer(reply(503, ''), reply(200, taskBody()));
    expect(client.getTask('task_1')).toMatchObject({ ok: true, retries: 1 });
    expect(clock.sleeps).toEqual([]);
  });

  test('out-of-range random values are clamped into the backoff window', () => {
    const { clock, http, client } = setup({ random: () => 7, retry: { baseDelayMs: 1000 } });
    http.answer(reply(503, ''), reply(200, taskBody()));
    client.getTask('task_1');
    expect(clock.sleeps).toEqual([1000]);
  });

  test('429 Retry-After is honoured: the round sleeps at least that long', () => {
    const { clock, http, client } = setup();
    http.answer(reply(429, '', { 'retry-after': '3' }), reply(503, ''));
    http.answer(reply(200, profileBody('a.com')), reply(200, profileBody('b.com')));
    const results = client.lookupCompanies(['a.com', 'b.com']);
    expect(results.every((result) => result.ok && result.retries === 1)).toBe(true);
    expect(clock.sleeps).toEqual([3000]);
  });

  test('a Retry-After beyond the cap is returned at once while the rest of the batch is retried', () => {
    const { clock, http, client } = setup({ retry: { maxRetryAfterMs: 5_000 } });
    http.answer(reply(429, '', { 'retry-after': '60' }), reply(503, ''));
    http.answer(reply(200, profileBody('b.com')));
    const [limited, retried] = client.lookupCompanies(['a.com', 'b.com']);
    expect(limited).toEqual({ ok: false, error: { kind: 'rate_limited', retryAfterSeconds: 60 }, retries: 0 });
    expect(retried).toMatchObject({ ok: true, retries: 1 });
    expect(http.batches.map(urlsOf)).toEqual([['a.com', 'b.com'], ['b.com']]);
    expect(clock.sleeps).toEqual([DEFAULT_RETRY_POLICY.baseDelayMs / 2]);
  });

  test('no retry round starts when its sleep plus another round would end after the time budget', () => {
    const policy = { budgetMs: 5_000, maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 60_000 };
    const { clock, http, client } = setup({ retry: policy, random: () => 0.999 }, 1_000);
    const start = clock.now();
    for (let index = 0; index < 10; index++) http.answer(reply(503, ''));
    const result = client.getUser();
    // Rounds take 1000 ms. t=1000: sleep 999, round 2 ends at 2999. The next sleep (1998) and a
    // 1000 ms round would end at 5997, past the 5000 ms budget, so the client stops at 2999.
    expect(clock.sleeps).toEqual([999]);
    expect(http.requests).toHaveLength(2);
    expect(result).toEqual({ ok: false, error: { kind: 'unavailable', status: 503 }, retries: 1 });
    expect(clock.now() - start).toBeLessThanOrEqual(policy.budgetMs);
  });

  test('with fast rounds the budget allows more attempts, up to the last one that fits', () => {
    const policy = { budgetMs: 5_000, maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 60_000 };
    const { clock, http, client } = setup({ retry: policy, random: () => 0.999 }, 10);
    const start = clock.now();
    for (let index = 0; index < 10; index++) http.answer(reply(503, ''));
    client.getUser();
    // Sleeps 999 and 1998 fit (the third round ends at 3037 ms); 3996 more would not.
    expect(clock.sleeps).toEqual([999, 1998]);
    expect(clock.now() - start).toBeLessThanOrEqual(policy.budgetMs);
  });

  test('a small budget (custom functions) returns the first failure without waiting', () => {
    const { clock, http, client } = setup({ retry: { budgetMs: 200 } });
    http.answer(reply(429, '', { 'retry-after': '1' }));
    expect(client.lookupCompany('acme.com')).toEqual({
      ok: false,
      error: { kind: 'rate_limited', retryAfterSeconds: 1 },
      retries: 0,
    });
    expect(clock.sleeps).toEqual([]);
    expect(http.unanswered).toBe(0);
  });

  test('POST searches and the PUT template replace are retried like reads', () => {
    const { http, client } = setup();
    http.answer(reply(500, ''), reply(200, searchBody(['a.com'])));
    expect(client.searchCompanies({ q: 'x' })).toMatchObject({ ok: true, retries: 1 });
    http.answer(noAnswer('Timeout', true), reply(200, { id: 't', created_at: 'c', name: 'n', column_configs: [] }));
    expect(client.replaceTemplate('t', { column_configs: [] })).toMatchObject({ ok: true, retries: 1 });
    expect(http.requests.map((request) => request.method)).toEqual(['post', 'post', 'put', 'put']);
  });

  test('client errors and 501 are not retried', () => {
    const { clock, http, client } = setup();
    http.answer(reply(401, ''), reply(404, ''), reply(422, { detail: [] }), reply(501, ''));
    const results = client.getTasks(['a', 'b', 'c', 'd']);
    expect(results.map((result) => !result.ok && result.error.kind)).toEqual([
      'unauthorized',
      'not_found',
      'validation',
      'unavailable',
    ]);
    expect(http.batches).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('creation calls', () => {
  test('a create that timed out after sending is ambiguous and never re-sent', () => {
    const { clock, http, client } = setup();
    http.answer(noAnswer('Timeout: https://api.example.test/v1/deep_research_tasks', true));
    const result = client.createTask({ brief: 'Acme' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'ambiguous', cause: 'timeout' }, retries: 0 });
    expect(http.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  test('a create answered 503 is retried (nothing was created) and succeeds', () => {
    const { http, client } = setup();
    http.answer(reply(503, ''), reply(200, taskBody({ id: 'task_9' })));
    expect(client.createTask({ brief: 'Acme' })).toMatchObject({ ok: true, value: { id: 'task_9' }, retries: 1 });
    expect(http.requests.map((request) => request.payload)).toEqual([
      JSON.stringify({ brief: 'Acme' }),
      JSON.stringify({ brief: 'Acme' }),
    ]);
  });

  test('a create is not retried on 429 or 500', () => {
    const { http, client } = setup();
    http.answer(reply(429, '', { 'retry-after': '1' }), reply(500, ''));
    const results = client.createTasks([{ brief: 'a' }, { brief: 'b' }]);
    expect(results.map((result) => !result.ok && result.error.kind)).toEqual(['rate_limited', 'ambiguous']);
    expect(http.requests).toHaveLength(2);
  });

  test('a create that the platform refused before sending is retried', () => {
    const { http, client } = setup();
    http.answer(noAnswer('Service invoked too many times in a short time: urlfetch', false), reply(200, taskBody()));
    expect(client.createTask({ brief: 'Acme' })).toMatchObject({ ok: true, retries: 1 });
  });

  test('in a batch of creates only the 503s are re-sent', () => {
    const { http, client } = setup();
    http.answer(reply(200, taskBody({ id: 'a' })), reply(503, ''), noAnswer('Timeout', true));
    http.answer(reply(200, taskBody({ id: 'b' })));
    const results = client.createTasks([{ brief: 'a' }, { brief: 'b' }, { brief: 'c' }]);
    expect(http.batches.map((batch) => batch.map((request) => JSON.parse(request.payload as string).brief))).toEqual([
      ['a', 'b', 'c'],
      ['b'],
    ]);
    expect(results.map((result) => (result.ok ? result.value.id : result.error.kind))).toEqual(['a', 'b', 'ambiguous']);
  });

  test('createColumns follows the same rule as task creation', () => {
    const { http, client } = setup();
    const record = { id: 'c1', created_at: 'now', config: { kind: 'input', name: 'A', key: 'a' } };
    http.answer(reply(503, ''), reply(200, [record]));
    expect(client.createColumns('tbl', { column_configs: [] })).toMatchObject({ ok: true, retries: 1 });
    http.answer(noAnswer('Connection reset by peer', true));
    expect(client.createColumns('tbl', { column_configs: [] })).toMatchObject({
      ok: false,
      error: { kind: 'ambiguous' },
      retries: 0,
    });
    expect(http.requests).toHaveLength(3);
  });
});

describe('fatal platform refusals', () => {
  test('the daily quota stops the execution: later chunks are not sent and nothing is retried', () => {
    const { clock, http, client } = setup({ maxParallel: 2 });
    const quota = noAnswer('Service invoked too many times for one day: urlfetch.', false, true);
    http.answer(quota, quota);
    const results = client.lookupCompanies(['a.com', 'b.com', 'c.com', 'd.com', 'e.com']);
    expect(http.batches).toHaveLength(1);
    expect(results.every((result) => !result.ok && result.error.kind === 'quota' && result.retries === 0)).toBe(true);
    expect(clock.sleeps).toEqual([]);
  });

  test('an HttpPort that breaks its contract by throwing yields failures, not an exception', () => {
    const clock = new ManualClock();
    const http = {
      fetchAll: () => {
        throw new Error('adapter bug');
      },
    };
    const client = createServiceClient({
      http,
      clock,
      settings: { baseUrl: BASE_URL, token: TOKEN },
      random: () => 0,
      retry: { maxAttempts: 2 },
    });
    expect(client.getUser()).toEqual({
      ok: false,
      error: { kind: 'network', maybeSent: true, detail: 'adapter bug' },
      retries: 1,
    });
    expect(client.createTask({ brief: 'x' })).toMatchObject({ ok: false, error: { kind: 'ambiguous' } });
  });
});
