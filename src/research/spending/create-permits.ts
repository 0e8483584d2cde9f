// Which research creates were authorised, and which tasks may still give back what they did not use, kept where no
// edit of the grid reaches: the document's properties. A launch (or "Send anyway") that passed the spending cap
// grants each of its records one create, by launch and record; a tick sends a queued record's create only against its
// own grant, so each confirmed record is sent once, and an older copy of a record put back in the hidden ledger sheet
// as "queued" after it was sent finds no grant (a record that took its grant and was not sent, its tick killed, takes
// it again; launches of an earlier version kept a count of creates instead, honoured until used).
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
import { sentAt, type LedgerEntry } from '../records/ledger';

const PERMITS_KEY = 'sheetscout.research.permits';
/** When this document's creates first needed a grant (queued records of earlier versions were adopted then). */
const ADOPTED_KEY = 'sheetscout.research.permitsSince';

/** One launch's creates: the records granted one, and those that took theirs and did not send it yet. */
interface LaunchPermits {
  /** Creates left to any record of the launch (launches of an earlier version; 0 for later ones). */
  left: number;
  /** Records (by fingerprint) that took their grant and did not send it yet (a tick killed before it sent them). */
  taken: string[];
  /** Records (by fingerprint) granted a create not taken yet (absent in launches of an earlier version). */
  granted?: string[];
}

interface StoredPermits {
  launches: Record<string, LaunchPermits>;
  /** Fingerprints of the tasks (and refused creates) whose unused reservation has not been given back yet. */
  unreleased: string[];
  /** Who launched each open record (by record, then by task, fingerprinted): an index into `payers`. */
  owners: Record<string, number>;
  /** The accounts (Sheet Scout e-mail addresses) that launched the open records. */
  payers: string[];
  /** The launch of each open record's task (by task, fingerprinted): an index into `launchIds`. */
  taskLaunches?: Record<string, number>;
  launchIds?: string[];
}

/** Who launched a task and under which launch, as the add-in kept it when the task's create was answered. */
export interface TaskOwner {
  payer: string | null;
  launch: string | null;
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
  launchers(): Pick<CreatePermits, 'launcherOf'> & { taskOwner(taskId: string): TaskOwner | null };
  /**
   * Forgets what the records that no longer run kept (every record but `open`, the ledger's open records, and the
   * tasks of `salvaging`: records changed outside Sheet Scout whose task is still to be settled): who launched them,
   * their launch, and their unused reservation's give-back (their final state, saved, gave it back already).
   */
  keepOpen(open: readonly LedgerEntry[], salvaging?: readonly string[]): void;
  /**
   * Takes the create granted to each record (or one its launch of an earlier version has left; a record that took its
   * grant and did not send it, its tick killed in between, takes it again): the records that may be created, in order.
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

/**
 * The queued records no grant allows (the others of `queued`): a record is sealed as the add-in wrote it, so it can
 * only be an older copy put back in the ledger sheet after its create was sent. That create may have started a task:
 * the record is looked for in the task list like a create whose answer was lost (`sending` since its launch), never
 * sent again; found, its task is collected; not found, its row asks the user (Check again, or Send anyway).
 */
export function ungranted(queued: readonly LedgerEntry[], allowed: readonly LedgerEntry[], now: number): LedgerEntry[] {
  const ids = new Set(allowed.map((entry) => entry.id));
  return queued
    .filter((entry) => !ids.has(entry.id))
    .map((entry) => ({
      ...entry,
      state: 'sending' as const,
      sentAt: sentAt(entry),
      updatedAt: now,
    }));
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
    taskLaunches: parsed?.taskLaunches ?? {},
    launchIds: parsed?.launchIds ?? [],
  };
}

/** `map` (key -> index into `list`) with `list` cut to the entries still used, in one pass. */
function reindexed(map: Record<string, number>, list: readonly string[]): [Record<string, number>, string[]] {
  const used: string[] = [];
  const next = Object.fromEntries(
    Object.entries(map).map(([key, index]) => {
      const value = list[index];
      if (!used.includes(value)) used.push(value);
      return [key, used.indexOf(value)];
    }),
  );
  return [next, used];
}

/**
 * Writes the permits; a launch whose every create was sent is dropped (its records can take nothing more), and an
 * account that launched no open record.
 */
function writePermits(store: KeyValueStore, permits: StoredPermits): void {
  const launches = Object.fromEntries(
    Object.entries(permits.launches).filter(
      ([, launch]) => launch.left > 0 || launch.taken.length > 0 || (launch.granted?.length ?? 0) > 0,
    ),
  );
  const [owners, payers] = reindexed(permits.owners, permits.payers);
  const [taskLaunches, launchIds] = reindexed(permits.taskLaunches ?? {}, permits.launchIds ?? []);
  if (Object.keys(launches).length === 0 && permits.unreleased.length === 0 && payers.length === 0)
    removeChunked(store, PERMITS_KEY);
  else {
    const unreleased = permits.unreleased;
    writeChunked(store, PERMITS_KEY, JSON.stringify({ launches, unreleased, owners, payers, taskLaunches, launchIds }));
  }
}

function indexIn(list: string[], value: string): number {
  if (!list.includes(value)) list.push(value);
  return list.indexOf(value);
}

/**
 * The open records' launchers (and their tasks' launches) as they are kept: those the records (and the tasks being
 * salvaged) still need, whether anything was dropped.
 */
function ownersOf(
  permits: StoredPermits,
  open: readonly LedgerEntry[],
  salvaging: readonly string[],
): { kept: Record<string, number>; taskLaunches: Record<string, number>; dropped: boolean } {
  const keys = new Set([
    ...open.flatMap((entry) => [recordKey(entry), ...(entry.taskId ? [taskOwnerKey(entry.taskId)] : [])]),
    ...salvaging.map(taskOwnerKey),
  ]);
  const keep = (map: Record<string, number>) =>
    Object.fromEntries(Object.entries(map).filter(([key]) => keys.has(key)));
  const [kept, taskLaunches] = [keep(permits.owners), keep(permits.taskLaunches ?? {})];
  const dropped =
    Object.keys(kept).length < Object.keys(permits.owners).length ||
    Object.keys(taskLaunches).length < Object.keys(permits.taskLaunches ?? {}).length;
  return { kept, taskLaunches, dropped };
}

/** Who launched a task, and under which launch, as `permits` keep it (null: not known). */
function taskOwnerIn(permits: StoredPermits, taskId: string): TaskOwner | null {
  const key = taskOwnerKey(taskId);
  const [payer, launch] = [permits.owners[key], permits.taskLaunches?.[key]];
  if (payer === undefined && launch === undefined) return null;
  return {
    payer: payer === undefined ? null : (permits.payers[payer] ?? null),
    launch: launch === undefined ? null : (permits.launchIds?.[launch] ?? null),
  };
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
    (launch.granted ??= []).push(recordKey(entry));
    without(launch.taken, recordKey(entry));
  }
  permits.unreleased.push(...answered.map(releaseKey));
  // A created task is known by its id from now on, with its launch (an edit of its record does not move it).
  for (const entry of answered) {
    if (entry.taskId && entry.launch)
      (permits.taskLaunches ??= {})[taskOwnerKey(entry.taskId)] = indexIn((permits.launchIds ??= []), entry.launch);
    const key = recordKey(entry);
    const owner = permits.owners[key];
    if (owner === undefined) continue;
    delete permits.owners[key];
    if (entry.taskId) permits.owners[taskOwnerKey(entry.taskId)] = owner;
  }
}

/**
 * The permits with only what the ledger's open records (`open`) still need: who launched them, their give-backs, and
 * the grants of queued records (a record lost from the ledger, deleted or changed outside Sheet Scout, keeps none);
 * null when nothing changes.
 */
function keptOpen(
  permits: StoredPermits,
  open: readonly LedgerEntry[],
  salvaging: readonly string[],
): StoredPermits | null {
  const { kept, taskLaunches, dropped } = ownersOf(permits, open, salvaging);
  const releasable = new Set(open.map(releaseKey));
  const unreleased = permits.unreleased.filter((key) => releasable.has(key));
  const queued = new Set(open.map(recordKey));
  let pruned = false;
  for (const launch of Object.values(permits.launches)) {
    const granted = (launch.granted ?? []).filter((key) => queued.has(key));
    pruned ||= granted.length < (launch.granted?.length ?? 0);
    if (launch.granted) launch.granted = granted;
  }
  if (!dropped && !pruned && unreleased.length === permits.unreleased.length) return null;
  return { ...permits, owners: kept, taskLaunches, unreleased };
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
      const adopted = legacy.map((entry) => ({ ...entry, launch }));
      const permits = read();
      permits.launches[launch] = { left: 0, taken: [], granted: adopted.map(recordKey) };
      write(permits);
      return adopted;
    },
    grant: (launch, entries, payer) => {
      const permits = read();
      const known = (permits.launches[launch] ??= { left: 0, taken: [] });
      (known.granted ??= []).push(...entries.map((entry) => recordKey({ ...entry, launch })));
      if (payer !== null) {
        const index = indexIn(permits.payers, payer);
        for (const entry of entries) permits.owners[recordKey({ ...entry, launch })] = index;
      }
      write(permits);
    },
    launcherOf: (entry) => launcherIn(read(), entry),
    launchers: () => {
      const permits = read();
      return {
        launcherOf: (entry) => launcherIn(permits, entry),
        taskOwner: (taskId) => taskOwnerIn(permits, taskId),
      };
    },
    keepOpen: (open, salvaging = []) => {
      const permits = read();
      const kept = keptOpen(permits, open, salvaging);
      if (kept) write(kept);
    },
    take: (entries) => {
      if (entries.length === 0) return [];
      const permits = read();
      const allowed = entries.filter((entry) => {
        const launch = entry.launch ? permits.launches[entry.launch] : undefined;
        const key = recordKey(entry);
        if (!launch) return false;
        if (launch.taken.includes(key)) return true;
        const granted = launch.granted?.indexOf(key) ?? -1;
        if (granted >= 0) launch.granted?.splice(granted, 1);
        else if (launch.left > 0) launch.left -= 1;
        else return false;
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
