// Which research creates were authorised, and which tasks may still give back what they did not use, kept where no
// edit of the grid reaches: the document's properties. A launch (or "Send anyway") that passed the spending cap
// grants its records' creates, by launch; a tick sends a queued record's create only against a grant of its launch,
// so no launch sends more creates than it was authorised for, and a finished record put back to "queued" in the
// hidden ledger sheet creates nothing (a record that took a grant and was not sent, its tick killed, takes it again).
// Each task the add-in created (and each create the service refused) may give back its unused reservation to the spend
// journal once: their fingerprints are kept until then, so a record moved back to "in progress" in the ledger does not
// lower the journal again at each cycle, and no longer than the record runs (its final state, saved, gave back what it
// did not use; a task that used all of it gives nothing back). And who launched each open record's task (the account
// its launch was paid from): by record until its create is answered, then by task, so that an edit of the ledger sheet
// (a record given another launch or id) does not change whose task runs on a row; kept until the record no longer
// runs. One chunked JSON value that grows with the open tasks only (about 30 characters each), written twice per round
// of creates. Pure.
import type { KeyValueStore } from '../../ports';
import { readChunkedJson, removeChunked, writeChunked } from '../../shared/storage/chunked-store';
import { fingerprint } from '../../shared/fingerprint';
import type { LedgerEntry } from '../records/ledger';

const PERMITS_KEY = 'sheetscout.research.permits';
/** When this document's creates first needed a grant (queued records of earlier versions were adopted then). */
const ADOPTED_KEY = 'sheetscout.research.permitsSince';

/** One launch's creates: how many are left to take, and the records that took one and did not send it yet. */
interface LaunchPermits {
  left: number;
  /** By fingerprint (a tick killed before it sent them takes them again). */
  taken: string[];
}

interface StoredPermits {
  launches: Record<string, LaunchPermits>;
  /** Fingerprints of the tasks (and refused creates) whose unused reservation has not been given back yet. */
  unreleased: string[];
  /** Who launched each open record (by record, then by task, fingerprinted): an index into `payers`. */
  owners: Record<string, number>;
  /** The accounts (Sheet Scout e-mail addresses) that launched the open records. */
  payers: string[];
}

export interface CreatePermits {
  /**
   * The first time a document's creates need grants: its queued records of earlier versions (no launch) are adopted
   * under `launch`, with a grant each (the version that launched them checked them). Later, none is: the records that
   * need saving with their launch, or none.
   */
  adopt(queued: readonly LedgerEntry[], launch: string, now: number): LedgerEntry[];
  /**
   * Authorises a create for each of `entries`, records of `launch` (it passed the spending cap), paid from the
   * account `payer` (null: not known).
   */
  grant(launch: string, entries: readonly LedgerEntry[], payer: string | null): void;
  /** The account that launched the record's task (or its create, not answered yet), or null when not known. */
  launcherOf(entry: LedgerEntry): string | null;
  /** Who launched records' tasks, as one read of the permits finds them (for many records at once). */
  launchers(): Pick<CreatePermits, 'launcherOf'>;
  /**
   * Forgets what the records that no longer run kept (every record but `open`, the ledger's open records): who
   * launched them, and their unused reservation's give-back (their final state, saved, gave it back already).
   */
  keepOpen(open: readonly LedgerEntry[]): void;
  /**
   * Takes a create for each record whose launch has one left (or that took one and did not send it: a tick killed in
   * between): the records that may be created, in order.
   */
  take(entries: readonly LedgerEntry[]): LedgerEntry[];
  /**
   * Notes, in one write, the records whose creates were sent (`sending`), those whose create the service answered
   * (created, or refused: each may then release once), and those given back (not created after all, or not sent
   * before the deadline: their create stays authorised).
   */
  settle(change: {
    sending: readonly LedgerEntry[];
    answered: readonly LedgerEntry[];
    givenBack: readonly LedgerEntry[];
  }): void;
  /** The records (by id) that may give back their unused reservation now; each is then no longer releasable. */
  release(entries: readonly LedgerEntry[]): Set<string>;
}

/** A queued record without its launch's authorisation (the ledger sheet was edited): never sent. */
const NOT_AUTHORISED = 'Not sent: no launch authorised this task (its record in the ledger sheet was changed)';

/**
 * The queued records no launch authorised (put back to "queued" in the ledger sheet), closed: never sent, and their
 * row left alone (`written`).
 */
export function unauthorised(
  queued: readonly LedgerEntry[],
  allowed: readonly LedgerEntry[],
  now: number,
): LedgerEntry[] {
  const ids = new Set(allowed.map((entry) => entry.id));
  return queued
    .filter((entry) => !ids.has(entry.id))
    .map((entry) => ({ ...entry, state: 'error' as const, error: NOT_AUTHORISED, written: true, updatedAt: now }));
}

/** A record under its launch. */
const recordKey = (entry: LedgerEntry) => fingerprint(`${entry.launch}:${entry.id}`);
/** What a record's release is known by: its task, or for a create the service refused, the record itself. */
const releaseKey = (entry: LedgerEntry) => fingerprint(entry.taskId ? `task:${entry.taskId}` : `record:${entry.id}`);
/** What a record's launcher is known by: its task once created, before that the record under its launch. */
const taskOwnerKey = (taskId: string) => fingerprint(`owner:${taskId}`);

function readPermits(store: KeyValueStore): StoredPermits {
  const parsed = readChunkedJson(store, PERMITS_KEY) as Partial<StoredPermits> | null;
  return {
    launches: parsed?.launches ?? {},
    unreleased: parsed?.unreleased ?? [],
    owners: parsed?.owners ?? {},
    payers: parsed?.payers ?? [],
  };
}

/**
 * Writes the permits; a launch whose every create was sent is dropped (its records can take nothing more), and an
 * account that launched no open record.
 */
function writePermits(store: KeyValueStore, permits: StoredPermits): void {
  const launches = Object.fromEntries(
    Object.entries(permits.launches).filter(([, launch]) => launch.left > 0 || launch.taken.length > 0),
  );
  const payers: string[] = [];
  const owners = Object.fromEntries(
    Object.entries(permits.owners).map(([key, index]) => {
      const payer = permits.payers[index];
      if (!payers.includes(payer)) payers.push(payer);
      return [key, payers.indexOf(payer)];
    }),
  );
  if (Object.keys(launches).length === 0 && permits.unreleased.length === 0 && payers.length === 0)
    removeChunked(store, PERMITS_KEY);
  else writeChunked(store, PERMITS_KEY, JSON.stringify({ launches, unreleased: permits.unreleased, owners, payers }));
}

function payerIndex(permits: StoredPermits, payer: string): number {
  if (!permits.payers.includes(payer)) permits.payers.push(payer);
  return permits.payers.indexOf(payer);
}

/** The open records' launchers as they are kept: those the records still need, whether anything was dropped. */
function ownersOf(
  permits: StoredPermits,
  open: readonly LedgerEntry[],
): { kept: Record<string, number>; dropped: boolean } {
  const keys = new Set(
    open.flatMap((entry) => [recordKey(entry), ...(entry.taskId ? [taskOwnerKey(entry.taskId)] : [])]),
  );
  const kept = Object.fromEntries(Object.entries(permits.owners).filter(([key]) => keys.has(key)));
  return { kept, dropped: Object.keys(kept).length < Object.keys(permits.owners).length };
}

function without(list: string[], key: string): void {
  const at = list.indexOf(key);
  if (at >= 0) list.splice(at, 1);
}

/** The account that launched the record's task, as `permits` keep it (null: not known). */
function launcherIn(permits: StoredPermits, entry: LedgerEntry): string | null {
  const byTask = entry.taskId ? permits.owners[taskOwnerKey(entry.taskId)] : undefined;
  // A record whose create was never answered is known by its launch (its task, adopted from the task list, too).
  const byRecord = entry.launch ? permits.owners[recordKey(entry)] : undefined;
  const found = byTask ?? byRecord;
  return found === undefined ? null : (permits.payers[found] ?? null);
}

/** Notes in `permits` the records whose creates were sent, answered, or given back (CreatePermits.settle). */
function settleIn(
  permits: StoredPermits,
  { sending, answered, givenBack }: Parameters<CreatePermits['settle']>[0],
): void {
  for (const entry of sending) {
    const launch = entry.launch ? permits.launches[entry.launch] : undefined;
    if (launch) without(launch.taken, recordKey(entry));
  }
  for (const entry of givenBack) {
    if (!entry.launch) continue;
    const launch = (permits.launches[entry.launch] ??= { left: 0, taken: [] });
    launch.left += 1;
    without(launch.taken, recordKey(entry));
  }
  permits.unreleased.push(...answered.map(releaseKey));
  // A created task is known by its id from now on (an edit of its record's launch or id does not move it).
  for (const entry of answered) {
    const key = recordKey(entry);
    const owner = permits.owners[key];
    if (owner === undefined) continue;
    delete permits.owners[key];
    if (entry.taskId) permits.owners[taskOwnerKey(entry.taskId)] = owner;
  }
}

export function documentCreatePermits(store: KeyValueStore): CreatePermits {
  const read = () => readPermits(store);
  const write = (permits: StoredPermits) => writePermits(store, permits);
  return {
    adopt: (queued, launch, now) => {
      if (store.get(ADOPTED_KEY) !== null) return [];
      store.set(ADOPTED_KEY, String(now));
      const legacy = queued.filter((entry) => !entry.launch);
      if (legacy.length === 0) return [];
      const permits = read();
      permits.launches[launch] = { left: legacy.length, taken: [] };
      write(permits);
      return legacy.map((entry) => ({ ...entry, launch }));
    },
    grant: (launch, entries, payer) => {
      const permits = read();
      const known = (permits.launches[launch] ??= { left: 0, taken: [] });
      known.left += entries.length;
      if (payer !== null) {
        const index = payerIndex(permits, payer);
        for (const entry of entries) permits.owners[recordKey({ ...entry, launch })] = index;
      }
      write(permits);
    },
    launcherOf: (entry) => launcherIn(read(), entry),
    launchers: () => {
      const permits = read();
      return { launcherOf: (entry) => launcherIn(permits, entry) };
    },
    keepOpen: (open) => {
      const permits = read();
      const { kept, dropped } = ownersOf(permits, open);
      const releasable = new Set(open.map(releaseKey));
      const unreleased = permits.unreleased.filter((key) => releasable.has(key));
      if (!dropped && unreleased.length === permits.unreleased.length) return;
      write({ ...permits, owners: kept, unreleased });
    },
    take: (entries) => {
      if (entries.length === 0) return [];
      const permits = read();
      const allowed = entries.filter((entry) => {
        const launch = entry.launch ? permits.launches[entry.launch] : undefined;
        const key = recordKey(entry);
        if (!launch) return false;
        if (launch.taken.includes(key)) return true;
        if (launch.left <= 0) return false;
        launch.left -= 1;
        launch.taken.push(key);
        return true;
      });
      write(permits);
      return allowed;
    },
    settle: (change) => {
      if (change.sending.length + change.answered.length + change.givenBack.length === 0) return;
      const permits = read();
      settleIn(permits, change);
      write(permits);
    },
    release: (entries) => {
      const released = new Set<string>();
      if (entries.length === 0) return released;
      const permits = read();
      for (const entry of entries) {
        const at = permits.unreleased.indexOf(releaseKey(entry));
        if (at < 0) continue;
        permits.unreleased.splice(at, 1);
        released.add(entry.id);
      }
      if (released.size > 0) write(permits);
      return released;
    },
  };
}
