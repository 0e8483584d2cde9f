// URL handling of the service client, written without the `URL` global (Apps Script has none):
// validation of the configured base URL (the token only goes to HTTPS hosts, or plain HTTP on
// loopback), encoding of path segments and query strings, and extraction of an ID from a pasted
// web-app URL (`https://<app host>/tables/<id>`, `/tasks/<id>`).

export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const URL_PATTERN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;
const AUTHORITY_PATTERN = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;
/** Visible ASCII except the backslash; spaces and control characters are not allowed. */
const PATH_PATTERN = /^[\x21-\x5B\x5D-\x7E]*$/;

function isValidHostName(host: string): boolean {
  if (host.startsWith('[')) return true;
  return host.split('.').every((label) => label.length > 0 && !label.startsWith('-') && !label.endsWith('-'));
}

/**
 * Checks the service base URL from settings and returns it normalised (lower-case scheme and host,
 * no trailing slash). HTTPS is required, except plain HTTP to localhost, 127.0.0.1 or [::1]. User
 * info, query strings and fragments are refused so the URL cannot smuggle credentials or
 * parameters. Pure; never throws.
 */
export function validateBaseUrl(input: string): BaseUrlCheck {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'the base URL is empty' };
  const parts = URL_PATTERN.exec(text);
  if (!parts) return { ok: false, reason: 'the base URL is not an absolute http(s) URL' };
  const [, rawScheme, authority, rawPath, query, fragment] = parts;
  const scheme = rawScheme.toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') return { ok: false, reason: `scheme ${scheme} is not allowed` };
  if (authority.includes('@')) return { ok: false, reason: 'the base URL must not contain user info' };
  const hostAndPort = AUTHORITY_PATTERN.exec(authority);
  if (!hostAndPort || !isValidHostName(hostAndPort[1])) return { ok: false, reason: 'the host name is invalid' };
  const host = hostAndPort[1].toLowerCase();
  const port = hostAndPort[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    return { ok: false, reason: 'the port is out of range' };
  }
  if (scheme === 'http' && !LOOPBACK_HOSTS.includes(host)) {
    return { ok: false, reason: 'plain http is only allowed for localhost; use https' };
  }
  if (query !== undefined || fragment !== undefined) {
    return { ok: false, reason: 'the base URL must not have a query or fragment' };
  }
  if (!PATH_PATTERN.test(rawPath)) return { ok: false, reason: 'the path has characters that are not allowed' };
  const path = rawPath.replace(/\/+$/, '');
  return { ok: true, baseUrl: `${scheme}://${host}${port !== undefined ? `:${port}` : ''}${path}` };
}

/**
 * Encodes one path parameter as a single URL segment, or returns null when it cannot be one
 * (empty after trimming, or `.`/`..`, which a server would treat as path navigation).
 */
export function encodePathSegment(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '..') return null;
  return encodeURIComponent(trimmed);
}

/** Appends `?name=value&...` for the parameters that are defined, each name and value URL-encoded. */
export function withQuery(path: string, parameters: Array<[string, string | number | undefined]>): string {
  const pairs = parameters
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Accepts either an ID or a pasted web-app URL and returns the ID: for `kind` = `table`,
 * `https://<app host>/tables/<id>` gives `<id>`; for `task`, `.../tasks/<id>`. A plain value
 * (no `/`) is returned trimmed. Returns null for an empty input or a URL without that segment.
 */
export function idFromUrlOrId(kind: 'task' | 'table', input: string): string | null {
  const text = input.trim();
  if (text === '') return null;
  if (!text.includes('/')) return text;
  const match = new RegExp(`/${kind}s/([^/?#]+)`).exec(text);
  if (!match) return null;
  const id = decodeSegment(match[1]).trim();
  return id === '' ? null : id;
}
