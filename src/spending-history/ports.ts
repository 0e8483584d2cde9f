// What Settings > Spending works with: the document's store (where the history is kept), the clock, the spreadsheet's
// sheets (their names by id, and the export's write into a sheet the user named) and its time zone. The context
// (context.ts) builds them over Apps Script; tests can give their own.
import type { CellValue } from '../shared/cell-values';
import type { ClockPort, KeyValueStore } from '../ports';

/** The spreadsheet's sheets as the history's list and export see them (adapters/sheets.ts). */
export interface SpendingSheetsPort {
  /** Every sheet's name, by sheet id. */
  sheetNamesById(): Map<number, string>;
  /**
   * Writes `rows` (the first one the header) at A1 of the sheet named `name`, as values: 'written', 'filled' when the
   * sheet holds data and `replace` is false, or why it may not be written.
   */
  exportSheet(name: string, rows: CellValue[][], replace: boolean): 'written' | 'filled' | string;
}

/** The spreadsheet's time zone and its calendar. */
export interface SpreadsheetZonePort {
  /** The IANA name (as in File > Settings). */
  timeZone(): string;
  /** A time formatted in that zone (`yyyy-MM-dd HH:mm`, ...). */
  format(ms: number, pattern: string): string;
}

export interface SpendingHistoryDeps {
  document: KeyValueStore;
  clock: ClockPort;
  sheets: SpendingSheetsPort;
  zone: SpreadsheetZonePort;
}
