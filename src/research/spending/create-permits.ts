// Which research creates were authorised, and which tasks may still give back what they did not use, kept where no
// edit of the grid reaches: the document's properties, per launch. A launch (or "Send anyway") that passed the
// spending cap numbers its records (each record's `ordinal`, sealed in its ledger row with its launch) and grants each
// one create: a bit per record in the launch's `granted` set. A tick sends a queued record's create only against its
// own bit, so each confirmed record is sent once: an older copy of a record put back in the hidden ledger sheet as
// "queued" after it was sent is the same launch and place, whose bit is gone (a record that took its grant and was not
// sent, its tick killed, takes it again: `taken`). Each task the add-in created (and each create the service refused)
// may give back its unused reservation to the spend journal once (`unreleased`), so a record moved back to "in
// progress" in the ledger does not lower the journal again at each cycle; kept no longer than the record runs. Who
// launched a record's task is the account its launch was paid from, kept with the launch; a record changed in the
// ledger sheet fails its seal and is not acted on, and its task's owner is kept in the sealed task index
// (records/task-index.ts) for the spending history. So the properties grow with launches, not tasks: three sets of
// six records a character, with the launch's id and account (a launch of 5,000 records: about 2.6 KB). One chunked
// JSON value, written twice per round of creates. Documents of earlier versions are adopted once (permits-upgrade.ts).
// Pure over a KeyValueStore and the task index.
import type { KeyValueStore } from '../../ports';
import { removeChunked } from '../../shared/storage/chunked-store';
import { sentAt, type DamagedRecord, type LedgerEntry } from '../records/ledger';
import type { TaskIndex, TaskOwner } from '../records/task-index';
import { launchIn, readLaunches, writeLaunches, type LaunchBits, type Launches } from './launch-bits';
import { LEGACY_PERMITS_KEY, upgradeLegacyPermits } from './permits-upgrade';

/** When this document's creates first needed a grant (queued records of earlier versions were adopted then). */
const ADOPTED_KEY = 'sheetscout.research.permitsSince';

/** Who launched records and tasks, as one read of the permits finds them. */
export interface Launchers {
  /** The account that launched the record's task (or its create, not answered yet), or null when not known. */
  launcherOf(entry: LedgerEntry): string | null;
  /** Who launched a task the add-in created, as the task index keeps it (null: not known). */
  taskOwner(taskId: string): TaskOwner | null;
}

export interface CreatePermits {
  /**
   * Adopts what earlier versions kept, once: their queued records without a launch (the first time a document's
   * creates need grants: under `launch`, a grant each, as the version that launched them checked them), and the
   * permits they kept per record (`open`: the ledger's open records; `damaged`: its rows changed outside Sheet Scout,
   * whose tasks the task index learns). The records to save (numbered in their launch), or none.
   */
  adopt(open: readonly LedgerEntry[], damaged: readonly DamagedRecord[], launch: string, now: number): LedgerEntry[];
  /**
   * Authorises a create for each of `entries` (they passed the spending cap) under `launch`, paid from the account
   * `payer` (null: not known): the records numbered in the launch, to save.
   */
  grant(launch: string, entries: readonly LedgerEntry[], payer: string | null): LedgerEntry[];
  /** Who launched records' tasks, as one read finds them (the task index read once, when first asked). */
  launchers(): Launchers;
  /**
   * Forgets what the records that no longer run kept (every record but `open`, the ledger's open records): their
   * grants, their unused reservation's give-back (their final state, saved, gave it back already), and the launches
   * none of them is of (who launched them).
   */
  keepOpen(open: readonly LedgerEntry[]): void;
  /**
   * Takes the create granted to each record (a record that took its grant and did not send it, its tick killed in
   * between, takes it again): the records that may be created, in order.
   */
  take(entries: readonly LedgerEntry[]): LedgerEntry[];
  /**
   * Notes, in one write, the records whose creates were sent (`sending`), those whose create the service answered
   * (created, or refused: each may then release once; a created task's owner goes to the task index), and those given
   * back (not created after all, or not sent before the deadline: their create stays authorised).
   */
  settle(change: {
    sending: readonly LedgerEntry[];
    answered: readonly LedgerEntry[];
    givenBack: readonly LedgerEntry[];
  }): void;
  /** The records (by id) that may give back their unused reservation now; each is then no longer releasable. */
  release(entries: readonly LedgerEntry[]): Set<string>;
  /** Forgets the owners of tasks no ledger row names any more (`known`: the tasks the ledger's rows name). */
  retainTasks(known: ReadonlySet<string>): void;
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

/** A record's launch as kept, and its place in it; null for a record of no launch kept, or of no place. */
function placeOf(permits: Launches, entry: LedgerEntry): { bits: LaunchBits; ordinal: number } | null {
  const bits = permits.get(entry.launch as string);
  const ordinal = entry.ordinal as number;
  return bits && Number.isInteger(ordinal) && ordinal >= 0 && ordinal < bits.count ? { bits, ordinal } : null;
}

/** The account that paid for the record's launch, as kept (null: not known; a record of no launch has none). */
const launcherIn = (permits: Launches, entry: LedgerEntry) => permits.get(entry.launch as string)?.payer ?? null;

/** Numbers `entries` under `launch` (a new launch, or more records of one kept) and grants each a create. */
function grantIn(permits: Launches, launch: string, entries: readonly LedgerEntry[], payer: string | null) {
  const bits = launchIn(permits, launch);
  bits.payer = payer || bits.payer;
  const numbered = entries.map((entry) => ({ ...entry, launch, ordinal: bits.count++ }));
  for (const entry of numbered) bits.granted.add(entry.ordinal);
  return numbered;
}

/** Notes in `permits` the records whose creates were sent, answered, or given back (CreatePermits.settle). */
function settleIn(permits: Launches, { sending, answered, givenBack }: Parameters<CreatePermits['settle']>[0]): void {
  const each = (entries: readonly LedgerEntry[], change: (bits: LaunchBits, ordinal: number) => void) => {
    for (const entry of entries) {
      const place = placeOf(permits, entry);
      if (place) change(place.bits, place.ordinal);
    }
  };
  each(sending, (bits, at) => bits.taken.delete(at));
  each(givenBack, (bits, at) => {
    bits.granted.add(at);
    bits.taken.delete(at);
  });
  each(answered, (bits, at) => bits.unreleased.add(at));
}

/** The owners of the answered records' new tasks, for the task index. */
function ownersOf(permits: Launches, answered: readonly LedgerEntry[]): TaskOwner[] {
  return answered.flatMap((entry) => {
    const { taskId, launch, ordinal, id } = entry;
    return taskId && launch
      ? [{ taskId, launch, ordinal: ordinal ?? null, record: id, payer: launcherIn(permits, entry) }]
      : [];
  });
}

/** Keeps only what the open records need (CreatePermits.keepOpen); whether anything went. */
function keptOpen(permits: Launches, open: readonly LedgerEntry[]): boolean {
  const places = new Map<string, Set<number | undefined>>();
  for (const entry of open)
    if (entry.launch) places.set(entry.launch, (places.get(entry.launch) || new Set()).add(entry.ordinal));
  let changed = false;
  for (const [id, bits] of permits) {
    const kept = places.get(id);
    if (!kept) changed = permits.delete(id);
    else
      for (const set of [bits.granted, bits.taken, bits.unreleased])
        for (const at of set) if (!kept.has(at)) changed = set.delete(at);
  }
  return changed;
}

export function documentCreatePermits(store: KeyValueStore, index: TaskIndex): CreatePermits {
  const read = () => readLaunches(store);
  const write = (permits: Launches) => writeLaunches(store, permits);
  return {
    adopt: (open, damaged, launch, now) => {
      // Once adopted (the usual case), nothing more is read.
      if (store.get(ADOPTED_KEY) !== null && store.get(LEGACY_PERMITS_KEY) === null) return [];
      const permits = read();
      const upgraded = upgradeLegacyPermits(store, permits, open, damaged);
      let adopted: LedgerEntry[] = [];
      if (store.get(ADOPTED_KEY) === null) {
        store.set(ADOPTED_KEY, String(now));
        const legacy = open.filter((entry) => entry.state === 'queued' && !entry.launch);
        if (legacy.length > 0) adopted = grantIn(permits, launch, legacy, null);
      }
      if (!upgraded && adopted.length === 0) return [];
      write(permits);
      if (!upgraded) return adopted;
      index.add(upgraded.owners);
      removeChunked(store, LEGACY_PERMITS_KEY);
      return [...upgraded.records, ...adopted];
    },
    grant: (launch, entries, payer) => {
      const permits = read();
      const numbered = grantIn(permits, launch, entries, payer);
      write(permits);
      return numbered;
    },
    launchers: () => {
      const permits = read();
      let owners: Map<string, TaskOwner> | null = null;
      return {
        launcherOf: (entry) => launcherIn(permits, entry),
        taskOwner: (taskId) => (owners || (owners = index.owners())).get(taskId) || null,
      };
    },
    keepOpen: (open) => {
      const permits = read();
      if (keptOpen(permits, open)) write(permits);
    },
    take: (entries) => {
      if (entries.length === 0) return [];
      const permits = read();
      const allowed = entries.filter((entry) => {
        const place = placeOf(permits, entry);
        if (!place) return false;
        if (place.bits.taken.has(place.ordinal)) return true;
        if (!place.bits.granted.delete(place.ordinal)) return false;
        place.bits.taken.add(place.ordinal);
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
      index.add(ownersOf(permits, change.answered));
    },
    release: (entries) => {
      const released = new Set<string>();
      if (entries.length === 0) return released;
      const permits = read();
      for (const entry of entries) {
        const place = placeOf(permits, entry);
        if (place?.bits.unreleased.delete(place.ordinal)) released.add(entry.id);
      }
      if (released.size > 0) write(permits);
      return released;
    },
    retainTasks: (known) => index.retain(known),
  };
}
