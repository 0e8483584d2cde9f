// The progress of a bulk enrichment job as the panel shows it: counts, percent, the domains waiting for the service
// or for a retry, the rate and ETA, and when the driver should call again; and each sheet's last run, kept
// when a new job replaces the document's one job record.
import type { EnrichProgress } from '../contract';
import { loadJob, type EnrichJob, type RetryEntry } from './job-state';
import { LIMITS } from './limits';
import type { EnrichDeps } from '../ports';
import { columnLetter } from '../../shared/a1';
import type { KeyValueStore } from '../../ports';

export function progressOf(job: EnrichJob, now: number, busy = false): EnrichProgress {
  const enriching = job.retries.filter((entry) => entry.why === 'enriching').length;
  const blocked = job.retries.filter((entry) => entry.why === 'paused').length;
  const percent =
    job.status === 'done'
      ? 100
      : job.totalDomains === 0
        ? 0
        : Math.min(99, Math.floor((job.resolvedDomains / job.totalDomains) * 100));
  const end = job.finishedAt ?? job.updatedAt;
  const seconds = Math.max(0.001, (end - job.startedAt) / 1000);
  const rate = job.resolvedDomains / seconds;
  const waiting = job.retries.filter((entry) => entry.why !== 'paused');
  const nextTry = waiting.length > 0 ? Math.min(...waiting.map((entry) => entry.at)) : null;
  let nextStepInMs = -1;
  const waitUntil = job.waitUntil && job.waitUntil > now ? job.waitUntil : null;
  if (job.status === 'running') {
    if (busy) nextStepInMs = 3000;
    else if (waitUntil !== null) nextStepInMs = waitUntil - now;
    else if (job.moreRows && job.retries.length < LIMITS.maxWaitingDomains) nextStepInMs = 0;
    else if (job.retries.length > 0) {
      nextStepInMs = Math.max(0, retryGroupEnd(job.retries, Math.min(...job.retries.map((entry) => entry.at))) - now);
    } else nextStepInMs = 0;
  }
  return {
    jobId: job.id,
    status: job.status,
    message: job.message,
    sheetName: job.sheetName,
    domainColumnLabel: job.domainHeader
      ? `${columnLetter(job.domainColumn)}: ${job.domainHeader}`
      : columnLetter(job.domainColumn),
    headers: job.headers,
    overwrite: job.overwrite,
    scope: job.scope,
    counts: job.counts,
    totalDomains: job.totalDomains,
    resolvedDomains: job.resolvedDomains,
    percent,
    enriching,
    retrying: job.retries.length - enriching - blocked,
    retryCause: mostCommon(job.retries.filter((entry) => entry.why === 'error').map((entry) => entry.m)),
    blocked,
    nextTrySeconds: nextTry === null ? null : Math.max(0, Math.ceil((nextTry - now) / 1000)),
    lookups: job.lookups,
    cacheHits: job.cacheHits,
    chunks: job.chunks,
    rate: Math.round(rate * 10) / 10,
    ...estimate(job, now, seconds, waiting, nextTry),
    nextStepInMs,
    waitingForRequestsUntil: job.status === 'running' ? waitUntil : null,
    busy,
    startedAt: job.startedAt,
    updatedAt: job.updatedAt,
  };
}

/** The most frequent of the texts given (ties: the first met), or null when none. */
function mostCommon(texts: Array<string | undefined>): string | null {
  const counts = new Map<string, number>();
  for (const text of texts) if (text) counts.set(text, (counts.get(text) ?? 0) + 1);
  let best: string | null = null;
  for (const [text, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = text;
  return best;
}

/** The time by which the retries falling due with the first one (within retryGroupMs) are all due. */
function retryGroupEnd(retries: RetryEntry[], first: number): number {
  return Math.max(first, ...retries.map((entry) => entry.at).filter((at) => at <= first + LIMITS.retryGroupMs));
}

/**
 * Seconds left: the domains never looked up at the rate of fresh (uncached) results, and the waiting domains no
 * sooner than their next try; the latest finish adds every retry delay the job still allows them.
 */
function estimate(
  job: EnrichJob,
  now: number,
  seconds: number,
  waiting: RetryEntry[],
  nextTry: number | null,
): Pick<EnrichProgress, 'etaSeconds' | 'etaLatestSeconds'> {
  if (job.status !== 'running') return { etaSeconds: null, etaLatestSeconds: null };
  const notLookedUp = Math.max(0, job.totalDomains - job.resolvedDomains - job.retries.length);
  const freshRate = Math.max(0, job.resolvedDomains - job.cacheHits) / seconds;
  const fresh = notLookedUp === 0 ? 0 : freshRate > 0 ? notLookedUp / freshRate : null;
  if (fresh === null) return { etaSeconds: null, etaLatestSeconds: null };
  if (nextTry === null) return { etaSeconds: Math.ceil(fresh), etaLatestSeconds: Math.ceil(fresh) };
  const latest = Math.max(
    ...waiting.map((entry) => {
      const delays = entry.why === 'enriching' ? LIMITS.enrichingDelaysMs : LIMITS.errorDelaysMs;
      return entry.at + delays.slice(entry.n).reduce((sum, delay) => sum + delay, 0);
    }),
  );
  return {
    etaSeconds: Math.ceil(Math.max(fresh, (nextTry - now) / 1000)),
    etaLatestSeconds: Math.ceil(Math.max(fresh, (latest - now) / 1000)),
  };
}

export function currentProgress(deps: Pick<EnrichDeps, 'store' | 'clock'>): EnrichProgress | null {
  const job = loadJob(deps.store);
  return job ? progressOf(job, deps.clock.now()) : null;
}

const LAST_RUN_PREFIX = 'sheetscout.enrich.lastRun.';

/**
 * Keeps a finished job's progress as its sheet's last run before a new job replaces the record (one job record per
 * document), so each sheet's panel shows its own last run. A store too full for it only loses that summary.
 */
export function keepLastRun(store: KeyValueStore, job: EnrichJob, now: number): void {
  try {
    store.set(LAST_RUN_PREFIX + job.sheetId, JSON.stringify(progressOf(job, now)));
  } catch {
    // The document's properties are full: the summary is the one thing dropped.
  }
}

/** A sheet's last run kept by keepLastRun, or null. */
export function lastRunOf(store: KeyValueStore, sheetId: number): EnrichProgress | null {
  try {
    return JSON.parse(store.get(LAST_RUN_PREFIX + sheetId) ?? 'null') as EnrichProgress | null;
  } catch {
    return null;
  }
}
