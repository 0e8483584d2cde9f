// A refresh's lookups (refresh.ts): domains looked up again past the cache (the point is fresh data), in rounds of the
// client's batch size, until done, out of time, or a round that did not reach the service; the answers sorted into
// found, not found, to try later, and unreachable.
import { isUnreachable } from '../../api/errors';
import { profileValues } from '../../companies/profile-fields';
import type { ClockPort } from '../../ports';
import type { LookupClient } from '../job/lookups';

/**
 * Looks domains up in rounds of the client's batch size until done, out of time, or a round that did not reach the
 * service (no more are sent into an outage); sorts the answers.
 */
export function lookUpFresh(client: LookupClient, clock: ClockPort, domains: string[], deadline: number) {
  const found = new Map<string, Record<string, unknown>>();
  const notFound: string[] = [];
  const retryLater: string[] = [];
  let unreachable = 0;
  let next = 0;
  while (next < domains.length && clock.now() < deadline && unreachable === 0) {
    const batch = domains.slice(next, next + client.batchSize());
    next += batch.length;
    client.lookupCompanies(batch).forEach((result, index) => {
      const domain = batch[index];
      if (result.ok && result.value.state === 'ready') found.set(domain, profileValues(result.value.profile));
      else if (!result.ok && result.error.kind === 'not_found') notFound.push(domain);
      else if (!result.ok && isUnreachable(result.error)) unreachable += 1;
      else retryLater.push(domain);
    });
  }
  return { found, notFound, retryLater, unreachable, attempted: next };
}
