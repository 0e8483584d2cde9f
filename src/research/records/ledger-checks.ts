// What the research ledger's store checks of the records it reads (stores.ts): of two copies of one record (a row copied
// in the ledger sheet) which counts, which records of the open spending runs the ledger no longer holds as the add-in
// wrote them (deleted, or changed outside Sheet Scout), and which rows hold the done records of a period (the offer of
// earlier results, launch/reuse.ts). Pure.
import { runId, type UnsettledRun } from '../../spending-history/history';
import { keyIn } from '../../spending-history/open-runs';
import { closedDay, type DamagedRecord, type LedgerEntry } from './ledger';

/** A record of a run: its launch, its id and its place in the launch (absent in records of earlier versions). */
export interface RunRecord {
  launch: string;
  record: string;
  ordinal?: number | null;
}

/** The order records move in: of two copies of one record, the later one counts. */
const STATE_ORDER: readonly string[] = [
  'queued',
  'sending',
  'unconfirmed',
  'created',
  'in_progress',
  'done',
  'failed',
  'error',
];

/** Whether `copy` is a later version of the record than `known` (its last write, or a later state at the same time). */
export function isLater(copy: LedgerEntry, known: LedgerEntry): boolean {
  if (copy.updatedAt !== known.updatedAt) return copy.updatedAt > known.updatedAt;
  return STATE_ORDER.indexOf(copy.state) > STATE_ORDER.indexOf(known.state) || (copy.written && !known.written);
}

/**
 * The records of the open runs (`unsettled`) found neither among `entries` (the records read) nor among `salvaging`
 * (records whose tasks are settled by what the service says), by run.
 */
export function missingFrom(
  unsettled: readonly UnsettledRun[],
  entries: readonly LedgerEntry[],
  salvaging: readonly RunRecord[],
): UnsettledRun[] {
  if (unsettled.length === 0) return [];
  const byRun = new Map<string, RunRecord[]>();
  const note = (record: RunRecord) => {
    const run = runId(record.launch);
    const known = byRun.get(run);
    if (known) known.push(record);
    else byRun.set(run, [record]);
  };
  for (const entry of entries)
    if (entry.launch) note({ launch: entry.launch, record: entry.id, ordinal: entry.ordinal });
  salvaging.forEach(note);
  return unsettled
    .map((run) => {
      const found = new Set((byRun.get(run.run) || []).map((record) => keyIn(run, record)));
      return { ...run, keys: run.keys.filter((key) => !found.has(key)) };
    })
    .filter((run) => run.keys.length > 0);
}

/** Of `records`, those their open run still waits for (by record id). */
export function unsettledAmong(unsettled: readonly UnsettledRun[], records: readonly RunRecord[]): string[] {
  const runs = new Map(unsettled.map((run) => [run.run, run]));
  return records
    .filter((record) => {
      const run = runs.get(runId(record.launch));
      const key = run ? keyIn(run, record) : null;
      return run !== undefined && key !== null && run.keys.includes(key);
    })
    .map(({ record }) => record);
}

/** The rows (0-based) whose index state says done, closed on `since`'s UTC day or later (or not saying when). */
export function doneSinceRows(states: ReadonlyArray<readonly unknown[]>, since: number): number[] {
  const day = new Date(since).toISOString().slice(0, 10);
  return states.flatMap(([state], at) => {
    const text = String(state ?? '');
    return text.startsWith('done') && (closedDay(text) || day) >= day ? [at] : [];
  });
}

/** Whether a row read whole holds a done record (not a blank or damaged row). */
export const isDoneRecord = (read: LedgerEntry | 'blank' | DamagedRecord): read is LedgerEntry =>
  read !== 'blank' && 'state' in read && read.state === 'done';
