// A document as the version before per-launch research permits (issue 46) left it, for the tests of its upgrade: that
// version numbered no record in its launch (no `ordinal` in the sealed ledger rows), kept its create permits as one
// value of fingerprints ('sheetscout.research.permits': per launch the records granted a create and those that took
// it, the tasks that may still give back their reservation, who launched each open record and task and the launch of
// each task), kept its open spending runs' records as fingerprints, and had no task index sheet. `asEarlierVersion`
// rewrites a document this version wrote into that form: the same records, grants, give-backs, owners and open runs,
// in the earlier version's keys, its ledger rows sealed again with the document's own key (as that version sealed
// them). The mapping follows that version's create-permits.ts and history.ts (recordKey, releaseKey, taskOwnerKey).
import crypto from 'node:crypto';
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { KeyValueStore } from '../../../src/ports';
import { entryToRow, needsRow, rowToEntry, type LedgerEntry } from '../../../src/research/records/ledger';
import { readLaunches } from '../../../src/research/spending/launch-bits';
import { fingerprint } from '../../../src/shared/fingerprint';
import { readChunkedJson, removeChunked, writeChunked } from '../../../src/shared/storage/chunked-store';
import { LEDGER_SHEET, TASKS_SHEET } from '../../../src/shared/storage/internal-sheets';
import { Sealer } from '../../../src/shared/storage/seal';
import { RUNS_KEY, runId } from '../../../src/spending-history/history';
import { readOpen, recordKey, writeOpen } from '../../../src/spending-history/open-runs';

const LEGACY_PERMITS_KEY = 'sheetscout.research.permits';
const LAUNCHES_KEY = 'sheetscout.research.launches';
const OPEN_KEY_PREFIX = 'sheetscout.spending.open.';

/** The document's properties as the add-in's stores read them. */
export function documentStore(runtime: GasRuntime): KeyValueStore {
  const properties = runtime.properties.document;
  return {
    get: (key) => properties.get(key),
    fresh: (key) => properties.get(key),
    set: (key, value) => properties.set(key, value),
    setAll: (values) => Object.entries(values).forEach(([key, value]) => properties.set(key, value)),
    remove: (key) => properties.delete(key),
  };
}

/** The document's sealer, with Apps Script's HMAC-SHA-256 (as the emulator's Utilities computes it), cut to 128 bits. */
function documentSealer(store: KeyValueStore): Sealer {
  return new Sealer({
    store,
    mac: (key, message) =>
      crypto.createHmac('sha256', key).update(message, 'utf8').digest().subarray(0, 16).toString('base64url'),
    newSecret: () => {
      throw new Error('the document has its sealing key already');
    },
    existingTables: () => [],
    adoptLegacy: () => undefined,
  });
}

/** The ledger's records as sealed now (this version's rows, each with its place in its launch). */
function ledgerRecords(runtime: GasRuntime): LedgerEntry[] {
  return runtime.spreadsheet
    .sheet(LEDGER_SHEET)
    .getValues()
    .slice(1)
    .map((row) => rowToEntry(row.slice(1)))
    .filter((entry): entry is LedgerEntry => typeof entry === 'object' && 'state' in entry);
}

/** The ledger rows without the records' places, sealed again under the document's key. */
function rewriteLedger(runtime: GasRuntime, sealer: Sealer): void {
  const sheet = runtime.spreadsheet.sheet(LEDGER_SHEET);
  const [header, ...rows] = sheet.getValues();
  const rewritten = rows.map((row) => {
    const entry = rowToEntry(row.slice(1));
    if (typeof entry !== 'object' || !('state' in entry)) return row;
    const { ordinal: _place, ...earlier } = entry;
    const cells = entryToRow(earlier);
    return [sealer.seal(LEDGER_SHEET, cells), ...cells];
  });
  const width = Math.max(header.length, ...rewritten.map((row) => row.length));
  const padded = [header, ...rewritten].map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
  sheet.setValues(`A1:${String.fromCharCode(64 + width)}${padded.length}`, padded);
}

interface LegacyLaunch {
  left: number;
  taken: string[];
  granted: string[];
}

/** The earlier version's permits value for this version's launches and records. */
function legacyPermits(store: KeyValueStore, records: readonly LedgerEntry[]) {
  const launches = readLaunches(store);
  const legacy = {
    launches: {} as Record<string, LegacyLaunch>,
    unreleased: [] as string[],
    owners: {} as Record<string, number>,
    payers: [] as string[],
    taskLaunches: {} as Record<string, number>,
    launchIds: [] as string[],
  };
  const indexIn = (list: string[], value: string) => (list.includes(value) ? list : [...list, value]).indexOf(value);
  for (const entry of records) {
    const bits = entry.launch ? launches.get(entry.launch) : undefined;
    if (!bits || entry.launch === undefined || entry.ordinal === undefined) continue;
    const key = fingerprint(`${entry.launch}:${entry.id}`);
    const launch = (legacy.launches[entry.launch] ??= { left: 0, taken: [], granted: [] });
    if (bits.granted.has(entry.ordinal)) launch.granted.push(key);
    if (bits.taken.has(entry.ordinal)) launch.taken.push(key);
    if (bits.unreleased.has(entry.ordinal))
      legacy.unreleased.push(fingerprint(entry.taskId ? `task:${entry.taskId}` : `record:${entry.id}`));
    // That version kept who launched a record (by record, then by task) while it was open.
    if (!needsRow(entry) || bits.payer === null) continue;
    if (!legacy.payers.includes(bits.payer)) legacy.payers.push(bits.payer);
    const payer = legacy.payers.indexOf(bits.payer);
    if (!entry.taskId) legacy.owners[key] = payer;
    else {
      legacy.owners[fingerprint(`owner:${entry.taskId}`)] = payer;
      legacy.launchIds = legacy.launchIds.includes(entry.launch)
        ? legacy.launchIds
        : [...legacy.launchIds, entry.launch];
      legacy.taskLaunches[fingerprint(`owner:${entry.taskId}`)] = indexIn(legacy.launchIds, entry.launch);
    }
  }
  return legacy;
}

/** The open runs of the spending history with their records as fingerprints (runs keyed by place before). */
function rewriteOpenRuns(store: KeyValueStore, records: readonly LedgerEntry[]): void {
  const runs = (readChunkedJson(store, RUNS_KEY) as { runs: Array<[string, ...number[]]> } | null)?.runs ?? [];
  for (const [id, ...figures] of runs) {
    if (figures[10] === 0) continue;
    const open = readOpen(store, OPEN_KEY_PREFIX + id);
    if (!open?.byOrdinal) continue;
    const ofRun = records.filter((entry) => entry.launch !== undefined && runId(entry.launch) === id);
    const idAt = (key: string) => ofRun.find((entry) => `#${entry.ordinal}` === key)?.id ?? key;
    writeOpen(store, OPEN_KEY_PREFIX + id, {
      ...open,
      records: open.records.map((key) => recordKey(idAt(key), false)),
      wide: false,
      byOrdinal: undefined,
    });
  }
}

/** Rewrites the document into the form the earlier version kept (see the file's header). */
export function asEarlierVersion(runtime: GasRuntime): void {
  const store = documentStore(runtime);
  const records = ledgerRecords(runtime);
  const permits = legacyPermits(store, records);
  rewriteOpenRuns(store, records);
  removeChunked(store, LAUNCHES_KEY);
  writeChunked(store, LEGACY_PERMITS_KEY, JSON.stringify(permits));
  rewriteLedger(runtime, documentSealer(store));
  const index = runtime.spreadsheet.getSheet(TASKS_SHEET);
  if (index) runtime.spreadsheet.deleteSheet(index);
}

/** Whether the document keeps the earlier version's permits value, and this version's (their keys). */
export function permitKeys(runtime: GasRuntime): { legacy: boolean; launches: boolean } {
  const keys = runtime.properties.document.keys();
  const holds = (name: string) => keys.some((key) => key === name || key.startsWith(`${name}.`));
  return { legacy: holds(LEGACY_PERMITS_KEY), launches: holds(LAUNCHES_KEY) };
}
