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
import { launchIn, type Launches } from './launch-bits';

export const LEGACY_PERMITS_KEY = 'sheetscout.research.permits';

/** The earlier version's value (each part may be missing). */
interface LegacyPermits {
  launches?: Record<string, { left?: number; taken?: string[]; granted?: string[] }>;
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
  const owned = (key: string) => {
    const owner = legacy.owners?.[fingerprint(key)];
    return owner === undefined ? undefined : (legacy.payers?.[owner] ?? null);
  };
  const launchOf = (taskId: string) => legacy.launchIds?.[legacy.taskLaunches?.[fingerprint(`owner:${taskId}`)] ?? -1];
  const records: LedgerEntry[] = [];
  const owners: TaskOwner[] = [];
  for (const entry of open) {
    if (!entry.launch || entry.ordinal !== undefined || entry.reused) continue;
    const old = legacy.launches?.[entry.launch];
    const key = fingerprint(`${entry.launch}:${entry.id}`);
    const taken = old?.taken?.includes(key);
    let granted = old?.granted?.includes(key);
    if (!granted && !taken && old?.left && entry.state === 'queued') granted = old.left-- > 0;
    const unreleased = legacy.unreleased?.includes(
      fingerprint(entry.taskId ? `task:${entry.taskId}` : `record:${entry.id}`),
    );
    const payer = (entry.taskId ? owned(`owner:${entry.taskId}`) : undefined) ?? owned(`${entry.launch}:${entry.id}`);
    const bits = launchIn(permits, entry.launch);
    bits.payer = payer ?? bits.payer;
    const ordinal = granted || taken || unreleased ? bits.count++ : null;
    if (ordinal !== null) {
      for (const [kept, set] of [
        [granted, bits.granted],
        [taken, bits.taken],
        [unreleased, bits.unreleased],
      ] as const)
        if (kept) set.add(ordinal);
      records.push({ ...entry, ordinal });
    }
    if (entry.taskId && launchOf(entry.taskId))
      owners.push({ taskId: entry.taskId, launch: entry.launch, ordinal, record: entry.id, payer: payer ?? null });
  }
  for (const row of damaged) {
    const launch = row.taskId ? launchOf(row.taskId) : undefined;
    if (launch)
      owners.push({
        taskId: row.taskId,
        launch,
        ordinal: null,
        record: row.entryId,
        payer: owned(`owner:${row.taskId}`) ?? null,
      });
  }
  return { records, owners };
}
