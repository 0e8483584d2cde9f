// HttpPort over Apps Script's UrlFetchApp.fetchAll. Every request is sent with muteHttpExceptions
// (any status comes back as a response) and followRedirects off (a redirect must not carry the
// Authorization header to another host). fetchAll throws for the whole batch when any request
// fails without an answer, without saying which; that exception becomes one HttpFailure per
// request: fatal for the daily quota and other refusals that a retry cannot fix, otherwise
// `maybeSent: true` for every request of the batch, because any of them may have reached the server.

import type { HttpFailure, HttpOutcome, HttpPort, HttpRequest } from '../ports';

type UrlFetch = Pick<GoogleAppsScript.URL_Fetch.UrlFetchApp, 'fetchAll'>;

/**
 * Refusals that retrying in this execution cannot fix, raised before anything is sent: the daily
 * quota ("Service invoked too many times for one day: urlfetch", "Bandwidth quota exceeded"),
 * missing authorization, the manifest allow-list, size limits and malformed arguments.
 */
const FATAL_PATTERNS = [
  /for one day/i,
  /quota/i,
  /do not have permission/i,
  /not been whitelisted|allowlist/i,
  /limit exceeded/i,
  /invalid argument/i,
];
/**
 * The short-term invocation limit ("Service invoked too many times in a short time") is raised by
 * Apps Script when fetchAll is called, like the quota, so nothing was sent and a later retry may
 * pass. [UNVERIFIED] on a real account.
 */
const NOT_SENT_PATTERNS = [/in a short time/i];
/** A DNS failure of a single-request batch means that request never left. */
const SINGLE_REQUEST_NOT_SENT_PATTERNS = [/dns error/i];

function errorText(error: unknown): string {
  return error !== null && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
}

function toFetchRequest(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const name of Object.keys(request.headers)) {
    // UrlFetchApp takes the content type as its own option, not as a header.
    if (name.toLowerCase() === 'content-type') contentType = request.headers[name];
    else headers[name] = request.headers[name];
  }
  return {
    url: request.url,
    method: request.method,
    headers,
    muteHttpExceptions: true,
    followRedirects: false,
    ...(request.payload !== undefined && { payload: request.payload, contentType: contentType ?? 'application/json' }),
  };
}

/**
 * The statuses whose headers the client reads (Retry-After of a 429 or 5xx, a redirect's target): other responses
 * skip the call that copies them (one service call per response of every round).
 */
const HEADERS_READ = (status: number) => status === 429 || status >= 500 || (status >= 300 && status < 400);

function lowerCaseHeaders(all: object): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(all)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  return headers;
}

function failureFromException(error: unknown, batchSize: number): HttpFailure {
  const message = errorText(error);
  if (FATAL_PATTERNS.some((pattern) => pattern.test(message)))
    return { ok: false, error: message, maybeSent: false, fatal: true };
  const notSent =
    NOT_SENT_PATTERNS.some((pattern) => pattern.test(message)) ||
    (batchSize === 1 && SINGLE_REQUEST_NOT_SENT_PATTERNS.some((pattern) => pattern.test(message)));
  return { ok: false, error: message, maybeSent: !notSent };
}

/** Creates the HttpPort; pass the `UrlFetchApp` global (or a fake in tests). Never throws. */
export function createUrlFetchHttp(urlFetch: UrlFetch): HttpPort {
  return {
    fetchAll(requests: HttpRequest[]): HttpOutcome[] {
      if (requests.length === 0) return [];
      try {
        const responses = urlFetch.fetchAll(requests.map(toFetchRequest));
        return responses.map((response) => {
          const status = response.getResponseCode();
          return {
            ok: true,
            status,
            headers: HEADERS_READ(status) ? lowerCaseHeaders(response.getAllHeaders()) : {},
            body: response.getContentText(),
          };
        });
      } catch (error) {
        const failure = failureFromException(error, requests.length);
        return requests.map(() => failure);
      }
    },
  };
}
