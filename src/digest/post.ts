// Posting a digest to its webhook, and what a failed post says and when it is tried again. The request goes only to
// the webhook's own address (JSON, redirects not followed: src/platform/url-fetch-http.ts). What a failure says never
// carries the address or the platform's error text (which names it): only the service, the status and the service's
// short error code ("404 no_service"). A service that is busy or unreachable (429, 5xx, no answer) is tried again
// after 15 minutes, doubling to 6 hours (the hourly timer tries at its next tick past that); one that refused the post
// (4xx: the webhook was removed, the channel archived) every 6 hours, and Settings says to set the webhook again. The
// digest's rows stay until a post succeeds. A Google Chat post carries a request id (Chat's `requestId` query parameter
// of messages.create, which incoming webhooks are: a post with an id Chat has seen returns that message instead of
// making another), the same for every try of one digest, so a post whose answer was lost never shows twice; its text is
// read in Chat's own markup (`markupSyntax`: a Chat app made since Markdown came defaults to Markdown, where `*x*` is
// italic). Slack's incoming webhooks have no such id; their markup (`mrkdwn`) is pinned too. Pure.
import type { HttpOutcome, HttpRequest } from '../ports';
import { SERVICE_NAMES, type WebhookService } from './webhook';

const MINUTE_MS = 60_000;
const FIRST_RETRY_MS = 15 * MINUTE_MS;
const LAST_RETRY_MS = 6 * 60 * MINUTE_MS;

export type PostResult = { ok: true } | { ok: false; refused: boolean; message: string; retryAfterMs: number };

/**
 * The post of `text` to the webhook at `url` (Slack's and Google Chat's incoming webhooks both take `{text}`), as the
 * post of `digestId`: every try of one digest carries the same id (Google Chat's requestId).
 */
export function postRequest(service: WebhookService, url: string, text: string, digestId: string): HttpRequest {
  const headers = { 'Content-Type': 'application/json' };
  if (service === 'slack') {
    const body = { text, mrkdwn: true, unfurl_links: false, unfurl_media: false };
    return { url, method: 'post', headers, payload: JSON.stringify(body) };
  }
  const body = { text, markupSyntax: 'MARKUP_SYNTAX_CHAT' };
  const requestId = `sheetscout-${digestId}`.replace(/[^A-Za-z0-9-]/g, '-');
  return { url: `${url}&requestId=${requestId}`, method: 'post', headers, payload: JSON.stringify(body) };
}

/** The service's short error code in a refusal (Slack's plain-text code, Google Chat's error status), or ''. */
function errorCode(body: string): string {
  const plain = body.trim();
  if (/^[a-z_]{2,40}$/.test(plain)) return plain;
  try {
    const status = (JSON.parse(body) as { error?: { status?: unknown } }).error?.status;
    return typeof status === 'string' && /^[A-Z_]{2,40}$/.test(status) ? status : '';
  } catch {
    return '';
  }
}

/** How a post ended at `now`; `attempts` counts this one (the retry waits double with each). */
export function postResult(service: WebhookService, outcome: HttpOutcome, attempts: number, now: number): PostResult {
  const name = SERVICE_NAMES[service];
  const backoff = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  if (!outcome.ok) {
    if (outcome.budgetSpent)
      return {
        ok: false,
        refused: false,
        message: "Sheet Scout's requests for today are used up: the digest waits for them",
        retryAfterMs: Math.max(backoff, (outcome.retryAt ?? 0) - now),
      };
    const why = outcome.fatal ? 'Google refused the request' : `${name} could not be reached`;
    return { ok: false, refused: false, message: why, retryAfterMs: backoff };
  }
  if (outcome.status >= 200 && outcome.status < 300) return { ok: true };
  const code = errorCode(outcome.body);
  const answered = `${name} answered ${outcome.status}${code ? ` ${code}` : ''}`;
  if (outcome.status === 429 || outcome.status >= 500) {
    const retryAfter = Number(outcome.headers['retry-after']) * 1000;
    return { ok: false, refused: false, message: answered, retryAfterMs: Math.max(backoff, retryAfter || 0) };
  }
  return {
    ok: false,
    refused: true,
    message: `${answered}: the webhook may have been removed; set it again in Settings > Digest`,
    retryAfterMs: LAST_RETRY_MS,
  };
}
