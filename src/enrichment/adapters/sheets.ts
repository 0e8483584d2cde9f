// The enrichment job's sheet port over SpreadsheetApp: read of the cells with content (getDataRange, one getValues), of
// the header row, of a rectangle, formula read and rectangular writes of values and notes, each one Apps Script call
// (plus adding columns when new field columns reach past the sheet's last one), and the commit of the writes. The
// enrichment dates are a sealed table: src/enrichment/sheet/dates-store.ts.
import type { CellValue } from '../../shared/cell-values';
import type { Area } from '../sheet/layout';
import type { EnrichSheet, SheetAccess } from '../ports';
import { targetSheetProblem } from '../../shared/storage/internal-sheets';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Drops the empty rows and columns after the last cell with content (the grid was read whole, in one call). */
function trimmed(values: unknown[][]): unknown[][] {
  let lastRow = values.length;
  while (lastRow > 0 && values[lastRow - 1].every((value) => value === '')) lastRow--;
  let lastColumn = 0;
  for (let r = 0; r < lastRow; r++) {
    for (let c = values[r].length; c > lastColumn; c--) {
      if (values[r][c - 1] !== '') {
        lastColumn = c;
        break;
      }
    }
  }
  return values.slice(0, lastRow).map((row) => row.slice(0, lastColumn));
}

function wrap(sheet: Sheet): EnrichSheet {
  return {
    id: sheet.getSheetId(),
    name: sheet.getName(),
    targetProblem: targetSheetProblem({ name: sheet.getName(), hidden: sheet.isSheetHidden() }),
    readValues: () => trimmed(sheet.getDataRange().getValues()),
    lastRow: () => sheet.getLastRow(),
    readHeader: () => sheet.getRange(1, 1, 1, sheet.getMaxColumns()).getValues()[0] ?? [],
    readArea: (area: Area) =>
      area.numRows > 0 && area.numColumns > 0
        ? sheet.getRange(area.row, area.column, area.numRows, area.numColumns).getValues()
        : [],
    readFormulas: (area: Area) => sheet.getRange(area.row, area.column, area.numRows, area.numColumns).getFormulas(),
    writeValues: (row: number, column: number, values: Array<Array<CellValue | Date>>) => {
      const width = values[0]?.length ?? 0;
      if (width > 0) sheet.getRange(row, column, values.length, width).setValues(values);
    },
    writeNotes: (row: number, column: number, notes: string[][]) => {
      const width = notes[0]?.length ?? 0;
      if (width > 0) sheet.getRange(row, column, notes.length, width).setNotes(notes);
    },
    ensureColumns: (columns: number) => {
      const maxColumns = sheet.getMaxColumns();
      if (columns > maxColumns) sheet.insertColumnsAfter(maxColumns, columns - maxColumns);
    },
    insertRowAtTop: () => {
      sheet.insertRowBefore(1);
    },
    commit: () => SpreadsheetApp.flush(),
  };
}

export function appsScriptSheets(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): SheetAccess {
  return {
    active: () => {
      const sheet = spreadsheet.getActiveSheet();
      const range = sheet.getActiveRange();
      const selection: Area = range
        ? {
            row: range.getRow(),
            column: range.getColumn(),
            numRows: range.getNumRows(),
            numColumns: range.getNumColumns(),
          }
        : {
            row: 1,
            column: 1,
            numRows: Math.max(1, sheet.getLastRow()),
            numColumns: Math.max(1, sheet.getLastColumn()),
          };
      return { sheet: wrap(sheet), selection };
    },
    byId: (id: number) => {
      const sheet = spreadsheet.getSheets().find((candidate) => candidate.getSheetId() === id);
      return sheet ? wrap(sheet) : null;
    },
  };
}
