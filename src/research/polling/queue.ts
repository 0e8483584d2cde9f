// Which queued creates an execution sends: those granted a create (create-permits.ts: an older copy of a record put
// back in the ledger sheet has none) and that the acting account launched, since a create is paid by the account
// whose token sends it.
import { needsRow, type LedgerEntry } from '../records/ledger';
import { ungranted, type CreatePermits } from '../spending/create-permits';
import type { ClockPort } from '../../ports';
import type { ResearchClient } from '../ports';
import type { LedgerStore } from '../records/stores';

/** What choosing the queue needs of the job's ports (jobs.ts, JobDeps). */
export interface QueueDeps {
  ledger: LedgerStore;
  permits: CreatePermits;
  client: Pick<ResearchClient, 'getUser'>;
  clock: ClockPort;
  newId: () => string;
  /** The acting user's account, when the caller has read it (JobDeps.account). */
  account?: string | null;
}

/** The acting user's account, as the caller gave it or the service says (null: the service could not be asked). */
export function actingAccount(deps: QueueDeps): string | null {
  if (deps.account !== undefined) return deps.account;
  const user = deps.client.getUser();
  return user.ok ? user.value.email : null;
}

/**
 * Adopts, once, what an earlier version kept of the loaded records (create-permits.ts, adopt): before anything asks
 * the permits or the task index of them (a tick's salvage of changed rows, the queue's grants).
 */
export function adoptEarlierPermits(deps: QueueDeps): void {
  const open = deps.ledger.all().filter(needsRow);
  deps.ledger.save(deps.permits.adopt(open, deps.ledger.damaged(), deps.newId(), deps.clock.now()));
}

/**
 * The queued records whose creates this execution sends: those granted a create (create-permits.ts; the others were
 * sent before and are looked for in the task list) and that the acting account launched, since a create is paid by the account that sends it. Records another
 * account launched wait for that account's ticks (`waiting`); when the service cannot say who is acting, they wait
 * for a later tick of this timer. Records of earlier versions, whose launcher is not known, are sent by any tick.
 */
export function authorisedQueue(deps: QueueDeps): { queue: LedgerEntry[]; waiting: Set<string> } {
  adoptEarlierPermits(deps);
  const queued = deps.ledger.all().filter((entry) => entry.state === 'queued');
  const launchers = deps.permits.launchers();
  const known = queued.filter((entry) => launchers.launcherOf(entry) !== null);
  const me = known.length > 0 ? actingAccount(deps) : null;
  const others = known.filter((entry) => launchers.launcherOf(entry) !== me);
  const own = queued.filter((entry) => !others.includes(entry));
  const queue = deps.permits.take(own);
  deps.ledger.save(ungranted(own, queue, deps.clock.now()));
  return { queue, waiting: new Set(me === null ? [] : others.map((entry) => entry.id)) };
}
