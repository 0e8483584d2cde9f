// Server functions of the Tables feature: the "Tables > Map columns..." menu item (a modal dialog, wider than the
// sidebar) and the calls the dialog makes through google.script.run. Thin: each reads the sheet's header row,
// takes the document lock where the document's Tables state is written, and delegates to service.ts.
import { isLocalSandbox } from '../account/contract';
import { userConnection } from '../shared/connection';
import { appContext } from '../platform/app-context';
import { tablesContext, withSheetUnderLock } from './context';
import type { TablesRefusal } from './contract';
import { checkedRequest } from '../shared/request-check';
import { PUSH_REQUEST, SAVE_REQUEST, TEMPLATE_REQUEST } from './requests';
import { activeHeaderRow } from './adapters/sheets';
import {
  alignAndSave,
  openState,
  push,
  saveTemplate,
  type AlignedView,
  type PushRequest,
  type PushResponse,
  type TablesState,
  type TemplateRequest,
  type TemplateResponse,
} from './service';
import { showDialog } from '../platform/panels';
import { NOT_A_USER_SHEET } from '../shared/storage/internal-sheets';

const DIALOG_WIDTH = 1000;
const DIALOG_HEIGHT = 680;

export function showTablesDialog(): void {
  showDialog('Tables', 'Map columns to a table', { width: DIALOG_WIDTH, height: DIALOG_HEIGHT });
}

/** The dialog's opening state for the active sheet. */
export function getTablesState(): TablesState | TablesRefusal {
  const row = activeHeaderRow();
  if (!row) return { ok: false, message: NOT_A_USER_SHEET };
  const context = appContext();
  // Against the local sandbox (the playground), the panel names its table and template ids.
  return {
    ...openState(context.documentRecords(), row),
    localSandbox: isLocalSandbox(userConnection(context.stores).baseUrl),
  };
}

/** Saves the dialog's mapping with the document; answers the drafts as aligned with the sheet now. */
export function saveTablesMapping(request: { sheetId: number; drafts: unknown }): AlignedView | TablesRefusal {
  const { sheetId } = checkedRequest<{ sheetId: number }>(SAVE_REQUEST, request, 'mapping');
  return withSheetUnderLock(sheetId, (row, context) => {
    const { drafts, letters, saveError } = alignAndSave(context.documentRecords(), row, request.drafts);
    return { drafts, letters, saveError };
  });
}

/** Saves the mapping, then creates its included columns in the table. */
export function pushTablesColumns(request: PushRequest & { sheetId: number }): PushResponse | TablesRefusal {
  const { sheetId } = checkedRequest<{ sheetId: number }>(PUSH_REQUEST, request, 'push');
  return withSheetUnderLock(sheetId, (row, context) => push(tablesContext(context), row, request));
}

/** Saves the mapping, then replaces the template's column list with it. */
export function saveTablesTemplate(request: TemplateRequest & { sheetId: number }): TemplateResponse | TablesRefusal {
  const { sheetId } = checkedRequest<{ sheetId: number }>(TEMPLATE_REQUEST, request, 'template');
  return withSheetUnderLock(sheetId, (row, context) => saveTemplate(tablesContext(context), row, request));
}
