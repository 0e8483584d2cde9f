// Opens the add-in's HTML pages (each built into one file of dist/ by build/build.js): the fixed-width sidebar for
// the panels and a modal dialog for the wide Tables mapping.

/** The single-file pages in dist/, by name. */
export type PanelName = 'Settings' | 'Enrich' | 'Research' | 'Search' | 'Tables';

/** Shows a page in the spreadsheet's sidebar (always 300 px wide). */
export function showPanel(name: PanelName, title: string): void {
  SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutputFromFile(name).setTitle(title));
}

/** Shows a page in a modal dialog of the given size, over the spreadsheet. */
export function showDialog(name: PanelName, title: string, size: { width: number; height: number }): void {
  const page = HtmlService.createHtmlOutputFromFile(name).setWidth(size.width).setHeight(size.height);
  SpreadsheetApp.getUi().showModalDialog(page, title);
}
