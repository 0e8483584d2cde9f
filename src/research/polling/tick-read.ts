// What a tick reads, once, before it decides anything: the ledger's open records (and the newest of the panel's sheet),
// its hidden sheets compacted first when enough finished records are past their retention (and the task index kept to
// the tasks the ledger still names); what an earlier version kept of the create permits, adopted once per document
// before anything asks the permits or the task index (adoptEarlierPermits); who launched the open records' tasks (the
// create permits, one read); the tasks of records changed outside Sheet Scout that this account still settles
// (salvage, below); and, read when first needed and then kept for the whole tick, who the acting account is (one
// request) and every task id the ledger knows (one column, for a lost create looked for in the task list). Only a due
// compaction and that adoption write here.
// Salvage: nothing is sent, written or given back for a record whose ledger row was changed outside Sheet Scout (it
// fails its seal), but its task, created and paid for, is still settled in the spending history by what the service
// says. Who launched each task, under which launch and for which record, is kept in the sealed task index when its
// create is answered (records/task-index.ts), so the history settles it by what the add-in keeps, never by the
// changed row: the account that launched it polls it (its token may read it), and once it is final its run is
// settled, once (answers.ts decides what a final answer settles, tick-write.ts settles it). A record whose claims
// (task, record) the index does not bear out is lost (stores.ts, settleMissing).
import { needsRow, type LedgerEntry } from '../records/ledger';
import type { LedgerView } from '../records/stores';
import type { Launchers } from '../spending/create-permits';
import type { JobDeps } from './jobs';

/** A task to settle: its id, and the launch and record (and its place) the add-in kept for it. */
export interface Salvage {
  taskId: string;
  launch: string;
  record: string;
  ordinal: number | null;
}

export interface TickRead {
  /** The open records (and the view's), as the ledger holds them. */
  records: LedgerEntry[];
  launchers: Launchers;
  /** Tasks of records changed outside Sheet Scout that this account settles by what the service says. */
  salvage: Salvage[];
  /** The acting account (null: the service could not say), asked at most once. */
  account: () => string | null;
  /** Every task id the ledger holds, read or not, read at most once. */
  knownTaskIds: () => ReadonlySet<string>;
}

/** `read`, called at most once: its first answer is kept. */
function once<T>(read: () => T): () => T {
  let kept: { value: T } | null = null;
  return () => (kept ??= { value: read() }).value;
}

/** The acting user's account, as the caller gave it or the service says (null: the service could not be asked). */
function actingAccount(deps: Pick<JobDeps, 'account' | 'client'>): string | null {
  if (deps.account !== undefined) return deps.account;
  const user = deps.client.getUser();
  return user.ok ? user.value.email : null;
}

/** What sending queued creates needs read besides the records (a launch's sends: the ledger as it holds them now). */
export function sendReads(deps: JobDeps): Omit<TickRead, 'records' | 'salvage'> {
  return {
    launchers: deps.permits.launchers(),
    account: once(() => actingAccount(deps)),
    knownTaskIds: once(() => deps.ledger.knownTaskIds()),
  };
}

/**
 * Adopts, once, what an earlier version kept of the loaded records (create-permits.ts, adopt), and saves the records
 * it numbered: before anything asks the permits or the task index of them (a tick's salvage of changed rows and its
 * sends, a launch's sends). The records as the ledger then holds them.
 */
export function adoptEarlierPermits(deps: JobDeps): LedgerEntry[] {
  const open = deps.ledger.all().filter(needsRow);
  deps.ledger.save(deps.permits.adopt(open, deps.ledger.damaged(), deps.newId(), deps.clock.now()));
  return deps.ledger.all();
}

/** The tick's read (see the file's header); `view`: the panel's sheet, whose newest records are read too. */
export function readTick(deps: JobDeps, view: LedgerView | undefined): TickRead {
  deps.ledger.loadOpen(view);
  const now = deps.clock.now();
  if (deps.ledger.compactionDue(now)) {
    deps.reports.removeAll(deps.ledger.compact(now));
    deps.permits.retainTasks(deps.ledger.knownTaskIds());
    deps.ledger.loadOpen(view);
  }
  // An earlier version's permits first: the permits then know who launched its records, and the task index the tasks
  // of its changed rows, to salvage them (at the first tick after an upgrade, too).
  const records = adoptEarlierPermits(deps);
  const reads = sendReads(deps);
  // The tasks that the changed rows claim, that the task index knows for the record the row claims, that this account
  // launched, and whose claimed record its run in the spending history still waits for (the account asked only when
  // any is claimed).
  const claimed = deps.ledger.damaged().flatMap((record) => {
    const owner = record.changed && record.taskId !== '' ? reads.launchers.taskOwner(record.taskId) : null;
    return owner && owner.record === record.entryId ? [owner] : [];
  });
  const waiting = new Set(claimed.length > 0 ? deps.ledger.unsettledRecords(claimed) : []);
  const me = claimed.length > 0 ? reads.account() : null;
  const salvage = claimed.filter((claim) => claim.payer === me && waiting.has(claim.record));
  return { records, salvage, ...reads };
}
