// Apps Script adapter of the Tables feature: reads the header row (row 1) of a sheet, as displayed, in one read.
// The only module of src/tables that touches SpreadsheetApp. The add-in's own hidden sheets are never mapped.
import { isUserSheet } from '../../shared/storage/internal-sheets';

export interface HeaderRow {
  sheetId: number;
  sheetName: string;
  headers: string[];
}

function isUsers(sheet: GoogleAppsScript.Spreadsheet.Sheet): boolean {
  return isUserSheet({ name: sheet.getName(), hidden: sheet.isSheetHidden() });
}

function headersOf(sheet: GoogleAppsScript.Spreadsheet.Sheet): HeaderRow {
  const lastColumn = sheet.getLastColumn();
  const headers = lastColumn === 0 ? [] : sheet.getRange(1, 1, 1, lastColumn).getDisplayValues()[0].map(String);
  return { sheetId: sheet.getSheetId(), sheetName: sheet.getName(), headers };
}

/** The header row of the active sheet, or null when it is one of the add-in's own hidden sheets. */
export function activeHeaderRow(): HeaderRow | null {
  const sheet = SpreadsheetApp.getActiveSheet();
  return isUsers(sheet) ? headersOf(sheet) : null;
}

/** The header row of the sheet with this ID (sheet IDs survive renames and moves), or null when it was deleted. */
export function headerRowOf(sheetId: number): HeaderRow | null {
  const sheet = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .find((candidate) => candidate.getSheetId() === sheetId);
  return sheet && isUsers(sheet) ? headersOf(sheet) : null;
}
