// SearchSheetPort over the active spreadsheet (SpreadsheetApp). Thin: every method is one or two Apps Script calls;
// sheets are addressed by their stable sheet id, never by position. Only the user's sheets exist for the search panel:
// the add-in's hidden sheets are neither listed nor read nor written (isUserSheet).
import type { CellValue } from '../../shared/cell-values';
import { isUserSheet, NOT_A_USER_SHEET } from '../../shared/storage/internal-sheets';
import type { SearchSheetPort, SheetRef } from '../ports';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function ref(sheet: Sheet): SheetRef {
  return { id: sheet.getSheetId(), name: sheet.getName() };
}

function belongsToUser(sheet: Sheet): boolean {
  return isUserSheet({ name: sheet.getName(), hidden: sheet.isSheetHidden() });
}

export function createSheetAdapter(spreadsheet: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): SearchSheetPort {
  const byId = (sheetId: number): Sheet => {
    const sheet = spreadsheet.getSheets().find((candidate) => candidate.getSheetId() === sheetId);
    if (!sheet) throw new Error('That sheet no longer exists: pick another one');
    if (!belongsToUser(sheet)) throw new Error(NOT_A_USER_SHEET);
    return sheet;
  };
  return {
    listSheets: () => spreadsheet.getSheets().filter(belongsToUser).map(ref),
    activeSheet: () => ref(spreadsheet.getActiveSheet()),
    activeCellValue: () => {
      const range = spreadsheet.getActiveRange();
      return range ? range.getCell(1, 1).getValue() : null;
    },
    selection: () => {
      const range = spreadsheet.getActiveRange();
      if (!range) return null;
      const sheet = range.getSheet();
      if (!belongsToUser(sheet)) throw new Error(NOT_A_USER_SHEET);
      return { sheet: ref(sheet), a1: range.getA1Notation(), row: range.getRow(), values: range.getValues() };
    },
    readAll: (sheetId) => {
      const sheet = byId(sheetId);
      if (sheet.getLastRow() === 0 || sheet.getLastColumn() === 0) return [];
      return sheet.getDataRange().getValues();
    },
    insertSheet: (name) => ref(spreadsheet.insertSheet(name, spreadsheet.getNumSheets())),
    writeValues: (sheetId, row, column, values: CellValue[][]) => {
      if (values.length === 0 || values[0].length === 0) return;
      const sheet = byId(sheetId);
      const width = values[0].length;
      const lastNeeded = row + values.length - 1;
      if (lastNeeded > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), lastNeeded - sheet.getMaxRows());
      const lastColumn = column + width - 1;
      if (lastColumn > sheet.getMaxColumns())
        sheet.insertColumnsAfter(sheet.getMaxColumns(), lastColumn - sheet.getMaxColumns());
      sheet.getRange(row, column, values.length, width).setValues(values);
    },
    getNote: (sheetId, row, column) => byId(sheetId).getRange(row, column).getNote(),
    setNote: (sheetId, row, column, note) => {
      byId(sheetId).getRange(row, column).setNote(note);
    },
    styleHeader: (sheetId, columns) => {
      const sheet = byId(sheetId);
      sheet.setFrozenRows(1);
      sheet.getRange(1, 1, 1, Math.max(1, columns)).setFontWeight('bold');
    },
    activate: (sheetId) => {
      byId(sheetId).activate();
    },
  };
}
