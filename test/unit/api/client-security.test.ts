// Security properties of the client: the token only goes to the validated base URL over HTTPS
// (or loopback HTTP), missing or invalid settings stop every call before sending, and the token
// never appears in a result, an error, a user message, a log line or the client object.

import { createServiceClient } from '../../../src/api/client';
import { userMessage } from '../../../src/api/errors';
import type { HttpOutcome } from '../../../src/ports';
import { BASE_URL, ScriptedHttp, TOKEN, noAnswer, reply } from './fakes';
import { ManualClock } from '../../fakes/ports';

function clientWith(settings: { baseUrl: string; token: string | null }) {
  const clock = new ManualClock();
  const http = new ScriptedHttp(clock);
  return { http, client: createServiceClient({ http, clock, settings, random: () => 0, retry: { maxAttempts: 1 } }) };
}

describe('settings checks', () => {
  test.each([null, '', '   '])('no token (%p): every call returns no_token and nothing is sent', (token) => {
    const { http, client } = clientWith({ baseUrl: BASE_URL, token });
    expect(client.getUser()).toEqual({ ok: false, error: { kind: 'no_token' }, retries: 0 });
    expect(client.lookupCompanies(['a.com', 'b.com']).map((r) => !r.ok && r.error.kind)).toEqual([
      'no_token',
      'no_token',
    ]);
    expect(userMessage({ kind: 'no_token' })).toBe('Set up Sheet Scout: Extensions > Sheet Scout > Settings');
    expect(http.batches).toHaveLength(0);
  });

  test.each([
    'http://api.example.test',
    'ftp://api.example.test',
    'api.example.test',
    'https://user:pw@api.example.test',
  ])('the token is never sent to %s', (baseUrl) => {
    const { http, client } = clientWith({ baseUrl, token: TOKEN });
    const result = client.createTask({ brief: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_base_url' } });
    expect(http.batches).toHaveLength(0);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  test('plain HTTP to loopback is allowed for the sandbox', () => {
    const { http, client } = clientWith({ baseUrl: 'http://127.0.0.1:8787/', token: TOKEN });
    http.answer(reply(401, ''));
    client.getUser();
    expect(http.requests[0].url).toBe('http://127.0.0.1:8787/v1/user');
  });

  test('a token with spaces or control characters is refused before sending', () => {
    const { http, client } = clientWith({ baseUrl: BASE_URL, token: 'abc\r\nX-Injected: 1' });
    expect(client.getUser()).toEqual({ ok: false, error: { kind: 'unauthorized' }, retries: 0 });
    expect(http.batches).toHaveLength(0);
  });

  test('a token pasted with surrounding whitespace is trimmed', () => {
    const { http, client } = clientWith({ baseUrl: BASE_URL, token: `  ${TOKEN}\n` });
    http.answer(reply(401, ''));
    client.getUser();
    expect(http.requests[0].headers.Authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('the token never leaks', () => {
  const echoes: Array<[string, HttpOutcome]> = [
    [
      '422 detail echoing the token',
      reply(422, { detail: [{ loc: ['header', TOKEN], msg: `bad token ${TOKEN}`, type: 'x' }] }),
    ],
    ['402 action echoing the token', reply(402, { detail: { error: 'plan_required', action: `upgrade ${TOKEN}` } })],
    ['network failure text with the token', noAnswer(`Exception: Request failed for Bearer ${TOKEN}`, true)],
    ['fatal failure text with the token', noAnswer(`quota for ${TOKEN}`, false, true)],
    ['bad 200 body', reply(200, `{"user_id": "${TOKEN}"`)],
  ];

  test.each(echoes)('%s: not in the result, the error or its user message', (_name, outcome) => {
    const { http, client } = clientWith({ baseUrl: BASE_URL, token: TOKEN });
    http.answer(outcome, outcome);
    for (const result of [client.getUser(), client.createTask({ brief: 'x' })]) {
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      expect(userMessage(result.error)).not.toContain(TOKEN);
    }
  });

  test('a throwing HttpPort whose message holds the token does not leak it', () => {
    const client = createServiceClient({
      http: {
        fetchAll: () => {
          throw new Error(`failed with Authorization: Bearer ${TOKEN}`);
        },
      },
      clock: new ManualClock(),
      settings: { baseUrl: BASE_URL, token: TOKEN },
      retry: { maxAttempts: 1 },
    });
    const result = client.getUser();
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'network', detail: 'failed with Authorization: Bearer [redacted]' },
    });
  });

  test('the client object does not expose the token and nothing is logged', () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      jest.spyOn(console, method).mockImplementation(() => {}),
    );
    try {
      const { http, client } = clientWith({ baseUrl: BASE_URL, token: TOKEN });
      http.answer(reply(500, ''), noAnswer('Timeout', true));
      client.getUser();
      client.createTask({ brief: 'x' });
      expect(JSON.stringify(client)).not.toContain(TOKEN);
      expect(Object.values(client).every((value) => typeof value === 'function')).toBe(true);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
