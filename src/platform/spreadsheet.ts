// The spreadsheet the add-in was opened from, and the few spreadsheet-wide calls the features make: its time zone's
// calendar, a toast, a yes/no question from a menu item, and flushing pending writes before an answer goes back to a
// panel.

export type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export function activeSpreadsheet(): Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

/** Whether the execution has a spreadsheet (Google may run an add-on's timer without one). */
export function hasActiveSpreadsheet(): boolean {
  return SpreadsheetApp.getActive() !== null;
}

/** The id of the sheet the user is on. */
export function activeSheetId(): number {
  return SpreadsheetApp.getActiveSheet().getSheetId();
}

/** The name of the sheet with this id ('' when there is none). */
export function sheetNameOf(sheetId: number): string {
  return (
    activeSpreadsheet()
      .getSheets()
      .find((sheet) => sheet.getSheetId() === sheetId)
      ?.getName() ?? ''
  );
}

// Read once per execution (every execution loads the script afresh): a spending check formats a date per task.
let spreadsheetZone: string | null = null;

/** The spreadsheet's time zone (IANA name, as in File > Settings). */
export function spreadsheetTimeZone(): string {
  return (spreadsheetZone ??= activeSpreadsheet().getSpreadsheetTimeZone());
}

/** Formats a time in the spreadsheet's time zone (`yyyy-MM-dd`, `yyyy-MM`, ...). */
export function formatInSpreadsheetZone(ms: number, pattern: string): string {
  return formatInZone(ms, spreadsheetTimeZone(), pattern);
}

/** Formats a time in a given time zone (IANA name). */
export function formatInZone(ms: number, timeZone: string, pattern: string): string {
  return Utilities.formatDate(new Date(ms), timeZone, pattern);
}

/** Shows a short message in the spreadsheet's corner. */
export function toast(message: string, seconds = 8): void {
  activeSpreadsheet().toast(message, 'Sheet Scout', seconds);
}

/** Asks a yes/no question in a dialog (from a menu item): whether the user answered Yes. */
export function askYesNo(title: string, prompt: string): boolean {
  const ui = SpreadsheetApp.getUi();
  return ui.alert(title, prompt, ui.ButtonSet.YES_NO) === ui.Button.YES;
}

/** Applies pending spreadsheet writes now (before a panel reads the answer). */
export function flushWrites(): void {
  SpreadsheetApp.flush();
}
