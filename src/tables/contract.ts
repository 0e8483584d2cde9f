// What the Tables dialog and the server exchange, and the pure rules both apply (sidebar/ imports only this file and
// src/api/types from src/): the dialog's state and answers, column drafts and kinds, the mapping checks, where new
// columns go, and renaming a column's references.
export type { AlignedView, TablesState, PushResponse, TemplateResponse } from './service';
export { AGENT_TYPES, KINDS, OUTPUT_FORMATS, kindInfo, type ColumnDraft } from './model';
export { validateMapping, type IssueField, type MappingIssue, type ValidationContext } from './validate';
export { FIELD_LABELS } from './refusals';
export { placeColumns, positionContext, readDeclaredKeys } from './operations';
export { readPosition, readTableId, type Position } from './targets';
export { renameReference } from './keys';

/** The answer of a dialog call the server could not run now (the sheet was deleted, or another execution is busy). */
export interface TablesRefusal {
  ok: false;
  message: string;
}

export function isRefusal(answer: unknown): answer is TablesRefusal {
  return typeof answer === 'object' && answer !== null && (answer as { ok?: unknown }).ok === false;
}
