// What the Tables feature keeps with the document (in the records sheet shared by its editors, src/shared/
// record-sheet.ts; older versions kept it in DocumentProperties, read from there until the next save moves it): the
// column mapping of each sheet (by sheet ID, drafts by header), the columns created by earlier pushes per table
// (offered as "insert after" positions and known reference keys), the templates saved, and the marker of a push that
// was sent without a clear answer (so the same columns are not created twice by a blind retry).
import type { ColumnDraft } from './model';
import { readDrafts } from './mapping';
import { utf8Bytes } from '../shared/storage/chunked-store';
import { readRecord, removeRecord, writeRecord, type RecordStores } from '../shared/storage/record-sheet';

const PREFIX = 'sheetscout.tables';
const mappingName = (sheetId: number): string => `${PREFIX}.mapping.${sheetId}`;
const HISTORY_NAME = `${PREFIX}.history`;
const PENDING_NAME = `${PREFIX}.pending`;

/** A sheet's mapping may take this much (a few cells of the records sheet; the dialog's form stays usable). */
export const MAX_MAPPING_BYTES = 120000;
const MAX_TABLES = 20;
const MAX_COLUMNS_PER_TABLE = 150;
const MAX_PUSHES_PER_TABLE = 10;
const MAX_TEMPLATES = 20;

export interface KnownColumn {
  id: string;
  key: string;
  name: string;
  kind: string;
}

/** A push that created its columns: the same request to the same table again asks for confirmation. */
export interface PushRecord {
  fingerprint: string;
  at: number;
}

export interface KnownTable {
  id: string;
  /** The table's columns as far as this document's pushes know them, in table order. */
  columns: KnownColumn[];
  pushes: PushRecord[];
  updatedAt: number;
}

export interface SavedTemplate {
  id: string;
  name: string;
  columns: number;
  savedAt: number;
}

export interface TablesHistory {
  tables: KnownTable[];
  templates: SavedTemplate[];
}

export interface PendingPush {
  tableId: string;
  fingerprint: string;
  startedAt: number;
  /** `sending`: the execution stopped before an answer arrived; `ambiguous`: the answer did not say. */
  state: 'sending' | 'ambiguous';
}

// Empty strings, empty lists and nulls are left out of the stored drafts (readDraft restores the defaults).
function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      const pruned = prune(inner);
      if (pruned !== undefined) out[field] = pruned;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === '' || value === null ? undefined : value;
}

/** The saved drafts of a sheet (including those whose header is gone), or null when none were saved. */
export function loadMapping(stores: RecordStores, sheetId: number): ColumnDraft[] | null {
  const stored = parsed(readRecord(stores, mappingName(sheetId), 'chunked')) as { drafts?: unknown } | null;
  return stored && Array.isArray(stored.drafts) ? readDrafts(stored.drafts) : null;
}

function parsed(textValue: string | null): unknown {
  if (textValue === null) return null;
  try {
    return JSON.parse(textValue) as unknown;
  } catch {
    return null;
  }
}

export type SaveOutcome = { ok: true; bytes: number } | { ok: false; message: string };

/** Saves a sheet's drafts (no write when unchanged), refusing a mapping too large to keep. */
export function saveMapping(stores: RecordStores, sheetId: number, drafts: readonly ColumnDraft[]): SaveOutcome {
  const textValue = JSON.stringify({ v: 1, drafts: drafts.map(prune) });
  const bytes = utf8Bytes(textValue);
  if (bytes > MAX_MAPPING_BYTES) {
    return {
      ok: false,
      message: `The mapping is too large to save with the document (${Math.ceil(bytes / 1000)} KB, limit ${MAX_MAPPING_BYTES / 1000} KB): shorten prompts or schemas`,
    };
  }
  if (stores.records.get(mappingName(sheetId)) !== textValue)
    writeRecord(stores, mappingName(sheetId), 'chunked', textValue);
  return { ok: true, bytes };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function loadHistory(stores: RecordStores): TablesHistory {
  const stored = parsed(readRecord(stores, HISTORY_NAME, 'chunked'));
  if (!isObject(stored)) return { tables: [], templates: [] };
  return {
    tables: Array.isArray(stored.tables) ? (stored.tables.filter(isObject) as unknown as KnownTable[]) : [],
    templates: Array.isArray(stored.templates) ? (stored.templates.filter(isObject) as unknown as SavedTemplate[]) : [],
  };
}

export function saveHistory(stores: RecordStores, history: TablesHistory): void {
  const tables = [...history.tables]
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, MAX_TABLES)
    .map((table) => ({
      ...table,
      columns: table.columns.slice(-MAX_COLUMNS_PER_TABLE),
      pushes: table.pushes.slice(-MAX_PUSHES_PER_TABLE),
    }));
  const templates = [...history.templates].sort((a, b) => b.savedAt - a.savedAt).slice(0, MAX_TEMPLATES);
  writeRecord(stores, HISTORY_NAME, 'chunked', JSON.stringify({ v: 1, tables, templates }));
}

const MAX_PENDING = 10;

const samePush = (
  a: Pick<PendingPush, 'tableId' | 'fingerprint'>,
  b: Pick<PendingPush, 'tableId' | 'fingerprint'>,
): boolean => a.tableId === b.tableId && a.fingerprint === b.fingerprint;

/** Pushes without a clear answer, newest first. */
export function loadPending(stores: RecordStores): PendingPush[] {
  const value = parsed(readRecord(stores, PENDING_NAME, 'plain'));
  return Array.isArray(value)
    ? (value.filter(
        (item) => isObject(item) && typeof item.tableId === 'string' && typeof item.fingerprint === 'string',
      ) as unknown as PendingPush[])
    : [];
}

function savePendingList(stores: RecordStores, list: PendingPush[]): void {
  if (list.length === 0) removeRecord(stores, PENDING_NAME, 'plain');
  else writeRecord(stores, PENDING_NAME, 'plain', JSON.stringify(list.slice(0, MAX_PENDING)));
}

/** Records (or updates) the marker of a push to a table, before it is sent and when its answer is unclear. */
export function markPending(stores: RecordStores, pending: PendingPush): void {
  savePendingList(stores, [pending, ...loadPending(stores).filter((item) => !samePush(item, pending))]);
}

/** Removes the marker once the push got a clear answer. */
export function clearPending(stores: RecordStores, push: Pick<PendingPush, 'tableId' | 'fingerprint'>): void {
  const list = loadPending(stores);
  const kept = list.filter((item) => !samePush(item, push));
  if (kept.length !== list.length) savePendingList(stores, kept);
}
