// Apps Script entry point: wires the add-in's globals (simple triggers, menu handlers, custom functions, sidebar
// endpoints, trigger handlers) to the feature modules. Nothing here runs a service at load time.
import { buildAddonMenu } from './menu';
import * as account from './account/endpoints';

declare const global: Record<string, unknown>;

// --- Add-on lifecycle and menu ---

/**
 * Builds the Sheet Scout menu when the spreadsheet opens (runs in AuthMode.NONE for a new install).
 * @preserve
 */
global.onOpen = function onOpen(): void {
  buildAddonMenu(SpreadsheetApp.getUi());
};

/**
 * Runs after installation so the menu appears without reloading.
 * @preserve
 */
global.onInstall = function onInstall(): void {
  buildAddonMenu(SpreadsheetApp.getUi());
};

// --- Account and settings (issue 4) ---
global.showSettingsPanel = account.showSettingsPanel;
global.getAccountState = account.getAccountState;
global.saveAccountToken = account.saveAccountToken;
global.removeAccountToken = account.removeAccountToken;
global.setFormulaTokenSharing = account.setFormulaTokenSharing;

// --- Custom functions (issue 5) ---

// --- Bulk enrichment (issue 6) ---

// --- Research (issue 7) ---

// --- Company search (issue 8) ---

// --- Tables and templates (issue 9) ---
