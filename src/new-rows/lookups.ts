// The lookups of one check: the new rows' domains through the shared profile cache and the service (0 credits), in
// rounds of the client's batch size until the check's deadline. A domain the service is still enriching (202) is asked
// again after 1, 2, 4 and 8 s within the check; one still not ready then, or one the service did not answer (down,
// overloaded, rate limited), waits for the next check. A failure no retry fixes (invalid input) is an outcome, as in
// bulk enrichment; one that stops every lookup (the token, the day's request budget) ends the check with its message.
// Pure over the ports.
import { isUnreachable, userMessage, type ApiError } from '../api/errors';
import type { CachePort, ClockPort } from '../ports';
import {
  openLookupCache,
  PERMANENT_ERRORS,
  resolveDomains,
  storeLookups,
  type LookupClient,
  type RowOutcome,
} from './enrichment-port';

/** Waits before asking again for a domain the service is still enriching, within one check. */
export const ENRICHING_RETRIES_MS = [1_000, 2_000, 4_000, 8_000];

export interface LookupDeps {
  cache: CachePort;
  clock: ClockPort;
  client: () => LookupClient;
}

export interface CheckLookups {
  /** Final outcomes, by domain. */
  outcomes: Map<string, RowOutcome>;
  /** Domains to look up again at the next check: still enriching, or not answered. */
  later: Set<string>;
  /** Why lookups stopped (token, budget) or could not reach the service, or null. */
  problem: string | null;
  /** Whether the service could not be reached. */
  unreachable: boolean;
}

/** Looks the domains up until each has an outcome or must wait, within `deadline`. */
export function lookUpDomains(deps: LookupDeps, domains: readonly string[], deadline: number): CheckLookups {
  const result: CheckLookups = { outcomes: new Map(), later: new Set(), problem: null, unreachable: false };
  if (domains.length === 0) return result;
  const client = deps.client();
  const session = openLookupCache(deps.cache, [...domains], deps.clock.now());
  let queue = [...domains];
  let fatal: ApiError | null = null;
  for (let round = 0; queue.length > 0 && !fatal && deps.clock.now() < deadline; round++) {
    const enriching: string[] = [];
    for (let at = 0; at < queue.length && !fatal && deps.clock.now() < deadline; at += client.batchSize()) {
      const batch = queue.slice(at, at + client.batchSize());
      const resolved = resolveDomains(batch, { session, client, deadline, now: () => deps.clock.now() });
      for (const domain of batch) {
        const answer = resolved.results.get(domain);
        if (!answer) continue;
        if (answer.state === 'found') result.outcomes.set(domain, { kind: 'profile', values: answer.values });
        else if (answer.state === 'not_found') result.outcomes.set(domain, { kind: 'not_found' });
        else if (answer.state === 'enriching') enriching.push(domain);
        else if (answer.state === 'fatal') fatal = answer.error;
        else if (PERMANENT_ERRORS.has(answer.error.kind))
          result.outcomes.set(domain, { kind: 'failed', message: userMessage(answer.error) });
        else {
          result.unreachable ||= isUnreachable(answer.error);
          result.problem ??= userMessage(answer.error);
        }
      }
    }
    const wait = ENRICHING_RETRIES_MS[round];
    if (enriching.length === 0 || wait === undefined || deps.clock.now() + wait >= deadline) break;
    queue = enriching;
    deps.clock.sleep(wait);
  }
  storeLookups(session, deps.clock.now());
  if (fatal) {
    result.problem = userMessage(fatal);
    result.unreachable = isUnreachable(fatal);
  }
  // Every domain without an outcome waits for the next check.
  for (const domain of domains) if (!result.outcomes.has(domain)) result.later.add(domain);
  return result;
}
