// Builds the Tables feature's ports for one execution from the app context (the document's records, the user's client,
// the clock), and runs the work that writes the document's Tables state on the mapping's sheet, under the document
// lock (or answers why it cannot now).
import { appContext, type AppContext } from '../platform/app-context';
import { headerRowOf, type HeaderRow } from './adapters/sheets';
import type { OperationDeps } from './ports';
import type { TablesRefusal } from './contract';
import { BUSY_MESSAGE } from '../shared/busy';

const LOCK_WAIT_MS = 15000;

export function tablesContext(context: AppContext = appContext()): OperationDeps {
  return { api: context.userClient(), stores: context.documentRecords(), clock: context.clock };
}

/**
 * Runs `work` on the header row of the mapping's sheet under the document lock; refuses when the user deleted the
 * sheet while the dialog was open, or another execution holds the lock.
 */
export function withSheetUnderLock<T>(
  sheetId: number,
  work: (row: HeaderRow, context: AppContext) => T,
): T | TablesRefusal {
  const row = headerRowOf(sheetId);
  if (!row) return { ok: false, message: 'The sheet of this mapping was deleted: close the dialog and open it again' };
  const context = appContext();
  const lock = context.documentLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) return { ok: false, message: BUSY_MESSAGE };
  try {
    return work(row, context);
  } finally {
    lock.release();
  }
}
