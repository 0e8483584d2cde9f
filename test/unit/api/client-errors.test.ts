// How the client maps answers and failures to typed errors and outcomes: every status of the
// interface's error table, the 202 enrichment outcome, platform failures, malformed bodies.
// Retries are switched off here (maxAttempts 1) so each mapping is seen on its own.

import type { HttpOutcome } from '../../../src/ports';
import { noAnswer, profileBody, reply, scriptedClient, taskBody, userBody } from './fakes';
import { ManualClock } from '../../fakes/ports';

const setup = () => scriptedClient({ retry: { maxAttempts: 1 } });

function userErrorFor(outcome: HttpOutcome) {
  const { http, client } = setup();
  http.answer(outcome);
  const result = client.getUser();
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

function createErrorFor(outcome: HttpOutcome) {
  const { http, client } = setup();
  http.answer(outcome);
  const result = client.createTask({ brief: 'Acme' });
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('error mapping', () => {
  test('401 is unauthorized', () => {
    expect(userErrorFor(reply(401, { detail: 'Not authenticated' }))).toEqual({ kind: 'unauthorized' });
  });

  test('402 plan_required keeps the action', () => {
    const body = { detail: { error: 'plan_required', action: 'Upgrade to Pro' } };
    expect(createErrorFor(reply(402, body))).toEqual({ kind: 'plan_required', action: 'Upgrade to Pro' });
  });

  test('402 insufficient_credits carries required and available credits', () => {
    const body = {
      detail: { error: 'insufficient_credits', action: 'Top up', required_credits: 50, available_credits: 12 },
    };
    expect(createErrorFor(reply(402, body))).toEqual({
      kind: 'insufficient_credits',
      required: 50,
      available: 12,
      action: 'Top up',
    });
  });

  test('402 insufficient_credits without the numbers keeps them null', () => {
    const body = { detail: { error: 'insufficient_credits' } };
    expect(createErrorFor(reply(402, body))).toEqual({
      kind: 'insufficient_credits',
      required: null,
      available: null,
      action: null,
    });
  });

  test('402 payment_failed, and a 402 with an unknown or missing detail', () => {
    expect(createErrorFor(reply(402, { detail: { error: 'payment_failed' } }))).toEqual({
      kind: 'payment_failed',
      action: null,
    });
    expect(createErrorFor(reply(402, { detail: { error: 'card_expired' } }))).toEqual({
      kind: 'payment_required',
      action: null,
    });
    expect(createErrorFor(reply(402, 'Payment Required'))).toEqual({ kind: 'payment_required', action: null });
  });

  test('403 is forbidden and 404 is not_found', () => {
    const { http, client } = setup();
    http.answer(reply(403, { detail: 'Forbidden' }), reply(404, { detail: 'Not Found' }));
    expect(client.getTasks(['other', 'missing']).map((r) => !r.ok && r.error)).toEqual([
      { kind: 'forbidden' },
      { kind: 'not_found' },
    ]);
  });

  test('422 carries the detail list', () => {
    const detail = [
      { loc: ['body', 'brief'], msg: 'String should have at least 1 character', type: 'string_too_short' },
    ];
    expect(createErrorFor(reply(422, { detail }))).toEqual({ kind: 'validation', detail });
  });

  test('422 with an unreadable body gives an empty detail list', () => {
    expect(createErrorFor(reply(422, '<html>oops</html>'))).toEqual({ kind: 'validation', detail: [] });
  });

  test('429 with Retry-After seconds, with an HTTP date, and without', () => {
    expect(userErrorFor(reply(429, { detail: 'slow down' }, { 'retry-after': '7' }))).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 7,
    });
    const inTwelveSeconds = new Date(new ManualClock().now() + 12_000).toUTCString();
    expect(userErrorFor(reply(429, '', { 'retry-after': inTwelveSeconds }))).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 12,
    });
    expect(userErrorFor(reply(429, ''))).toEqual({ kind: 'rate_limited' });
  });

  test('500 and 503 are unavailable with their status', () => {
    expect(userErrorFor(reply(500, 'Internal Server Error'))).toEqual({ kind: 'unavailable', status: 500 });
    expect(userErrorFor(reply(503, { detail: 'busy' }, { 'retry-after': '3' }))).toEqual({
      kind: 'unavailable',
      status: 503,
      retryAfterSeconds: 3,
    });
  });

  test('another 4xx is rejected with its status; a redirect or 1xx is a bad response', () => {
    expect(userErrorFor(reply(409, ''))).toEqual({ kind: 'rejected', status: 409 });
    expect(userErrorFor(reply(301, '', { location: 'https://elsewhere.test/v1/user' }))).toEqual({
      kind: 'bad_response',
      status: 301,
      reason: 'redirected',
    });
    expect(userErrorFor(reply(101, ''))).toEqual({ kind: 'bad_response', status: 101, reason: 'unexpected status' });
  });

  test('network and timeout failures say whether the request may have been sent', () => {
    expect(userErrorFor(noAnswer('Address unavailable: https://api.example.test/v1/user', true))).toEqual({
      kind: 'network',
      maybeSent: true,
      detail: 'Address unavailable: https://api.example.test/v1/user',
    });
    expect(userErrorFor(noAnswer('Timeout: https://api.example.test/v1/user', true))).toMatchObject({
      kind: 'timeout',
      maybeSent: true,
    });
    expect(userErrorFor(noAnswer('Service invoked too many times in a short time: urlfetch', false))).toMatchObject({
      kind: 'network',
      maybeSent: false,
    });
  });

  test('a create that timed out or lost its connection after sending is ambiguous', () => {
    expect(createErrorFor(noAnswer('Timeout: https://api.example.test/v1/deep_research_tasks', true))).toMatchObject({
      kind: 'ambiguous',
      cause: 'timeout',
    });
    expect(createErrorFor(noAnswer('Connection reset', true))).toMatchObject({ kind: 'ambiguous', cause: 'network' });
  });

  test('a create answered with a 5xx other than 503 is ambiguous (it may have been created)', () => {
    expect(createErrorFor(reply(500, ''))).toEqual({
      kind: 'ambiguous',
      cause: 'server_error',
      status: 500,
      detail: 'HTTP 500',
    });
    expect(createErrorFor(reply(504, ''))).toMatchObject({ kind: 'ambiguous', status: 504 });
    expect(createErrorFor(reply(503, ''))).toEqual({ kind: 'unavailable', status: 503 });
    expect(createErrorFor(reply(429, ''))).toEqual({ kind: 'rate_limited' });
  });

  test('the daily quota is its own kind; other fatal refusals are platform errors', () => {
    expect(userErrorFor(noAnswer('Service invoked too many times for one day: urlfetch.', false, true))).toMatchObject({
      kind: 'quota',
    });
    expect(
      userErrorFor(noAnswer('You do not have permission to call UrlFetchApp.fetchAll', false, true)),
    ).toMatchObject({
      kind: 'platform_error',
    });
  });

  test('a 2xx body that is not JSON, or lacks required fields, is a bad response', () => {
    expect(userErrorFor(reply(200, '<html>login</html>'))).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(userErrorFor(reply(200, { email: 'x@example.com' }))).toEqual({
      kind: 'bad_response',
      status: 200,
      reason: 'user field user_id is missing or not a string',
    });
    expect(userErrorFor(reply(204))).toMatchObject({ kind: 'bad_response', status: 204, reason: 'empty body' });
  });

  test('a task with an unknown status is a bad response rather than a silently wrong value', () => {
    const { http, client } = setup();
    http.answer(reply(200, taskBody({ status: 'queued' })));
    expect(client.getTask('t1')).toMatchObject({
      ok: false,
      error: { kind: 'bad_response', reason: 'unknown task status queued' },
    });
  });
});

describe('lookup outcomes', () => {
  test('200 is ready with the profile', () => {
    const { http, client } = setup();
    http.answer(reply(200, profileBody()));
    expect(client.lookupCompany('acme.com')).toEqual({
      ok: true,
      value: { state: 'ready', profile: profileBody() },
      status: 200,
      retries: 0,
    });
  });

  test('202 is enriching, with or without a body, and cannot be mistaken for a profile', () => {
    const { http, client } = setup();
    http.answer(reply(202, { status: 'enriching', domain: 'new.com', message: 'Enrichment started' }), reply(202));
    const [withBody, withoutBody] = client.lookupCompanies(['new.com', 'other.com']);
    expect(withBody).toEqual({
      ok: true,
      value: { state: 'enriching', domain: 'new.com', message: 'Enrichment started' },
      status: 202,
      retries: 0,
    });
    expect(withoutBody).toEqual({
      ok: true,
      value: { state: 'enriching', domain: null, message: null },
      status: 202,
      retries: 0,
    });
  });

  test('user answers keep every field of the interface', () => {
    const { http, client } = setup();
    http.answer(
      reply(200, { ...userBody(), organization_id: 'org_1', organization_name: 'Acme', organization_slug: 'acme' }),
    );
    expect(client.getUser()).toMatchObject({ ok: true, value: { available_credits: 120, organization_slug: 'acme' } });
  });
});
