// Looks up a batch of domains for the enrichment job: the shared profile cache first (the same entries the custom
// functions use), then one client batch call (one fetchAll per round) for the misses. An execution reads the cache
// once for every domain it may look up (LookupCacheSession) and stores the final answers back into the buckets it
// read when the job saves, instead of a cache read and write per round: an execution killed between two saves repeats
// at most one save interval of its lookups (0 credits each), one that saved repeats none.
import type { CachePort } from '../../ports';
import type { ApiError, Result } from '../../api/errors';
import type { LookupOutcome } from '../../api/types';
import {
  readLookupBuckets,
  writeLookupBuckets,
  type CachedLookup,
  type LookupBuckets,
} from '../../companies/profile-cache';
import { profileValues } from '../../companies/profile-fields';

/** The part of the service client the job needs. */
export interface LookupClient {
  /** Domains to hand over at once: one fetchAll round of the client's adaptive throughput. */
  batchSize(): number;
  lookupCompanies(identifiers: string[]): Result<LookupOutcome>[];
}

export type DomainResolution =
  | CachedLookup
  | { state: 'enriching' }
  /** A failure worth retrying later (rate limit, 5xx, network). */
  | { state: 'error'; error: ApiError }
  /** A failure no retry fixes until the user acts (token, settings, quota): the job pauses. */
  | { state: 'fatal'; error: ApiError };

const FATAL: ReadonlySet<ApiError['kind']> = new Set([
  'no_token',
  'bad_base_url',
  'unauthorized',
  'forbidden',
  'quota',
  'platform_error',
  'payment_required',
  'payment_failed',
  'plan_required',
]);

export interface BatchResolution {
  results: Map<string, DomainResolution>;
  cacheHits: number;
  /** Requests the client sent, its own retries included. */
  requests: number;
}

const NO_ANSWER: ReadonlySet<ApiError['kind']> = new Set(['network', 'timeout']);

/**
 * One batch call; when every call of it got no answer (Apps Script's fetchAll throws for the whole batch when one
 * connection drops, so one bad request sinks all of them), the batch is split in halves and each half is tried on
 * its own, down to single lookups, while time remains before `deadline`.
 */
function lookupSplitting(
  client: LookupClient,
  ids: string[],
  deadline: number,
  now: () => number,
): Result<LookupOutcome>[] {
  const answers = client.lookupCompanies(ids);
  const allLost = ids.length > 1 && answers.every((answer) => !answer.ok && NO_ANSWER.has(answer.error.kind));
  if (!allLost || now() >= deadline) return answers;
  const middle = Math.ceil(ids.length / 2);
  const halves = [
    ...lookupSplitting(client, ids.slice(0, middle), deadline, now),
    ...lookupSplitting(client, ids.slice(middle), deadline, now),
  ];
  return halves.map((answer, i) => ({ ...answer, retries: answer.retries + answers[i].retries + 1 }));
}

/** An execution's view of the shared profile cache: what it held for the execution's domains, and answers not stored yet. */
export interface LookupCacheSession {
  cache: CachePort;
  known: Map<string, CachedLookup>;
  unstored: Map<string, CachedLookup>;
  buckets: LookupBuckets;
}

/** Reads the cached lookups of `domains` (one getAll; none when `domains` is empty). */
export function openLookupCache(cache: CachePort, domains: string[], nowMs: number): LookupCacheSession {
  const { found, buckets } = readLookupBuckets(cache, domains, nowMs);
  return { cache, known: found, unstored: new Map(), buckets };
}

/** Stores the session's unstored answers into the buckets it read (one putAll). */
export function storeLookups(session: LookupCacheSession, nowMs: number): void {
  if (session.unstored.size === 0) return;
  writeLookupBuckets(session.cache, session.buckets, session.unstored, nowMs);
  session.unstored = new Map();
}

export interface ResolveDeps {
  session: LookupCacheSession;
  client: LookupClient;
  /** Epoch ms after which a failing batch is no longer split and retried. */
  deadline: number;
  now: () => number;
}

export function resolveDomains(domains: string[], deps: ResolveDeps): BatchResolution {
  const results = new Map<string, DomainResolution>();
  let cacheHits = 0;
  for (const domain of domains) {
    const entry = deps.session.known.get(domain);
    if (!entry) continue;
    results.set(domain, entry);
    cacheHits++;
  }
  const misses = domains.filter((domain) => !results.has(domain));
  if (misses.length === 0) return { results, cacheHits, requests: 0 };
  const answers = lookupSplitting(deps.client, misses, deps.deadline, deps.now);
  let requests = 0;
  misses.forEach((domain, i) => {
    const answer = answers[i];
    requests += 1 + answer.retries;
    let resolution: DomainResolution;
    if (answer.ok)
      resolution =
        answer.value.state === 'ready'
          ? { state: 'found', values: profileValues(answer.value.profile) }
          : { state: 'enriching' };
    else if (answer.error.kind === 'not_found') resolution = { state: 'not_found' };
    else
      resolution = FATAL.has(answer.error.kind)
        ? { state: 'fatal', error: answer.error }
        : { state: 'error', error: answer.error };
    if (resolution.state === 'found' || resolution.state === 'not_found') {
      deps.session.known.set(domain, resolution);
      deps.session.unstored.set(domain, resolution);
    }
    results.set(domain, resolution);
  });
  return { results, cacheHits, requests };
}
