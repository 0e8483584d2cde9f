// The create permits an earlier version kept, adopted once (create-permits.ts, adopt): that version kept one value that
// grew with the open tasks, fingerprints of each record under its launch (granted a create, taken), of each task that
// could still give back its reservation, and who launched each record and task. Each open record it speaks of is
// numbered in its launch and its permits become that launch's bits; who launched it becomes its launch's account; a
// created task's launch goes to the task index (also for the rows changed outside Sheet Scout that name a task it
// knew). The old value is then removed before the records are saved: a record whose save is cut short keeps no grant
// (looked for in the task list, never sent twice) and gives nothing back (the safe side). Launches of a version before
// that one kept a count of creates left, granted here to as many of their queued records. Pure.
import type { KeyValueStore } from '../../ports';
import { readChunkedJson } from '../../shared/storage/chunked-store';
import { fingerprint } from '../../shared/fingerprint';
import type { DamagedRecord, LedgerEntry } from '../records/ledger';
import type { TaskOwner } from '../records/task-index';
import { newLaunch, type Launches } from './launch-bits';

export const LEGACY_PERMITS_KEY = 'sheetscout.research.permits';

/** The earlier version's value. */
interface LegacyPermits {
  launches: Record<string, { left?: number; taken?: string[]; granted?: string[] }>;
  unreleased: string[];
  owners: Record<string, number>;
  payers: string[];
  taskLaunches: Record<string, number>;
  launchIds: string[];
}

const recordKey = (entry: LedgerEntry) => fingerprint(`${entry.launch}:${entry.id}`);
const releaseKey = (entry: LedgerEntry) => fingerprint(entry.taskId ? `task:${entry.taskId}` : `record:${entry.id}`);
const taskKey = (taskId: string) => fingerprint(`owner:${taskId}`);

function readLegacy(store: KeyValueStore): LegacyPermits | null {
  const parsed = readChunkedJson(store, LEGACY_PERMITS_KEY) as Partial<LegacyPermits> | null;
  if (!parsed || typeof parsed !== 'object') return null;
  return {
    launches: parsed.launches ?? {},
    unreleased: parsed.unreleased ?? [],
    owners: parsed.owners ?? {},
    payers: parsed.payers ?? [],
    taskLaunches: parsed.taskLaunches ?? {},
    launchIds: parsed.launchIds ?? [],
  };
}

/** What the earlier value says of one open record: its permits and who launched it. */
function legacyOf(legacy: LegacyPermits, entry: LedgerEntry) {
  const launch = legacy.launches[entry.launch ?? ''];
  const key = recordKey(entry);
  let granted = launch?.granted?.includes(key) ?? false;
  const taken = launch?.taken?.includes(key) ?? false;
  if (!granted && !taken && launch && (launch.left ?? 0) > 0 && entry.state === 'queued') {
    granted = true;
    launch.left = (launch.left ?? 0) - 1;
  }
  const unreleased = legacy.unreleased.includes(releaseKey(entry));
  const owner = (entry.taskId ? legacy.owners[taskKey(entry.taskId)] : undefined) ?? legacy.owners[key];
  const payer = owner === undefined ? null : (legacy.payers[owner] ?? null);
  return { granted, taken, unreleased, payer };
}

/**
 * Adopts the earlier version's permits into `permits` (see the file's header): the records numbered (to save), and
 * the tasks' owners for the task index; null when the document holds none.
 */
export function upgradeLegacyPermits(
  store: KeyValueStore,
  permits: Launches,
  open: readonly LedgerEntry[],
  damaged: readonly DamagedRecord[],
): { records: LedgerEntry[]; owners: TaskOwner[] } | null {
  const legacy = readLegacy(store);
  if (!legacy) return null;
  const records: LedgerEntry[] = [];
  const owners: TaskOwner[] = [];
  for (const entry of open) {
    if (!entry.launch || entry.ordinal !== undefined) continue;
    const { granted, taken, unreleased, payer } = legacyOf(legacy, entry);
    const bits = permits.launches.get(entry.launch) ?? newLaunch();
    permits.launches.set(entry.launch, bits);
    if (payer !== null) {
      if (!permits.payers.includes(payer)) permits.payers.push(payer);
      bits.payer = permits.payers.indexOf(payer);
    }
    let ordinal: number | null = null;
    if (granted || taken || unreleased) {
      ordinal = bits.count++;
      if (granted) bits.granted.add(ordinal);
      if (taken) bits.taken.add(ordinal);
      if (unreleased) bits.unreleased.add(ordinal);
      records.push({ ...entry, ordinal });
    }
    if (entry.taskId && legacy.taskLaunches[taskKey(entry.taskId)] !== undefined)
      owners.push({ taskId: entry.taskId, launch: entry.launch, ordinal, record: entry.id, payer });
  }
  for (const row of damaged) {
    const launch = row.taskId ? legacy.launchIds[legacy.taskLaunches[taskKey(row.taskId)] ?? -1] : undefined;
    if (!launch) continue;
    const owner = legacy.owners[taskKey(row.taskId)];
    const payer = owner === undefined ? null : (legacy.payers[owner] ?? null);
    owners.push({ taskId: row.taskId, launch, ordinal: null, record: row.entryId, payer });
  }
  return { records, owners };
}
