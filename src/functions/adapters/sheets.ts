// Apps Script adapter of the formula menu actions' sheet port (../menu-actions.ts): the active spreadsheet's sheets,
// selection, batched grid reads and writes, and re-entering formulas; and, for a custom function, the cell it runs in.
// Thin on purpose; the logic is in menu-actions and placement.
import type { CellValue } from '../../shared/cell-values';
import type { FormulaBook, FormulaSheet, Rect } from '../menu-actions';
import type { CallingCell } from '../placement';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function sheetPort(spreadsheet: Spreadsheet, sheet: Sheet): FormulaSheet {
  return {
    readGrid() {
      const range = sheet.getDataRange();
      return { formulas: range.getFormulas(), values: range.getValues() };
    },
    readReference(a1) {
      try {
        const range = a1.includes('!') ? spreadsheet.getRange(a1) : sheet.getRange(a1);
        return range.getNumRows() === 1 && range.getNumColumns() === 1 ? range.getValue() : range.getValues();
      } catch {
        return null;
      }
    },
    writeValues(row, column, values: CellValue[][]) {
      if (values.length === 0 || values[0].length === 0) return;
      sheet.getRange(row, column, values.length, values[0].length).setValues(values);
    },
    reenterFormulas(cells) {
      // Clearing the formula and its spilled result first makes Sheets treat the formula as new and evaluate it again.
      for (const { area } of cells) sheet.getRange(area.row, area.column, area.rows, area.columns).clearContent();
      SpreadsheetApp.flush();
      for (const { area, formula } of cells) sheet.getRange(area.row, area.column).setFormula(formula);
    },
  };
}

export function activeFormulaBook(): FormulaBook {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return {
    activeSheet: () => sheetPort(spreadsheet, spreadsheet.getActiveSheet()),
    selection(): Rect[] {
      const range = spreadsheet.getActiveRange();
      return range
        ? [{ row: range.getRow(), column: range.getColumn(), rows: range.getNumRows(), columns: range.getNumColumns() }]
        : [];
    },
    sheets: () => spreadsheet.getSheets().map((sheet) => sheetPort(spreadsheet, sheet)),
  };
}

/** The cell whose custom function runs now (a custom function's active range is its own cell), with its formula. */
export function callingCell(): CallingCell | null {
  const range = SpreadsheetApp.getActiveRange();
  if (!range) return null;
  return {
    sheetName: range.getSheet().getName(),
    row: range.getRow(),
    column: range.getColumn(),
    formula: range.getFormula(),
  };
}
