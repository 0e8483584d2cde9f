// Builds Settings > Spending's ports for one execution from the app context: the document's store, the clock, the
// spreadsheet's sheets (adapters/sheets.ts) and its time zone.
import { appContext, type AppContext } from '../platform/app-context';
import { exportSheet, sheetNamesById } from './adapters/sheets';
import { formatInSpreadsheetZone, spreadsheetTimeZone } from '../platform/spreadsheet';
import type { SpendingHistoryDeps } from './ports';

export function spendingHistoryContext(context: AppContext = appContext()): SpendingHistoryDeps {
  return {
    document: context.documentStore(),
    clock: context.clock,
    sheets: { sheetNamesById, exportSheet },
    zone: { timeZone: spreadsheetTimeZone, format: formatInSpreadsheetZone },
  };
}
