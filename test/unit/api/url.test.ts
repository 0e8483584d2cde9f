// Base-URL validation (HTTPS only, loopback HTTP allowed, no user info/query/fragment) and the
// extraction of IDs from pasted web-app URLs.

import { encodePathSegment, idFromUrlOrId, validateBaseUrl, withQuery } from '../../../src/api/url';

describe('validateBaseUrl', () => {
  test.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['  HTTPS://API.Example.com:8443/prefix/  ', 'https://api.example.com:8443/prefix'],
    ['http://localhost:8787', 'http://localhost:8787'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('accepts %s as %s', (input, normalised) => {
    expect(validateBaseUrl(input)).toEqual({ ok: true, baseUrl: normalised });
  });

  test.each([
    ['', 'the base URL is empty'],
    ['api.example.com', 'the base URL is not an absolute http(s) URL'],
    ['//api.example.com', 'the base URL is not an absolute http(s) URL'],
    ['http://api.example.com', 'plain http is only allowed for localhost; use https'],
    ['http://localhost.evil.com', 'plain http is only allowed for localhost; use https'],
    ['http://127.0.0.2', 'plain http is only allowed for localhost; use https'],
    ['ftp://api.example.com', 'scheme ftp is not allowed'],
    ['javascript://alert(1)', 'scheme javascript is not allowed'],
    ['https://token@api.example.com', 'the base URL must not contain user info'],
    ['https://localhost@evil.com', 'the base URL must not contain user info'],
    ['https://api.example.com?x=1', 'the base URL must not have a query or fragment'],
    ['https://api.example.com/#x', 'the base URL must not have a query or fragment'],
    ['https://api..example.com', 'the host name is invalid'],
    ['https://-api.example.com', 'the host name is invalid'],
    ['https://api.example.com:99999', 'the port is out of range'],
    ['https://api.example.com:0', 'the port is out of range'],
    ['https://api example.com', 'the host name is invalid'],
    ['https://api.example.com/a b', 'the path has characters that are not allowed'],
    ['https://api.example.com/a\\b', 'the path has characters that are not allowed'],
  ])('refuses %p', (input, reason) => {
    expect(validateBaseUrl(input)).toEqual({ ok: false, reason });
  });
});

describe('idFromUrlOrId', () => {
  test.each([
    ['table', 'tbl_123', 'tbl_123'],
    ['table', '  tbl_123  ', 'tbl_123'],
    ['table', 'https://app.example.com/tables/tbl_123', 'tbl_123'],
    ['table', 'https://app.example.com/w/acme/tables/tbl_123/rows?view=2#top', 'tbl_123'],
    ['table', 'app.example.com/tables/tbl%20x', 'tbl x'],
    [
      'task',
      'https://app.example.com/tasks/5f0c8a1e-0000-4000-8000-000000000001',
      '5f0c8a1e-0000-4000-8000-000000000001',
    ],
    ['task', 'https://app.example.com/tasks/bad%E0%A4%A', 'bad%E0%A4%A'],
  ] as const)('%s from %p is %p', (kind, input, id) => {
    expect(idFromUrlOrId(kind, input)).toBe(id);
  });

  test.each([
    ['table', ''],
    ['table', '   '],
    ['table', 'https://app.example.com/tasks/t1'],
    ['task', 'https://app.example.com/tables/t1'],
    ['task', 'https://app.example.com/tasks/'],
    ['task', 'a/b'],
  ] as const)('%s from %p is null', (kind, input) => {
    expect(idFromUrlOrId(kind, input)).toBeNull();
  });
});

describe('path and query encoding', () => {
  test('a path parameter is one encoded segment; empty and dot segments are refused', () => {
    expect(encodePathSegment('a/b?c#d e')).toBe('a%2Fb%3Fc%23d%20e');
    expect(encodePathSegment(' acme.com ')).toBe('acme.com');
    expect(encodePathSegment('')).toBeNull();
    expect(encodePathSegment('.')).toBeNull();
    expect(encodePathSegment('..')).toBeNull();
  });

  test('withQuery encodes names and values and skips undefined parameters', () => {
    expect(
      withQuery('/p', [
        ['q', 'a b&c'],
        ['offset', 0],
        ['limit', undefined],
      ]),
    ).toBe('/p?q=a%20b%26c&offset=0');
    expect(withQuery('/p', [['limit', undefined]])).toBe('/p');
  });
});
