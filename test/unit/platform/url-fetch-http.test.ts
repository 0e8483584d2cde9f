// The UrlFetchApp adapter: request options (muteHttpExceptions, no redirects, JSON payload and
// content type), response mapping (lower-case headers where read, repeated headers joined), and how a thrown
// fetchAll becomes per-request failures (quota and refusals fatal, otherwise maybe sent).

import { createUrlFetchHttp } from '../../../src/platform/url-fetch-http';
import type { HttpRequest } from '../../../src/ports';

type FetchRequest = GoogleAppsScript.URL_Fetch.URLFetchRequest;

function fakeResponse(status: number, body: string, headers: Record<string, string | string[]>) {
  return {
    getResponseCode: () => status,
    getContentText: () => body,
    getAllHeaders: () => headers,
  } as unknown as GoogleAppsScript.URL_Fetch.HTTPResponse;
}

function fakeUrlFetch(answer: (requests: FetchRequest[]) => GoogleAppsScript.URL_Fetch.HTTPResponse[]) {
  const calls: FetchRequest[][] = [];
  return {
    calls,
    fetchAll(requests: Array<FetchRequest | string>) {
      calls.push(requests as FetchRequest[]);
      return answer(requests as FetchRequest[]);
    },
  };
}

const get: HttpRequest = {
  url: 'https://api.example.test/v1/user',
  method: 'get',
  headers: { Authorization: 'Bearer t', Accept: 'application/json' },
};
const post: HttpRequest = {
  url: 'https://api.example.test/v1/deep_research_tasks',
  method: 'post',
  headers: { Authorization: 'Bearer t', Accept: 'application/json', 'Content-Type': 'application/json' },
  payload: '{"brief":"x"}',
};

describe('createUrlFetchHttp', () => {
  test('sends every request in one fetchAll with safe options and a JSON payload', () => {
    const urlFetch = fakeUrlFetch((requests) => requests.map(() => fakeResponse(200, '{}', {})));
    createUrlFetchHttp(urlFetch).fetchAll([get, post]);
    expect(urlFetch.calls).toEqual([
      [
        { url: get.url, method: 'get', headers: get.headers, muteHttpExceptions: true, followRedirects: false },
        {
          url: post.url,
          method: 'post',
          headers: { Authorization: 'Bearer t', Accept: 'application/json' },
          muteHttpExceptions: true,
          followRedirects: false,
          payload: '{"brief":"x"}',
          contentType: 'application/json',
        },
      ],
    ]);
  });

  test('maps responses in order with lower-case headers where the client reads them; repeated headers are joined', () => {
    const headersRead: number[] = [];
    const counted = (status: number, body: string, headers: Record<string, string | string[]>) => {
      const response = fakeResponse(status, body, headers);
      return Object.assign(response, {
        getAllHeaders: () => {
          headersRead.push(status);
          return headers;
        },
      });
    };
    const urlFetch = fakeUrlFetch(() => [
      counted(429, '{"detail":"slow"}', { 'Retry-After': '3', 'Set-Cookie': ['a=1', 'b=2'] }),
      counted(200, '{"ok":1}', { 'Content-Type': 'application/json' }),
      counted(503, '{}', { 'Retry-After': '5' }),
      counted(404, '{}', { 'Content-Type': 'application/json' }),
    ]);
    expect(createUrlFetchHttp(urlFetch).fetchAll([get, get, get, get])).toEqual([
      { ok: true, status: 429, headers: { 'retry-after': '3', 'set-cookie': 'a=1, b=2' }, body: '{"detail":"slow"}' },
      { ok: true, status: 200, headers: {}, body: '{"ok":1}' },
      { ok: true, status: 503, headers: { 'retry-after': '5' }, body: '{}' },
      { ok: true, status: 404, headers: {}, body: '{}' },
    ]);
    // Only a 429 or 5xx (Retry-After) and a redirect have headers the client reads: the others cost no call for them.
    expect(headersRead).toEqual([429, 503]);
  });

  test('an empty batch makes no call', () => {
    const urlFetch = fakeUrlFetch(() => []);
    expect(createUrlFetchHttp(urlFetch).fetchAll([])).toEqual([]);
    expect(urlFetch.calls).toHaveLength(0);
  });

  function failuresWhenThrowing(message: string, batch: HttpRequest[]) {
    const urlFetch = fakeUrlFetch(() => {
      throw new Error(message);
    });
    return createUrlFetchHttp(urlFetch).fetchAll(batch);
  }

  test('a network exception marks every request of the batch as maybe sent', () => {
    expect(failuresWhenThrowing('Address unavailable: https://api.example.test/v1/user', [get, post])).toEqual([
      { ok: false, error: 'Address unavailable: https://api.example.test/v1/user', maybeSent: true },
      { ok: false, error: 'Address unavailable: https://api.example.test/v1/user', maybeSent: true },
    ]);
    expect(failuresWhenThrowing('Timeout: https://api.example.test/v1/deep_research_tasks', [post])).toEqual([
      { ok: false, error: 'Timeout: https://api.example.test/v1/deep_research_tasks', maybeSent: true },
    ]);
  });

  test.each([
    'Service invoked too many times for one day: urlfetch.',
    'Bandwidth quota exceeded: https://api.example.test',
    'You do not have permission to call UrlFetchApp.fetchAll. Required permissions: https://www.googleapis.com/auth/script.external_request',
    'Request to https://api.example.test/v1/user failed because the URL has not been whitelisted in the script manifest',
    'Limit Exceeded: URLFetch URL Length.',
    'Invalid argument: https://api.example.test/v1/a b',
  ])('%s is fatal and not sent', (message) => {
    expect(failuresWhenThrowing(message, [get, get])).toEqual([
      { ok: false, error: message, maybeSent: false, fatal: true },
      { ok: false, error: message, maybeSent: false, fatal: true },
    ]);
  });

  test('the short-term invocation limit is not sent and not fatal', () => {
    const message =
      'Service invoked too many times in a short time: urlfetch. Try Utilities.sleep(1000) between calls.';
    expect(failuresWhenThrowing(message, [post])).toEqual([{ ok: false, error: message, maybeSent: false }]);
  });

  test('a DNS error is "not sent" only for a single-request batch', () => {
    const message = 'DNS error: https://api.example.test/v1/user';
    expect(failuresWhenThrowing(message, [post])).toEqual([{ ok: false, error: message, maybeSent: false }]);
    expect(failuresWhenThrowing(message, [post, get]).map((failure) => !failure.ok && failure.maybeSent)).toEqual([
      true,
      true,
    ]);
  });

  test('a thrown non-Error value is still reported', () => {
    const urlFetch = fakeUrlFetch(() => {
      throw 'plain string failure';
    });
    expect(createUrlFetchHttp(urlFetch).fetchAll([get])).toEqual([
      { ok: false, error: 'plain string failure', maybeSent: true },
    ]);
  });
});
