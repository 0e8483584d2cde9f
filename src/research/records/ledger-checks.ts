// What the research ledger's store checks of the records it reads (stores.ts): of two copies of one record (a row copied
// in the ledger sheet) which counts, and which records of the open spending runs the ledger no longer holds as the
// add-in wrote them (deleted, or changed outside Sheet Scout). Pure.
import { recordKey, runId, type UnsettledRun } from '../../spending-history/history';
import type { LedgerEntry } from './ledger';

/** A record of a run: its launch and its id. */
export interface RunRecord {
  launch: string;
  record: string;
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
  const byRun = new Map<string, string[]>();
  const note = ({ launch, record }: RunRecord) =>
    byRun.set(runId(launch), [...(byRun.get(runId(launch)) ?? []), record]);
  for (const entry of entries) if (entry.launch) note({ launch: entry.launch, record: entry.id });
  salvaging.forEach(note);
  return unsettled
    .map((run) => {
      const found = new Set((byRun.get(run.run) ?? []).map((record) => recordKey(record, run.wide)));
      return { ...run, keys: run.keys.filter((key) => !found.has(key)) };
    })
    .filter((run) => run.keys.length > 0);
}

/** Of `records`, those their open run still waits for (by record id). */
export function unsettledAmong(unsettled: readonly UnsettledRun[], records: readonly RunRecord[]): string[] {
  const runs = new Map(unsettled.map((run) => [run.run, run]));
  return records
    .filter(({ launch, record }) => {
      const run = runs.get(runId(launch));
      return run !== undefined && run.keys.includes(recordKey(record, run.wide));
    })
    .map(({ record }) => record);
}
