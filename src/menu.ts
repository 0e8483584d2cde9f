// The add-in menu (Extensions > Sheet Scout). onOpen runs in AuthMode.NONE for a freshly installed add-on, so building
// the menu touches nothing but the Ui; every item names a global defined in main.ts.

export interface MenuEntry {
  label: string;
  /** Global function run when the item is clicked. */
  handler: string;
  /** Items of a submenu share its title. */
  submenu?: string;
}

export const MENU_ENTRIES: readonly MenuEntry[] = [
  { label: 'Settings...', handler: 'showSettingsPanel' },
  { label: 'Map columns...', handler: 'showTablesDialog', submenu: 'Tables' },
  { label: 'Company search...', handler: 'showSearchPanel' },
  { label: 'Enrich selected domains...', handler: 'showEnrichPanel' },
  { label: 'Research selected rows...', handler: 'showResearchPanel' },
  { label: 'Pause all watches', handler: 'pauseAccountWatches', submenu: 'Account watch' },
  { label: 'Resume all watches', handler: 'resumeAccountWatches', submenu: 'Account watch' },
  { label: 'Stop all watches...', handler: 'stopAccountWatches', submenu: 'Account watch' },
  { label: 'Freeze formulas to values', handler: 'freezeFormulasToValues', submenu: 'Formulas' },
  { label: 'Refresh pending lookups', handler: 'refreshPendingLookups', submenu: 'Formulas' },
  { label: 'Check this installation...', handler: 'showInstallationCheck', submenu: 'Help' },
];

type Menu = GoogleAppsScript.Base.Menu;

/** Builds the add-on menu from MENU_ENTRIES, grouping submenu items in their first-seen order. */
export function buildAddonMenu(ui: GoogleAppsScript.Base.Ui): void {
  const menu = ui.createAddonMenu();
  const submenus = new Map<string, Menu>();
  for (const entry of MENU_ENTRIES) {
    if (!entry.submenu) {
      menu.addItem(entry.label, entry.handler);
      continue;
    }
    let submenu = submenus.get(entry.submenu);
    if (!submenu) {
      submenu = ui.createMenu(entry.submenu);
      submenus.set(entry.submenu, submenu);
    }
    submenu.addItem(entry.label, entry.handler);
  }
  for (const submenu of submenus.values()) menu.addSubMenu(submenu);
  menu.addToUi();
}
