// The create permits an earlier version kept, adopted once (create-permits.ts, adopt): that version kept one value that
// grew with the open tasks, fingerprints of each record under its launch (granted a create, taken), of each task that
// could still give back its reservation, and who launched each record and task. Each open record it speaks of is
// numbered in its launch and its permits become that launch's bits; who launched it becomes its launch's account; a
// created task's launch goes to the task index (also for the rows changed outside Sheet Scout that name a task it
// knew). The old value is then removed before the records are saved: a record whose save is cut short keeps no grant
// (looked for in the task list, never sent twice) and gives nothing back (the safe side). Launches of a version before
// that one kept a count of creates left, granted here to as many of their queued records. A reused record
// (launch/reuse.ts: no task of its own, its task its first record's) is left out. Pure.
import type { KeyValueStore } from '../../ports';
import { readChunkedJson } from '../../shared/storage/chunked-store';
import { fingerprint } from '../../shared/fingerprint';
import type { DamagedRecord, LedgerEntry } from '../records/ledger';
import type { TaskOwner } from '../records/task-index';
import { launchIn, type Launches } from './launch-bits';

export const LEGACY_PERMITS_KEY = 'sheetscout.research.permits';

/** The earlier version's value (each part may be missing). */
interface LegacyPermits {
  launches?: Record<string, { left?: number; taken?: string[]; granted?: string[] } | undefined>;
  unreleased?: string[];
  /** Who launched each record (`launch:id`) and task (`owner:taskId`), by fingerprint: an index into `payers`. */
  owners?: Record<string, number>;
  payers?: string[];
  /** The launch of each task (`owner:taskId`), by fingerprint: an index into `launchIds`. */
  taskLaunches?: Record<string, number>;
  launchIds?: string[];
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
  const legacy = readChunkedJson(store, LEGACY_PERMITS_KEY) as LegacyPermits | null;
  if (!legacy || typeof legacy !== 'object') return null;
  const { launches = {}, unreleased = [], owners: byKey = {}, payers = [], taskLaunches = {}, launchIds = [] } = legacy;
  /** Who launched a record or task, by its key (null: not known). */
  const owned = (key: string): string | null => payers[byKey[fingerprint(key)]] || null;
  const launchOf = (taskId: string) => launchIds[taskLaunches[fingerprint(`owner:${taskId}`)]];
  const records: LedgerEntry[] = [];
  const owners: TaskOwner[] = [];
  for (const entry of open) {
    const { launch, id, taskId } = entry;
    if (!launch || entry.ordinal !== undefined || entry.reused) continue;
    const old = launches[launch] || {};
    const key = fingerprint(`${launch}:${id}`);
    const taken = old.taken?.includes(key);
    let granted = old.granted?.includes(key);
    if (!granted && !taken && old.left && entry.state === 'queued') granted = old.left-- > 0;
    // Granted, taken, may give back: the launch's three sets, in that order.
    const kept = [granted, taken, unreleased.includes(fingerprint(taskId ? `task:${taskId}` : `record:${id}`))];
    const payer = (taskId && owned(`owner:${taskId}`)) || owned(`${launch}:${id}`);
    const bits = launchIn(permits, launch);
    bits.payer = payer || bits.payer;
    const ordinal = kept.some(Boolean) ? bits.count++ : null;
    if (ordinal !== null) {
      [bits.granted, bits.taken, bits.unreleased].forEach((set, at) => kept[at] && set.add(ordinal));
      records.push({ ...entry, ordinal });
    }
    if (taskId && launchOf(taskId)) owners.push({ taskId, launch, ordinal, record: id, payer });
  }
  for (const { taskId, entryId } of damaged) {
    const launch = taskId && launchOf(taskId);
    if (launch) owners.push({ taskId, launch, ordinal: null, record: entryId, payer: owned(`owner:${taskId}`) });
  }
  return { records, owners };
}
