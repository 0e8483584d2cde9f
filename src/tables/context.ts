// Builds the Tables feature's ports for one execution from the app context (the document's store, the user's client,
// the clock), reads the header row of the mapping's sheet, and runs the work that writes the document's Tables state
// under the document lock.
import { appContext } from '../platform/app-context';
import { headerRowOf, type HeaderRow } from '../platform/sheets/tables';
import type { OperationDeps } from './ports';
import { BUSY_MESSAGE } from '../shared/busy';

const LOCK_WAIT_MS = 15000;

export function tablesContext(): OperationDeps {
  const context = appContext();
  return { api: context.userClient(), store: context.documentStore(), clock: context.clock };
}

/** The header row of the mapping's sheet (which the user may have deleted while the dialog was open). */
export function sheetRow(sheetId: number): HeaderRow {
  const row = headerRowOf(sheetId);
  if (!row) throw new Error('The sheet of this mapping was deleted: close the dialog and open it again');
  return row;
}

export function withDocumentLock<T>(work: () => T): T {
  const lock = appContext().documentLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) throw new Error(BUSY_MESSAGE);
  try {
    return work();
  } finally {
    lock.release();
  }
}
