// The generic call executor of the service client: sends a batch of prepared requests through
// HttpPort.fetchAll (Apps Script's only parallelism) in rounds sized and paced by the adaptive throughput
// (throughput.ts) when the client has one, maps every answer or failure to a typed
// Result, and re-sends only the retryable subset in later rounds, sleeping once per round with
// exponential backoff and full jitter inside a total time budget.
//
// Retry rules:
// - Idempotent calls (GET, the POST searches, PUT template): retried on 429 (Retry-After honoured
//   up to a cap), 500/502/503/504 and failures without an answer (network, timeout).
// - Non-idempotent calls (task and column creation): retried only when nothing can have happened:
//   a 503 (the interface says nothing was created) or a failure the platform reports as not sent.
//   A failure that may have reached the server, or another 5xx, is returned as `ambiguous` and is
//   never retried; the caller reconciles (e.g. through listTasks).
// - A fatal platform refusal (daily quota, permission, allow-list) ends the execution: nothing
//   more is sent, and the calls not yet sent share that error.

import type { ClockPort, HttpFailure, HttpOutcome, HttpPort, HttpRequest, HttpResponse } from '../ports';
import type { ApiError, Result } from './errors';
import { parseJsonTolerant } from './json';
import { readPaymentDetail, readValidationIssues, type Read } from './responses';
import type { AdaptiveThroughput } from './throughput';

export interface RetryPolicy {
  /** Total time for all rounds of one execute(), waits included, in ms. */
  budgetMs: number;
  /** Most attempts per call, the first one included. */
  maxAttempts: number;
  /** Before retry round n the backoff is random in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After that is waited for; a longer one is returned to the caller at once. */
  maxRetryAfterMs: number;
  /** Return 429 answers at once instead of waiting: for a bulk caller that queues them and goes on meanwhile. */
  handBackRateLimited: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  budgetMs: 20_000,
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 10_000,
  handBackRateLimited: false,
};

export const DEFAULT_MAX_PARALLEL = 20;

/** One call of a batch: a request ready to send, or an error found before sending. */
export type Call<T> =
  | {
      request: HttpRequest;
      /** False for creations: see the retry rules above. */
      idempotent: boolean;
      /** Turns a 2xx answer's parsed body (undefined for an empty 202) into the call's value. */
      read: (status: number, body: unknown) => Read<T>;
    }
  | { refused: ApiError };

export interface ExecutorDeps {
  http: HttpPort;
  clock: ClockPort;
  random: () => number;
  policy: RetryPolicy;
  /** Requests per fetchAll when no adaptive throughput is given. */
  maxParallel: number;
  /** Sizes and paces every round (throughput.ts); without it rounds are `maxParallel` requests, unpaced. */
  throughput?: AdaptiveThroughput;
}

type Verdict<T> =
  | { final: true; result: { ok: true; value: T; status: number } | { ok: false; error: ApiError } }
  | { final: false; error: ApiError; retryAfterMs?: number };

const RETRYABLE_SERVER_STATUSES = [500, 502, 503, 504];
/** Apps Script's daily-quota refusals: "Service invoked too many times for one day: urlfetch", "Bandwidth quota exceeded". */
const QUOTA_PATTERN = /for one day|quota/i;
const TIMEOUT_PATTERN = /time[d ]?\s?out/i;

function finalError<T>(error: ApiError): Verdict<T> {
  return { final: true, result: { ok: false, error } };
}

/** Retry-After as whole seconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function parseRetryAfterSeconds(response: HttpResponse, nowMs: number): number | undefined {
  const value = response.headers['retry-after'];
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const dateMs = Date.parse(text);
  return Number.isNaN(dateMs) ? undefined : Math.max(0, Math.ceil((dateMs - nowMs) / 1000));
}

function classifyFailure<T>(failure: HttpFailure, idempotent: boolean): Verdict<T> {
  if (failure.fatal) {
    if (failure.budgetSpent)
      return finalError({ kind: 'quota', detail: failure.error, addIn: true, retryAt: failure.retryAt });
    return finalError(
      QUOTA_PATTERN.test(failure.error)
        ? { kind: 'quota', detail: failure.error }
        : { kind: 'platform_error', detail: failure.error },
    );
  }
  const cause = TIMEOUT_PATTERN.test(failure.error) ? 'timeout' : 'network';
  if (!idempotent && failure.maybeSent) return finalError({ kind: 'ambiguous', cause, detail: failure.error });
  return { final: false, error: { kind: cause, maybeSent: failure.maybeSent, detail: failure.error } };
}

function classifyPaymentRequired(body: unknown): ApiError {
  const detail = readPaymentDetail(body);
  const action = detail?.action ?? null;
  switch (detail?.error) {
    case 'plan_required':
      return { kind: 'plan_required', action };
    case 'insufficient_credits':
      return {
        kind: 'insufficient_credits',
        required: detail.required_credits ?? null,
        available: detail.available_credits ?? null,
        action,
      };
    case 'payment_failed':
      return { kind: 'payment_failed', action };
    default:
      return { kind: 'payment_required', action };
  }
}

function classifyResponse<T>(
  response: HttpResponse,
  call: { idempotent: boolean; read: (status: number, body: unknown) => Read<T> },
  nowMs: number,
  handBackRateLimited: boolean,
): Verdict<T> {
  const { status } = response;
  const parsed = parseJsonTolerant(response.body);
  const body = parsed.ok ? parsed.value : undefined;
  if (status >= 200 && status < 300) {
    if (!parsed.ok && status !== 202) return finalError({ kind: 'bad_response', status, reason: parsed.reason });
    const read = call.read(status, body);
    return read.ok
      ? { final: true, result: { ok: true, value: read.value, status } }
      : finalError({ kind: 'bad_response', status, reason: read.reason });
  }
  switch (status) {
    case 401:
      return finalError({ kind: 'unauthorized' });
    case 402:
      return finalError(classifyPaymentRequired(body));
    case 403:
      return finalError({ kind: 'forbidden' });
    case 404:
      return finalError({ kind: 'not_found' });
    case 422:
      return finalError({ kind: 'validation', detail: readValidationIssues(body) });
    case 429: {
      const retryAfterSeconds = parseRetryAfterSeconds(response, nowMs);
      const error: ApiError = { kind: 'rate_limited', ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) };
      if (!call.idempotent || handBackRateLimited) return finalError(error);
      return {
        final: false,
        error,
        retryAfterMs: retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : undefined,
      };
    }
  }
  if (status >= 500 && status < 600) {
    const retryAfterSeconds = parseRetryAfterSeconds(response, nowMs);
    const error: ApiError = {
      kind: 'unavailable',
      status,
      ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    };
    const retryAfterMs = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : undefined;
    if (!call.idempotent) {
      if (status === 503) return { final: false, error, retryAfterMs };
      return finalError({ kind: 'ambiguous', cause: 'server_error', status, detail: `HTTP ${status}` });
    }
    if (RETRYABLE_SERVER_STATUSES.includes(status)) return { final: false, error, retryAfterMs };
    return finalError(error);
  }
  if (status >= 400 && status < 500) return finalError({ kind: 'rejected', status });
  if (status >= 300 && status < 400) return finalError({ kind: 'bad_response', status, reason: 'redirected' });
  return finalError({ kind: 'bad_response', status, reason: 'unexpected status' });
}

function errorText(error: unknown): string {
  return error !== null && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
}

/** One fetchAll round; a throwing adapter (HttpPort promises not to) leaves every request possibly sent. */
function sendRound(deps: ExecutorDeps, chunk: HttpRequest[]): HttpOutcome[] {
  let answers: HttpOutcome[];
  try {
    answers = deps.http.fetchAll(chunk);
  } catch (error) {
    const failure: HttpFailure = { ok: false, error: errorText(error), maybeSent: true };
    answers = chunk.map(() => failure);
  }
  return chunk.map(
    (_, index) => answers[index] ?? { ok: false, error: 'no outcome from the HTTP port', maybeSent: true },
  );
}

/** Tells the adaptive throughput what a round met. */
function reportRound(
  throughput: AdaptiveThroughput,
  outcomes: HttpOutcome[],
  startedMs: number,
  durationMs: number,
): void {
  const rateLimited = outcomes.filter((outcome) => outcome.ok && outcome.status === 429).length;
  const failed = outcomes.filter((outcome) => (outcome.ok ? outcome.status >= 500 : !outcome.fatal)).length;
  throughput.record({ size: outcomes.length, startedMs, durationMs, rateLimited, failed });
}

/**
 * Sends the given requests in rounds, one fetchAll each: rounds of `maxParallel`, or sized and paced by the
 * adaptive throughput when there is one. After a fatal failure (daily quota, permission) the remaining requests
 * are not sent and share that failure.
 */
function sendInChunks(deps: ExecutorDeps, requests: HttpRequest[]): HttpOutcome[] {
  const { clock, throughput } = deps;
  const outcomes: HttpOutcome[] = [];
  let fatal: HttpFailure | null = null;
  for (let start = 0; start < requests.length;) {
    const size = throughput ? throughput.batchSize(requests.length - start) : Math.max(1, Math.floor(deps.maxParallel));
    const chunk = requests.slice(start, start + size);
    start += chunk.length;
    if (fatal) {
      outcomes.push(...chunk.map(() => fatal as HttpFailure));
      continue;
    }
    const delayMs = throughput ? throughput.delayBefore(clock.now(), chunk.length) : 0;
    if (delayMs > 0) clock.sleep(delayMs);
    const startedMs = clock.now();
    const answers = sendRound(deps, chunk);
    if (throughput) reportRound(throughput, answers, startedMs, clock.now() - startedMs);
    for (const outcome of answers) {
      if (!outcome.ok && outcome.fatal && !fatal) fatal = outcome;
      outcomes.push(outcome);
    }
  }
  return outcomes;
}

/**
 * Runs a batch of calls and returns one Result per call, in order. Never throws. Round 1 sends every
 * call; each later round re-sends only the calls whose failure is retryable, after one sleep of
 * max(jittered backoff, largest honoured Retry-After). Retrying stops when `maxAttempts` is reached
 * or the sleep plus another round as long as the last one would not end inside the time budget;
 * those calls keep their last error.
 */
export function execute<T>(deps: ExecutorDeps, calls: Call<T>[]): Result<T>[] {
  const { clock, policy } = deps;
  const results: Array<Result<T> | undefined> = calls.map(() => undefined);
  const retries = calls.map(() => 0);
  const deadline = clock.now() + policy.budgetMs;
  let pending: number[] = [];
  calls.forEach((call, index) => {
    if ('refused' in call) results[index] = { ok: false, error: call.refused, retries: 0 };
    else pending.push(index);
  });

  for (let attempt = 1; pending.length > 0; attempt++) {
    const sendable = pending.map((index) => calls[index] as Extract<Call<T>, { request: HttpRequest }>);
    const roundStartMs = clock.now();
    const outcomes = sendInChunks(
      deps,
      sendable.map((call) => call.request),
    );
    const nowMs = clock.now();
    const roundMs = nowMs - roundStartMs;
    const retryable: Array<{ index: number; error: ApiError; retryAfterMs?: number }> = [];
    pending.forEach((index, position) => {
      const outcome = outcomes[position];
      const call = sendable[position];
      const verdict = outcome.ok
        ? classifyResponse(outcome, call, nowMs, policy.handBackRateLimited)
        : classifyFailure<T>(outcome, call.idempotent);
      if (verdict.final) results[index] = { ...verdict.result, retries: retries[index] };
      else retryable.push({ index, error: verdict.error, retryAfterMs: verdict.retryAfterMs });
    });

    const waitable = retryable.filter((item) => (item.retryAfterMs ?? 0) <= policy.maxRetryAfterMs);
    const backoffCapMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const sleepMs = Math.max(
      Math.floor(Math.min(Math.max(deps.random(), 0), 1) * backoffCapMs),
      ...waitable.map((item) => item.retryAfterMs ?? 0),
    );
    // The next round is expected to take about as long as this one did.
    const retryNow = waitable.length > 0 && attempt < policy.maxAttempts && nowMs + sleepMs + roundMs <= deadline;
    const retrying = new Set(retryNow ? waitable : []);
    for (const item of retryable) {
      if (!retrying.has(item)) results[item.index] = { ok: false, error: item.error, retries: retries[item.index] };
    }
    if (!retryNow) break;
    if (sleepMs > 0) clock.sleep(sleepMs);
    pending = [...retrying].map((item) => item.index);
    for (const index of pending) retries[index] += 1;
  }
  return results.map((result) => result as Result<T>);
}
