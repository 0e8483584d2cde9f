// What the account's plan allows a search to return: 2,000 results, or 25 on the free tier, which the user object does
// not say. A free-tier answer is learned from a search that stops at 25 (and a probe), remembered for a day with the
// token it was seen with (the plan belongs to the token's account: another token starts afresh, and a search that
// returns more than 25 forgets it, as after an upgrade), and used to plan and explain, never to refuse: a search
// asking for more is sent.
import { SETTINGS_KEYS } from '../shared/connection';
import { fingerprint } from '../shared/fingerprint';
import { FREE_DEPTH, PAID_DEPTH } from './limits';
import type { SearchBackend } from './run-search';
import type { ClockPort, KeyValueStore } from '../ports';

export const DEPTH_KEY = 'sheetscout.search.depth';

const FREE_TIER_MEMORY_MS = 24 * 60 * 60 * 1000;

/** Which token the free-tier answer was seen with (a fingerprint: the plan belongs to the token's account). */
const tokenMark = (deps: { userStore: KeyValueStore }) => fingerprint(deps.userStore.get(SETTINGS_KEYS.token) ?? '');

/**
 * 25 while a free-tier answer seen in the last day with the current token says so (`25:<ms>:<token fingerprint>`),
 * else 2,000. It plans and explains; it refuses nothing (a plan can change): a search asking for more is sent.
 */
export function depthOf(deps: { userStore: KeyValueStore; clock: ClockPort }): number {
  const [depth, at, mark] = (deps.userStore.get(DEPTH_KEY) ?? '').split(':');
  const recent = deps.clock.now() - Number(at) < FREE_TIER_MEMORY_MS;
  return Number(depth) === FREE_DEPTH && recent && mark === tokenMark(deps) ? FREE_DEPTH : PAID_DEPTH;
}

/**
 * Whether the account is on the free tier, whose searches stop at 25 results. The user object carries no plan, and
 * paging past the free depth simply returns nothing, so when a search asking for more than 25 gets exactly 25 the
 * panel asks one lookalike page at offset 25 without filters: any company of a paid account's index has more than
 * 25 lookalikes, a free account gets none. The answer is remembered for a day.
 */
export function probeFreeTier(
  deps: { userStore: KeyValueStore; clock: ClockPort },
  client: Pick<SearchBackend, 'runSimilar'>,
  domain: string,
): boolean {
  const [probe] = client.runSimilar([
    { companyIdentifier: domain, request: { pagination: { offset: FREE_DEPTH, limit: 1 } } },
  ]);
  const free = probe.ok && probe.value.results.length === 0;
  if (free) deps.userStore.set(DEPTH_KEY, `${FREE_DEPTH}:${deps.clock.now()}:${tokenMark(deps)}`);
  else if (probe.ok) deps.userStore.remove(DEPTH_KEY);
  return free;
}

/** A search returned more than the free tier's 25: the account is paid (an upgrade, or another plan). */
export function learnedPaid(deps: { userStore: KeyValueStore }, returned: number): void {
  if (returned > FREE_DEPTH && deps.userStore.get(DEPTH_KEY) !== null) deps.userStore.remove(DEPTH_KEY);
}
