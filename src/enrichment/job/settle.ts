// How each answer of a lookup batch changes the job: a final outcome to write into the rows, a retry entry (the
// service still enriching, a passing error, a 429 or the daily request budget), or a pause that keeps the domain for
// Resume. Pure.
import { failureCause, userMessage, type ApiError } from '../../api/errors';
import { RETRY_MESSAGE_CHARS, type EnrichJob, type RetryEntry } from './job-state';
import type { DomainResolution } from './lookups';
import type { RowOutcome } from '../sheet/rows';
import { LIMITS, PERMANENT_ERRORS } from './limits';

const HOUR_MS = 60 * 60 * 1000;

export interface ChunkWork {
  /** Final outcomes of the batch, per domain. */
  outcomes: Map<string, RowOutcome>;
  fatal: ApiError | null;
  /** The daily request budget refused a batch: no lookup before this time. */
  budgetUntil: number | null;
}

/** One domain of a lookup batch, and its retry entry when it is a retry falling due. */
export interface BatchItem {
  d: string;
  retry: RetryEntry | undefined;
}

function retryEntry(
  previous: RetryEntry | undefined,
  domain: string,
  why: RetryEntry['why'],
  now: number,
  message?: string,
): RetryEntry | null {
  const n = (previous?.n ?? 0) + 1;
  const delays = why === 'enriching' ? LIMITS.enrichingDelaysMs : LIMITS.errorDelaysMs;
  if (n > delays.length) return null;
  const m = message?.slice(0, RETRY_MESSAGE_CHARS);
  return { d: domain, n, at: now + delays[n - 1], why, ...(m ? { m } : {}) };
}

/**
 * Files each looked-up domain of a batch: a profile, not found or a permanent failure is an outcome; a 429 goes back
 * in line after its Retry-After (not counted as an attempt); enriching or a passing error is retried while attempts
 * last; a fatal error pauses the job and keeps the domain for Resume.
 */
export function settleBatch(
  job: EnrichJob,
  work: ChunkWork,
  batch: BatchItem[],
  results: Map<string, DomainResolution>,
  now: number,
): void {
  for (const item of batch) {
    const result = results.get(item.d);
    if (!result) continue;
    if (result.state === 'found') work.outcomes.set(item.d, { kind: 'profile', values: result.values });
    else if (result.state === 'not_found') work.outcomes.set(item.d, { kind: 'not_found' });
    else if (result.state === 'fatal' && result.error.kind === 'quota' && result.error.addIn) {
      // Sheet Scout's daily budget refused it unsent: back in line (not a try) for when requests free up; no pause.
      const at = result.error.retryAt ?? now + HOUR_MS;
      work.budgetUntil = Math.max(work.budgetUntil ?? 0, at);
      job.retries.push({ d: item.d, n: item.retry?.n ?? 0, at, why: item.retry?.why ?? 'error' });
    } else if (result.state === 'fatal') {
      // Not this domain's failure: the job pauses and looks it up again on Resume.
      work.fatal = result.error;
      job.retries.push({ d: item.d, n: item.retry?.n ?? 0, at: now, why: 'paused' });
    } else if (result.state === 'error' && PERMANENT_ERRORS.has(result.error.kind)) {
      work.outcomes.set(item.d, { kind: 'failed', message: userMessage(result.error) });
    } else if (result.state === 'error' && result.error.kind === 'rate_limited') {
      // Refused before it was served: back in line after Retry-After, not counted as a failed attempt, while the
      // next (paced) batches go on.
      const at = now + (result.error.retryAfterSeconds ?? 1) * 1000;
      job.retries.push({ d: item.d, n: item.retry?.n ?? 0, at, why: item.retry?.why ?? 'error' });
    } else {
      const why = result.state === 'enriching' ? 'enriching' : 'error';
      const message = result.state === 'error' ? userMessage(result.error) : undefined;
      // What the lookup met, kept for the panel's retry line ("the service could not be reached").
      const cause = result.state === 'error' ? failureCause(result.error) : undefined;
      const next = retryEntry(item.retry, item.d, why, now, cause);
      if (next) job.retries.push(next);
      else
        work.outcomes.set(
          item.d,
          why === 'enriching' ? { kind: 'enriching' } : { kind: 'failed', message: message ?? 'Lookup failed' },
        );
    }
  }
}
