// The fair ideal of a bulk enrichment: what a perfect Apps Script client pays for the same job under the emulator's
// cost model (dev/gas-runtime/costs.ts), the figure the enrichment benchmark holds the add-in to. A perfect client
// starts one execution (with the panel's round trip), reads the key column once with its cells, sends the lookups in
// the fullest rounds the platform runs at once (the client's largest round, 100, or the largest multiple of the
// effective fetchAll concurrency under it) and reads each answer's status and text, retries each domain the service
// answered 202 the moment its enrichment is done (so it meets the service's own tail: the wait for the last 202),
// and in every save interval commits the rows
// done in it (one write with their cells), writes its job state once, reads the cache once and writes it once. Only
// what the job cannot avoid is in it: CPU, the panel's later calls, timers and locks are not.
import {
  CLIENT_ROUND_TRIP,
  SHEET,
  cacheDataCost,
  callCost,
  commitCost,
  executionStartCost,
  fetchAllCost,
} from '../dev/gas-runtime/costs';

/** The client's largest round (src/api/throughput.ts, THROUGHPUT_LIMITS.maxBatch). */
export const CLIENT_MAX_ROUND = 100;
/** Characters a cache value holds at most in the add-in's layout (src/companies/profile-cache.ts, under 100 KB). */
const CACHE_VALUE_KB = 95;

export interface FairIdealJob {
  /** The unique domains, in the order of their first row in the sheet. */
  domains: readonly string[];
  /** Domains the service answered 202 (enrichment started) at their first lookup. */
  accepted: ReadonlySet<string>;
  latencyMs: number;
  /** How long after its first lookup the service has a 202 domain ready. */
  enrichmentDelayMs: number;
  /** fetchAll's effective concurrency (null: all of a round at once). */
  concurrency: number | null;
  /** Data rows and the fields written into each. */
  rows: number;
  fields: number;
  bundleBytes: number;
  /** The job's save interval (src/enrichment/job/limits.ts). */
  saveIntervalMs: number;
  /** KB of lookups the job leaves in the cache. */
  cacheKb: number;
}

export interface FairIdeal {
  ms: number;
  /** Its parts, in ms: http (the rounds and the wait for the last 202), start, keyColumn, saves, cache. */
  parts: Record<string, number>;
  round: number;
  intervals: number;
}

/** The fullest round a perfect client sends at this concurrency. */
export function idealRound(concurrency: number | null): number {
  if (!concurrency || concurrency <= 0 || concurrency >= CLIENT_MAX_ROUND) return CLIENT_MAX_ROUND;
  return Math.floor(CLIENT_MAX_ROUND / concurrency) * concurrency;
}

/** The perfect client's lookups in modelled time: full rounds, each 202 retried in the first round after it is ready. */
export function idealHttpMs(
  job: Pick<FairIdealJob, 'domains' | 'accepted' | 'latencyMs' | 'enrichmentDelayMs' | 'concurrency'>,
): number {
  const round = idealRound(job.concurrency);
  const waiting: { domain: string; at: number }[] = [];
  let now = 0;
  let next = 0;
  while (next < job.domains.length || waiting.length > 0) {
    const due = waiting.filter((entry) => entry.at <= now).slice(0, round);
    const fresh = job.domains.slice(next, next + round - due.length);
    if (due.length + fresh.length === 0) {
      now = Math.min(...waiting.map((entry) => entry.at));
      continue;
    }
    for (const entry of due) waiting.splice(waiting.indexOf(entry), 1);
    next += fresh.length;
    for (const domain of fresh) if (job.accepted.has(domain)) waiting.push({ domain, at: now + job.enrichmentDelayMs });
    const size = due.length + fresh.length;
    // The fetchAll call, its waves, and reading each answer's status and text.
    now +=
      callCost('UrlFetchApp', 'fetchAll') +
      fetchAllCost(new Array<number>(size).fill(job.latencyMs), job.concurrency) +
      size * (callCost('HTTPResponse', 'getResponseCode') + callCost('HTTPResponse', 'getContentText'));
  }
  return now;
}

export function fairIdeal(job: FairIdealJob): FairIdeal {
  const http = idealHttpMs(job);
  const intervals = Math.max(1, Math.ceil(http / job.saveIntervalMs));
  const kbPerInterval = job.cacheKb / intervals;
  const cacheValues = Math.max(1, Math.ceil(kbPerInterval / CACHE_VALUE_KB));
  const parts = {
    http,
    start: executionStartCost(job.bundleBytes) + CLIENT_ROUND_TRIP.ms,
    keyColumn: SHEET.read.ms + job.rows * SHEET.readPerCell.ms,
    // Each interval's commit grows with the cells written in it: in all, every result cell once.
    saves:
      intervals * (SHEET.write.ms + callCost('Properties', 'setProperty')) +
      intervals * commitCost(0) +
      job.rows * job.fields * (SHEET.writePerCell.ms + SHEET.commitPerCell.ms),
    cache:
      intervals *
      (callCost('Cache', 'getAll') +
        cacheDataCost(cacheValues, 0, 0) +
        callCost('Cache', 'putAll') +
        cacheDataCost(cacheValues, 0, kbPerInterval)),
  };
  const ms = Object.values(parts).reduce((sum, part) => sum + part, 0);
  return { ms, parts, round: idealRound(job.concurrency), intervals };
}
