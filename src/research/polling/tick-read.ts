// What a tick reads, once, before it decides anything: the ledger's open records (and the newest of the panel's sheet),
// its hidden sheets compacted first when enough finished records are past their retention; who launched the open
// records' tasks (the create permits, one read); the tasks of records changed outside Sheet Scout that this account
// still settles (salvage, below); and, read when first needed and then kept for the whole tick, who the acting account
// is (one request) and every task id the ledger knows (one column, for a lost create looked for in the task list). Only
// a due compaction writes here.
// Salvage: nothing is sent, written or given back for a record whose ledger row was changed outside Sheet Scout (it
// fails its seal), but its task, created and paid for, is still settled in the spending history by what the service
// says. Who launched each task and under which launch is kept in the document's properties when its create is answered
// (create-permits.ts), so the history settles it by what the add-in keeps, never by the sheet: the account that
// launched it polls it (its token may read it), and once it is final its run is settled, once (answers.ts decides
// what a final answer settles, tick-write.ts settles it). A record whose claims (task, record) the properties do not
// bear out is lost (stores.ts, settleMissing).
import type { LedgerEntry } from '../records/ledger';
import type { LedgerView } from '../records/stores';
import type { CreatePermits } from '../spending/create-permits';
import type { JobDeps } from './jobs';

/** A task to settle: its id, the launch the add-in kept for it, and the record the changed row claims. */
export interface Salvage {
  taskId: string;
  launch: string;
  record: string;
}

/** Who launched which records' tasks, as one read of the permits finds them. */
export type Launchers = ReturnType<CreatePermits['launchers']>;

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

/** The tick's read (see the file's header); `view`: the panel's sheet, whose newest records are read too. */
export function readTick(deps: JobDeps, view: LedgerView | undefined): TickRead {
  const reads = sendReads(deps);
  deps.ledger.loadOpen(view);
  const now = deps.clock.now();
  if (deps.ledger.compactionDue(now)) {
    deps.reports.removeAll(deps.ledger.compact(now));
    deps.ledger.loadOpen(view);
  }
  // The tasks that the changed rows claim, that this account launched under a launch the permits know, and whose
  // claimed record its run in the spending history still waits for (the account asked only when any is claimed).
  const claimed = deps.ledger.damaged().flatMap((record) => {
    const owner = record.changed && record.taskId !== '' ? reads.launchers.taskOwner(record.taskId) : null;
    return owner?.launch
      ? [{ taskId: record.taskId, launch: owner.launch, record: record.entryId, payer: owner.payer }]
      : [];
  });
  const waiting = new Set(claimed.length > 0 ? deps.ledger.unsettledRecords(claimed) : []);
  const me = claimed.length > 0 ? reads.account() : null;
  const salvage = claimed.filter((claim) => claim.payer === me && waiting.has(claim.record));
  return { records: deps.ledger.all(), salvage, ...reads };
}
