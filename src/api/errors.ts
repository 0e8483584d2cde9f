// Errors of the service client as typed values (never thrown, never strings): the ApiError union,
// the Result type every client method returns, and userMessage(), the one short, stable,
// actionable sentence shown to users (in a cell or the sidebar) for each kind of error.
// No error value ever holds the API token: the client scrubs it from every text it copies in.

import type { ValidationIssue } from './types';
import { dashboardSuffix } from '../shared/dashboard-url';

/**
 * Why a call failed. Plain objects discriminated by `kind`:
 * - `no_token`, `bad_base_url`, `invalid_input`: refused locally; nothing was sent.
 * - `unauthorized` (401), `forbidden` (403), `not_found` (404), `validation` (422),
 *   `plan_required` / `insufficient_credits` / `payment_failed` / `payment_required` (402),
 *   `rate_limited` (429), `unavailable` (5xx), `rejected` (another 4xx): the service answered.
 * - `network`, `timeout`: no answer. `maybeSent` says whether the request may have reached it.
 * - `ambiguous`: a non-idempotent call (task or column creation) got no clear answer; it may or
 *   may not have taken effect. It is never retried; reconcile (e.g. through `listTasks`) first.
 * - `quota`: Apps Script's daily UrlFetch quota is used up, or (`addIn`) the add-in's own daily request budget,
 *   whose message is the `detail` and `retryAt` when requests free up (epoch ms); `platform_error`: Apps Script refused
 *   the call for another reason (permission, allow-list, bad argument).
 * - `bad_response`: the service answered with something the client cannot use (redirect, 2xx
 *   without the expected JSON, unknown status).
 */
export type ApiError =
  | { kind: 'no_token' }
  | { kind: 'bad_base_url'; reason: string }
  | { kind: 'invalid_input'; reason: string }
  | { kind: 'unauthorized' }
  | { kind: 'forbidden' }
  | { kind: 'not_found' }
  | { kind: 'validation'; detail: ValidationIssue[] }
  | { kind: 'plan_required'; action: string | null }
  | { kind: 'insufficient_credits'; required: number | null; available: number | null; action: string | null }
  | { kind: 'payment_failed'; action: string | null }
  | { kind: 'payment_required'; action: string | null }
  | { kind: 'rate_limited'; retryAfterSeconds?: number }
  | { kind: 'unavailable'; status: number; retryAfterSeconds?: number }
  | { kind: 'rejected'; status: number }
  | { kind: 'network'; maybeSent: boolean; detail: string }
  | { kind: 'timeout'; maybeSent: boolean; detail: string }
  | { kind: 'ambiguous'; cause: 'network' | 'timeout' | 'server_error'; status?: number; detail: string }
  | { kind: 'quota'; detail: string; addIn?: boolean; retryAt?: number }
  | { kind: 'platform_error'; detail: string }
  | { kind: 'bad_response'; status: number; reason: string };

export type ApiErrorKind = ApiError['kind'];

/**
 * The outcome of one call. `status` is the HTTP status of the answer that produced `value`;
 * `retries` counts how many times the request was re-sent after the first attempt.
 */
export type Result<T> =
  { ok: true; value: T; status: number; retries: number } | { ok: false; error: ApiError; retries: number };

const VALIDATION_MESSAGE_MAX = 120;

/** A validation issue as the user reads it: its message, and where when the service says. */
export function describeIssue(issue: ValidationIssue): string {
  const path = issue.loc.filter((part) => part !== 'body').join('.');
  return path ? `${issue.msg} (${path})` : issue.msg;
}

/** `text`, cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * One short, actionable sentence for an error: the same text for the same cause, so a column of
 * failed cells reads consistently. Holds no secret (errors never carry the token).
 */
/** The service did not answer (down, overloaded, no answer): work that needs it waits for it rather than ending. */
export function isUnreachable(error: ApiError): boolean {
  return ['unavailable', 'rate_limited', 'network', 'timeout'].includes(error.kind);
}

/**
 * What a failed call met, as part of a sentence that goes on to say what was sent, created and charged ("the service
 * could not be reached (no answer)"); the user message for the kinds where the service answered with a refusal.
 */
export function failureCause(error: ApiError): string {
  switch (error.kind) {
    case 'network':
      return 'the service could not be reached (no answer)';
    case 'timeout':
      return 'the service did not answer in time';
    case 'unavailable':
      return `the service was unavailable (HTTP ${error.status})`;
    case 'rate_limited':
      return 'the service asked to slow down (HTTP 429)';
    default:
      return userMessage(error);
  }
}

export function userMessage(error: ApiError): string {
  switch (error.kind) {
    case 'no_token':
      return 'Set up Sheet Scout: Extensions > Sheet Scout > Settings';
    case 'bad_base_url':
      return 'Service address is invalid: fix it in Settings';
    case 'invalid_input':
      return `Invalid input: ${error.reason}`;
    case 'unauthorized':
      return 'Token rejected: check it in Settings';
    case 'forbidden':
      return 'Access denied: this item belongs to another account';
    case 'not_found':
      return 'Not found: check the ID or domain';
    case 'validation': {
      const first = error.detail[0];
      return first
        ? clip(`Rejected by the service: ${describeIssue(first)}`, VALIDATION_MESSAGE_MAX)
        : 'Rejected by the service: check the inputs';
    }
    case 'plan_required':
      return `Research tasks need a Pro plan: upgrade on the dashboard${dashboardSuffix()}`;
    case 'insufficient_credits':
      return error.required !== null && error.available !== null
        ? `Needs ${error.required} credits, you have ${error.available}: try a lower depth`
        : 'Not enough credits: try a lower depth';
    case 'payment_failed':
      return `Payment failed: update billing on the dashboard${dashboardSuffix()}`;
    case 'payment_required':
      return `Payment required: check your plan on the dashboard${dashboardSuffix()}`;
    case 'rate_limited':
      return 'Rate limited, retry later';
    case 'unavailable':
      return 'Service unavailable, retry later';
    case 'rejected':
      return `Request rejected by the service (HTTP ${error.status})`;
    case 'network':
      return 'Network error, retry later';
    case 'timeout':
      return 'Service timed out, retry later';
    case 'ambiguous':
      return 'No clear answer: it may have gone through, check before retrying';
    case 'quota':
      return error.addIn ? error.detail : "Google's daily fetch quota is used up: retry tomorrow";
    case 'platform_error':
      return 'Apps Script refused the request: reopen Sheet Scout and authorize it';
    case 'bad_response':
      return `Unexpected answer from the service (HTTP ${error.status}): check the address in Settings`;
  }
}
