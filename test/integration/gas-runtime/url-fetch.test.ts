// UrlFetchApp over real HTTP against a fixture server in a child process: request building, Google's
// exception texts, HTTPResponse, redirects, parallel fetchAll, network failures, the daily quota, the
// request log, permissions, and HTTP time counting toward the execution's limit.
import { createManualClock, GasRuntime } from '../../../dev/gas-runtime';
import { failureOf, fixtureRuntime, startHttpServer, TestServer } from './helpers';
import { URL_FETCH } from '../../../dev/gas-runtime/costs';

let server: TestServer;
let rt: GasRuntime;
beforeAll(async () => {
  server = await startHttpServer();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  rt = fixtureRuntime('urlfetch');
});
afterEach(async () => {
  await rt.close();
});

const url = (p: string) => `${server.base}${p}`;

test('GET by default; headers and the Apps Script user agent are sent', () => {
  const { code, body } = rt.run<{ code: number; body: { method: string; headers: Record<string, string> } }>(
    'fetchJson',
    [url('/echo'), { headers: { 'X-Api-Key': 'k1' } }],
  );
  expect(code).toBe(200);
  expect(body.method).toBe('GET');
  expect(body.headers['x-api-key']).toBe('k1');
  expect(body.headers['user-agent']).toMatch(
    /^Mozilla\/5.0 \(compatible; Google-Apps-Script; beanserver; \+https:\/\/script.google.com; id: /,
  );
});

test('methods are case-insensitive; a string payload is sent with the given contentType', () => {
  const { body } = rt.run<{ body: { method: string; headers: Record<string, string>; body: string } }>('fetchJson', [
    url('/echo'),
    { method: 'POST', contentType: 'application/json', payload: JSON.stringify({ brief: 'x' }) },
  ]);
  expect([body.method, body.headers['content-type'], body.body]).toEqual(['POST', 'application/json', '{"brief":"x"}']);
});

test('an object payload is form-encoded with the default content type; Blob payloads keep their type', () => {
  const { body } = rt.run<{ body: { headers: Record<string, string>; body: string } }>('fetchJson', [
    url('/echo'),
    { method: 'post', payload: { q: 'a b', n: 1 } },
  ]);
  expect([body.headers['content-type'], body.body]).toEqual(['application/x-www-form-urlencoded', 'q=a%20b&n=1']);
  expect(
    rt.run<{ method: string; headers: Record<string, string>; body: string }>('postBytes', [url('/echo')]),
  ).toMatchObject({
    method: 'PUT',
    headers: { 'content-type': 'text/x-custom' },
    body: 'blob body',
  });
});

test("a failing status throws Google's exception, truncating the server response", () => {
  expect(failureOf(() => rt.run('fetchDescribe', [url('/status/404?body=missing')]))).toBe(
    `Request failed for ${server.base} returned code 404. Truncated server response: missing (use muteHttpExceptions option to examine full response)`,
  );
  const long = 'e'.repeat(400);
  expect(failureOf(() => rt.run('fetchDescribe', [url(`/status/500?body=${long}`)]))).toBe(
    `Request failed for ${server.base} returned code 500. Truncated server response: ${'e'.repeat(147)}... (use muteHttpExceptions option to examine full response)`,
  );
});

test('muteHttpExceptions returns the response; headers as objects, repeated ones as arrays', () => {
  const notFound = rt.run<{ code: number; text: string }>('fetchDescribe', [
    url('/status/404'),
    { muteHttpExceptions: true },
  ]);
  expect([notFound.code, notFound.text]).toEqual([404, 'status 404']);
  const withHeaders = rt.run<{ headers: Record<string, unknown>; allHeaders: Record<string, unknown> }>(
    'fetchDescribe',
    [url('/headers')],
  );
  expect(withHeaders.headers['X-Custom']).toBe('yes');
  expect(typeof withHeaders.headers['Set-Cookie']).toBe('string');
  expect(withHeaders.allHeaders['Set-Cookie']).toEqual(['a=1', 'b=2']);
});

test('getContent and getBlob return signed bytes', () => {
  expect(rt.run('fetchBytes', [url('/bytes')])).toEqual({
    content: [0, 1, 127, -128, -1],
    blobType: 'application/octet-stream',
    blobBytes: [0, 1, 127, -128, -1],
  });
});

test('redirects are followed unless followRedirects is false', () => {
  expect(rt.run<{ code: number }>('fetchDescribe', [url('/redirect?to=/status/200')]).code).toBe(200);
  const raw = rt.run<{ code: number; headers: Record<string, string> }>('fetchDescribe', [
    url('/redirect?to=/elsewhere'),
    { followRedirects: false },
  ]);
  expect([raw.code, raw.headers.Location]).toEqual([302, '/elsewhere']);
});

test('fetchAll runs requests in parallel and keeps their order', () => {
  // The server answers none of the ten until all ten are in flight at once (one after another, the first would time
  // out), then each after its own delay.
  const requests = Array.from({ length: 10 }, (_, i) => ({ url: url(`/gather/${200 + i}?of=10`), timeoutSeconds: 10 }));
  const started = Date.now();
  const texts = rt.run<string[]>('fetchAllTexts', [requests]);
  expect(texts).toEqual(requests.map((_, i) => `200 slept ${200 + i}`));
  expect(Date.now() - started).toBeGreaterThanOrEqual(209);
});

test('a dropped connection in fetchAll throws for the whole call', () => {
  expect(failureOf(() => rt.run('fetchAllTexts', [[url('/status/200'), url('/drop'), url('/status/201')]]))).toBe(
    `Address unavailable: ${url('/drop')}`,
  );
  expect(rt.httpLog.map((e) => e.status ?? e.error)).toEqual([200, 'unavailable', 201]);
});

test("timeouts and refused connections throw Apps Script's messages", () => {
  expect(failureOf(() => rt.run('fetchDescribe', [url('/hang'), { timeoutSeconds: 0.2 }]))).toBe(
    `Timeout: ${url('/hang')}`,
  );
  expect(failureOf(() => rt.run('fetchDescribe', ['http://127.0.0.1:1/nothing']))).toBe(
    'Address unavailable: http://127.0.0.1:1/nothing',
  );
  expect(failureOf(() => rt.run('fetchDescribe', ['ftp://example.com/file']))).toBe(
    'Invalid argument: ftp://example.com/file',
  );
});

test('the daily quota counts every request, throws like Apps Script, and resets after 24 hours', () => {
  const clock = createManualClock();
  const quota = fixtureRuntime('urlfetch', { clock, limits: { urlFetchPerDay: 3 } });
  try {
    quota.run('fetchAllTexts', [[url('/status/200'), url('/status/200')]]);
    expect(failureOf(() => quota.run('fetchAllTexts', [[url('/status/200'), url('/status/200')]]))).toBe(
      'Service invoked too many times for one day: urlfetch.',
    );
    quota.run('fetchDescribe', [url('/status/200')]);
    expect(failureOf(() => quota.run('fetchDescribe', [url('/status/200')]))).toBe(
      'Service invoked too many times for one day: urlfetch.',
    );
    expect(quota.counters.urlFetch).toMatchObject({ total: 3, today: 3, lastExecution: 0, fetchAllCalls: 1 });
    expect(quota.quotaUsage()).toEqual({ urlFetch: 3, triggerRuntimeMs: 0, propertyOps: 0 });
    clock.advance(24 * 3600 * 1000);
    quota.run('fetchDescribe', [url('/status/200')]);
    expect(quota.counters.urlFetch).toMatchObject({ total: 4, today: 1, lastExecution: 1 });
  } finally {
    void quota.close();
  }
});

test('every request is logged with method, url, headers, body and status', () => {
  rt.run('fetchJson', [url('/echo'), { method: 'post', payload: 'hello', headers: { Authorization: 'Bearer t' } }]);
  expect(rt.httpLog).toEqual([
    expect.objectContaining({
      method: 'POST',
      url: url('/echo'),
      headers: expect.objectContaining({
        authorization: 'Bearer t',
        'content-type': 'application/x-www-form-urlencoded',
      }),
      body: 'hello',
      status: 200,
    }),
  ]);
  expect(rt.run('requestPreview', [url('/echo')])).toMatchObject({
    method: 'post',
    payload: 'q=a%20b',
    contentType: 'application/x-www-form-urlencoded',
  });
});

test('UrlFetch works in custom functions but not in AuthMode.LIMITED', () => {
  expect(rt.run('fetchInCustomFunction', [url('/status/200')], { kind: 'custom-function' })).toBe('status 200');
  expect(
    failureOf(() =>
      rt.run('fetchInCustomFunction', [url('/status/200')], { kind: 'simple-trigger', authMode: 'LIMITED' }),
    ),
  ).toBe(
    'You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
  );
});

test('HTTP time counts toward the execution limit on a manual clock, at the latency the server states', () => {
  const clock = createManualClock();
  const limited = fixtureRuntime('urlfetch', { clock, limits: { executionMs: 2_000 } });
  try {
    const before = clock.now();
    limited.run('fetchAndWrite', [url('/delay/250')]);
    expect(limited.spreadsheet.sheet().getValues('A1')).not.toEqual([['']]);
    // The stated 250 ms and the fetch service's own round trip moved the clock, not the real wait.
    expect(clock.now() - before).toBeGreaterThanOrEqual(250 + URL_FETCH.request.ms);
    expect(limited.counters.modelled.byLabel.urlfetch.ms).toBe(250 + URL_FETCH.request.ms);
    limited.spreadsheet.sheet().setValues('A1', [['']]);
    expect(failureOf(() => limited.run('fetchAndWrite', [url('/delay/1900')]))).toBe('Exceeded maximum execution time');
    expect(limited.spreadsheet.sheet().getValues('A1')).toEqual([['']]);
    // The header is the emulator's: the script never sees it.
    const seen = limited.run<{ headers: Record<string, string>; allHeaders: Record<string, string> }>('fetchDescribe', [
      url('/delay/1'),
    ]);
    const names = [...Object.keys(seen.headers), ...Object.keys(seen.allHeaders)].map((name) => name.toLowerCase());
    expect(names).not.toContain('x-sandbox-latency-ms');
    expect(names).toContain('content-length');
  } finally {
    void limited.close();
  }
});

test('on a manual clock real time the service does not state runs past the limit; on the real clock it counts', () => {
  const slow = [url('/quiet/800'), url('/quiet/800'), url('/quiet/800')];
  const manual = fixtureRuntime('urlfetch', { clock: createManualClock(), limits: { executionMs: 2_000 } });
  const real = fixtureRuntime('urlfetch', { limits: { executionMs: 2_000 } });
  try {
    // 2.4 s of real waiting, which the cost model does not see: the real-time watchdog lets it finish.
    const started = Date.now();
    expect(manual.run('fetchEach', [slow])).toEqual(['slept 800', 'slept 800', 'slept 800']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_400);
    expect(manual.counters.modelled.lastExecutionMs).toBeLessThan(2_000);
    expect(failureOf(() => real.run('fetchEach', [slow]))).toBe('Exceeded maximum execution time');
  } finally {
    void manual.close();
    void real.close();
  }
});

test('on a manual clock a slow machine times nothing out: a request times out only past the modelled time left', () => {
  const manual = fixtureRuntime('urlfetch', { clock: createManualClock(), limits: { executionMs: 2_000 } });
  try {
    // 1.5 s stated leaves about 0.5 s of modelled time; the next answer takes 0.8 s of real time and states none.
    expect(manual.run('fetchEach', [[url('/delay/1500'), url('/quiet/800')]])).toEqual(['slept 1500', 'slept 800']);
    // A stated latency past the time left ends the execution, as Apps Script would.
    expect(failureOf(() => manual.run('fetchEach', [[url('/delay/1500'), url('/delay/700')]]))).toBe(
      'Exceeded maximum execution time',
    );
  } finally {
    void manual.close();
  }
});

describe.each([null, 4])('fetchAllConcurrency %p (Google documents no cap on a fetchAll)', (concurrency) => {
  test('a fetchAll is charged its slowest request per wave of that many at once', () => {
    const capped = fixtureRuntime('urlfetch', {
      clock: createManualClock(Date.UTC(2026, 0, 5, 9)),
      behaviours: { fetchAllConcurrency: concurrency },
    });
    try {
      const requests = Array.from({ length: 8 }, (_, i) => ({ url: url(`/delay/${100 + i}`) }));
      capped.run('fetchAllTexts', [requests]);
      const charged = capped.counters.modelled.byLabel.urlfetch.ms;
      // Unlimited: one round, its slowest request (107 ms). Four at a time: two rounds (103 ms, then 107 ms).
      const expected = concurrency === null ? URL_FETCH.request.ms + 107 : 2 * URL_FETCH.request.ms + 103 + 107;
      expect(charged).toBe(expected);
    } finally {
      void capped.close();
    }
  });
});
