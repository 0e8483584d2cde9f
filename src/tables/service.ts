// What the mapping dialog's server calls do, over ports: the dialog's opening state (the sheet's drafts, saved or
// default, plus the tables and templates this document pushed to), saving a mapping, and the push / template
// actions. The drafts the dialog sends are re-aligned with the sheet's current header row, so columns are sent in
// the sheet's order as it is now; the aligned drafts go back with the answer and the issues index into them.
import type { RecordStores } from '../shared/storage/record-sheet';
import { alignDrafts, readDrafts } from './mapping';
import { draftId, draftLabel, type ColumnDraft } from './model';
import type { HeaderRow } from './adapters/sheets';
import {
  loadHistory,
  loadMapping,
  loadPending,
  saveMapping,
  type KnownColumn,
  type PendingPush,
  type SavedTemplate,
} from './store';
import { pushToTable, readDeclaredKeys, saveAsTemplate, type PushOutcome, type TemplateOutcome } from './operations';
import type { OperationDeps } from './ports';
import { readPosition } from './targets';
import type { MappingIssue } from './validate';
import { columnLetter } from '../shared/a1';

export interface TablesState {
  sheetId: number;
  sheetName: string;
  drafts: ColumnDraft[];
  /** Column letters of the drafts ("A", "C", ...). */
  letters: string[];
  /** Headers of saved drafts that are no longer in the sheet (their settings are kept). */
  missing: string[];
  saved: boolean;
  tables: Array<{ id: string; columns: KnownColumn[]; updatedAt: number }>;
  templates: SavedTemplate[];
  /** Pushes that got no clear answer (their columns may be in the table), newest first. */
  pending: PendingPush[];
  /** The user's service is the local sandbox (the playground): the panel names its table and template ids. */
  localSandbox?: boolean;
}

export function openState(stores: RecordStores, row: HeaderRow): TablesState {
  const aligned = alignDrafts(row.headers, loadMapping(stores, row.sheetId));
  const history = loadHistory(stores);
  return {
    sheetId: row.sheetId,
    sheetName: row.sheetName,
    drafts: aligned.drafts,
    letters: aligned.columns.map(columnLetter),
    missing: aligned.missing.map(draftLabel),
    saved: aligned.saved,
    tables: history.tables.map(({ id, columns, updatedAt }) => ({ id, columns, updatedAt })),
    templates: history.templates,
    pending: loadPending(stores),
  };
}

export interface Aligned {
  drafts: ColumnDraft[];
  letters: string[];
  /** Problems found while aligning (an included column whose header left the sheet). */
  issues: MappingIssue[];
}

/** Lines the dialog's drafts up with the sheet as it is now, and saves them (with the kept settings of gone headers). */
export function alignAndSave(
  stores: RecordStores,
  row: HeaderRow,
  rawDrafts: unknown,
): Aligned & { saveError: string | null } {
  const sent = readDrafts(rawDrafts);
  const sentIds = new Set(sent.map(draftId));
  const kept = (loadMapping(stores, row.sheetId) ?? []).filter((draft) => !sentIds.has(draftId(draft)));
  const aligned = alignDrafts(row.headers, [...sent, ...kept]);
  const issues: MappingIssue[] = aligned.missing
    .filter((draft) => draft.include && sentIds.has(draftId(draft)))
    .map((draft) => ({
      row: null,
      field: 'mapping' as const,
      severity: 'error' as const,
      message: `Column "${draftLabel(draft)}" is no longer in the sheet: reopen the dialog`,
    }));
  const saved = saveMapping(stores, row.sheetId, [...aligned.drafts, ...aligned.missing]);
  return {
    drafts: aligned.drafts,
    letters: aligned.columns.map(columnLetter),
    issues,
    saveError: saved.ok ? null : saved.message,
  };
}

/** The aligned drafts go back with every answer; `saveError` says the mapping could not be saved (too large). */
export interface AlignedView {
  drafts: ColumnDraft[];
  letters: string[];
  saveError: string | null;
}
export type PushResponse = PushOutcome & AlignedView;
export type TemplateResponse = TemplateOutcome & AlignedView;

export interface PushRequest {
  drafts: unknown;
  table: string;
  position: unknown;
  /** The "keys already in the table" field, as typed. */
  tableKeys?: string;
  confirmRepeat?: boolean;
}

/** Saves the drafts aligned with the sheet: the answer's view of them, and the refusal while the mapping has errors. */
function savedForSending(deps: OperationDeps, row: HeaderRow, drafts: unknown) {
  const aligned = alignAndSave(deps.stores, row, drafts);
  const view: AlignedView = { drafts: aligned.drafts, letters: aligned.letters, saveError: aligned.saveError };
  const invalid =
    aligned.issues.length > 0
      ? { status: 'invalid' as const, message: aligned.issues[0].message, issues: aligned.issues, ...view }
      : null;
  return { aligned, view, invalid };
}

export function push(deps: OperationDeps, row: HeaderRow, request: PushRequest): PushResponse {
  const { aligned, view, invalid } = savedForSending(deps, row, request.drafts);
  if (invalid) return invalid;
  const position = readPosition(request.position);
  if (!position.ok) {
    return {
      status: 'invalid',
      message: position.message,
      issues: [{ row: null, field: 'position', severity: 'error', message: position.message }],
      ...view,
    };
  }
  const outcome = pushToTable(deps, {
    drafts: aligned.drafts,
    tableInput: String(request.table ?? ''),
    position: position.position,
    tableKeys: readDeclaredKeys(request.tableKeys),
    confirmRepeat: request.confirmRepeat === true,
  });
  return { ...outcome, ...view };
}

export interface TemplateRequest {
  drafts: unknown;
  template: string;
  name: string;
  /** Set when the user agreed to replace the template's columns (the first click only asks). */
  confirmReplace?: boolean;
}

export function saveTemplate(deps: OperationDeps, row: HeaderRow, request: TemplateRequest): TemplateResponse {
  const { aligned, view, invalid } = savedForSending(deps, row, request.drafts);
  if (invalid) return invalid;
  const outcome = saveAsTemplate(deps, {
    drafts: aligned.drafts,
    templateInput: String(request.template ?? ''),
    name: String(request.name ?? ''),
    confirmReplace: request.confirmReplace === true,
  });
  return { ...outcome, ...view };
}
