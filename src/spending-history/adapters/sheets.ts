// The spending history's sheet calls (Settings > Spending): the names of the spreadsheet's sheets by id, and the
// export's write into a sheet the user named: made when there is none; an existing one's contents replaced only when
// asked (otherwise said to hold data); the add-in's own sheets and hidden ones are never written.
import type { CellValue } from '../../shared/cell-values';
import { targetSheetProblem } from '../../shared/storage/internal-sheets';

/** Every sheet's name, by sheet id. */
export function sheetNamesById(): Map<number, string> {
  return new Map(
    SpreadsheetApp.getActiveSpreadsheet()
      .getSheets()
      .map((sheet) => [sheet.getSheetId(), sheet.getName()]),
  );
}

/**
 * Writes `rows` (the first one the header) at A1 of the sheet named `name`, as values: 'written', 'filled' when the
 * sheet holds data and `replace` is false, or why it may not be written.
 */
export function exportSheet(name: string, rows: CellValue[][], replace: boolean): 'written' | 'filled' | string {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const existing = spreadsheet.getSheetByName(name);
  if (existing) {
    const problem = targetSheetProblem({ name: existing.getName(), hidden: existing.isSheetHidden() });
    if (problem) return problem;
    if (existing.getLastRow() > 0 && !replace) return 'filled';
  } else {
    const problem = targetSheetProblem({ name, hidden: false });
    if (problem) return problem;
  }
  const sheet = existing ?? spreadsheet.insertSheet(name, spreadsheet.getNumSheets());
  if (existing) sheet.clearContents();
  const width = rows[0].length;
  if (rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  if (width > sheet.getMaxColumns()) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  sheet.getRange(1, 1, rows.length, width).setValues(rows);
  sheet.setFrozenRows(1);
  return 'written';
}
