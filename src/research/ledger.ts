// The research ledger: one record per launched row, kept in a hidden sheet of the document (document properties are
// far too small for thousands of tasks). A record holds the task id, the sheet and row identity, the output mapping,
// status and counters, timestamps, cost and error. The states make launches crash-safe:
//   queued   -> nothing sent yet; safe to create
//   sending  -> a create may have reached the service; reconcile through the task list before any retry
//   created / in_progress -> the task exists; poll it
//   done / failed -> final; `written` says whether the row got the result (a tick that died before writing retries)
//   error    -> the create was refused (402/422/...): nothing exists, nothing charged
// This module is the record format and its pure transitions; ledger-store.ts persists it.
import type { JsonSchemaObject, TaskDepth } from '../api/types';

export type LedgerState = 'queued' | 'sending' | 'created' | 'in_progress' | 'done' | 'failed' | 'error';

/** Where results go, by header name (so inserted or moved columns keep working). */
export interface OutputMapping {
  kind: 'report' | 'fields';
  statusHeader: string;
  /** Report output: the markdown column. */
  reportHeader?: string;
  /** Report output: a sources column, or null to put the sources in the report cell's note. */
  sourcesHeader?: string | null;
  /** Fields output: schema property -> column header. */
  fields?: Array<{ name: string; header: string }>;
}

/** How the row is recognised later: developer metadata id, plus the values of the brief's columns at launch. */
export interface RowIdentity {
  sheetId: number;
  rowId: string;
  /** Row number at launch (a hint only). */
  rowHint: number;
  /** Headers of the key columns (the columns the brief reads). */
  keyHeaders: string[];
  /** Their display values at launch. */
  keyValues: string[];
}

export interface LedgerEntry {
  /** Stable id of this record (also used to match the ledger sheet row). */
  id: string;
  taskId: string | null;
  state: LedgerState;
  row: RowIdentity;
  brief: string;
  depth: TaskDepth;
  schema: JsonSchemaObject | null;
  mapping: OutputMapping;
  iterations: number;
  agents: number;
  sources: number;
  cost: number;
  /** Failure or error text shown to the user. */
  error: string | null;
  degradation: string[];
  launchedAt: number;
  /** When the create was (last) sent; the reconciliation window starts here. */
  sentAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
  /** The row received the final result (or was found gone). */
  written: boolean;
  /** Last status text written to the row (so unchanged rows are not rewritten). */
  shownStatus: string;
  /** The row could not be found or no longer matches: the result stays in the ledger and the viewer. */
  detached: boolean;
}

export const PENDING_STATES: readonly LedgerState[] = ['queued', 'sending', 'created', 'in_progress'];

export function isPending(entry: LedgerEntry): boolean {
  return PENDING_STATES.includes(entry.state);
}

/** Pending, or final but not yet written into its row. */
export function needsWork(entry: LedgerEntry): boolean {
  return isPending(entry) || !entry.written;
}

/** Ledger sheet columns: a few readable ones, then the whole record as JSON. */
export const LEDGER_HEADERS = ['entry_id', 'task_id', 'state', 'sheet_id', 'row_id', 'updated_at', 'record'];

export function entryToRow(entry: LedgerEntry): Array<string | number> {
  return [entry.id, entry.taskId ?? '', entry.state, entry.row.sheetId, entry.row.rowId, new Date(entry.updatedAt).toISOString(), JSON.stringify(entry)];
}

/** Reads a ledger sheet row back; null for blank or damaged rows (never throws). */
export function rowToEntry(row: readonly unknown[]): LedgerEntry | null {
  const text = row[6];
  if (typeof text !== 'string' || !text.startsWith('{')) return null;
  try {
    const entry = JSON.parse(text) as LedgerEntry;
    return typeof entry.id === 'string' && entry.row && typeof entry.state === 'string' ? entry : null;
  } catch {
    return null;
  }
}

/** Status text of the row's status cell. */
export function statusText(entry: LedgerEntry): string {
  switch (entry.state) {
    case 'queued':
    case 'sending':
    case 'created':
      return 'Queued';
    case 'in_progress':
      return `Researching: ${entry.iterations} iterations, ${entry.agents} agents, ${entry.sources} sources`;
    case 'done':
      return `Done (${entry.cost} credits)`;
    case 'failed':
    case 'error':
      return `Failed: ${entry.error ?? 'unknown reason'}`;
  }
}
