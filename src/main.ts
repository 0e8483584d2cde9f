// Apps Script entry point: wires the add-in's globals (simple triggers, menu handlers, custom functions, sidebar
// endpoints, trigger handlers) to the feature modules. Nothing here runs a service at load time.
import { buildAddonMenu } from './menu';
import * as account from './account/endpoints';
import * as search from './search/endpoints';
import * as formulas from './functions/endpoints';
import * as tables from './tables/endpoints';
import * as enrichment from './enrichment/endpoints';
import * as newRows from './new-rows/endpoints';
import * as research from './research/endpoints';
import * as timer from './timer/endpoints';
import * as spending from './spending-history/endpoints';
import * as digest from './digest/endpoints';
import * as check from './check/endpoints';
import * as background from './background/endpoints';

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

// --- Account and settings ---
global.showSettingsPanel = account.showSettingsPanel;
global.getAccountState = account.getAccountState;
global.saveAccountToken = account.saveAccountToken;
global.removeAccountToken = account.removeAccountToken;
global.setFormulaTokenSharing = formulas.setFormulaTokenSharing;
global.getCredits = account.getCredits;
global.getRequestBudget = account.getRequestBudget;
global.setRequestBudgetAccount = account.setRequestBudgetAccount;
global.getKeptSpreadsheets = account.getKeptSpreadsheets;

// --- Check this installation (Settings; Help menu) ---
global.showInstallationCheck = check.showInstallationCheck;
global.getInstallationCheck = check.getInstallationCheck;
global.pingInstallation = check.pingInstallation;
global.checkInstallation = check.checkInstallation;
// --- Background work: saved runs that cannot start, the change stamp open panels poll ---
global.getSavedRunProblems = background.getSavedRunProblems;
global.getChangeStamp = background.getChangeStamp;

// --- Custom functions ---

// The functions' last argument, `refresh`, is ignored: its value changes when "Refresh pending lookups" enters a formula
// again, so that Sheets runs the call even if it reuses results of a call with the same arguments (withRefreshMark).
/**
 * Looks up company profiles by domain: one row of fields per input, spilling to the right (and down for a range).
 * Inputs may be domains, URLs or e-mail addresses; blank inputs give blank rows. Results are cached for 6 hours.
 * A range's spill follows the input's order: after sorting the sheet, use one formula per row, or Freeze formulas to values.
 * @param {"stripe.com"} domain A domain, URL or e-mail, or a column of them. Example: A2:A100 or "stripe.com".
 * @param {"Employees, Country"} fields Optional comma list of fields, by column header or key (case and spaces ignored). Default: Company name, Domain, Short description, Country, City, Employees, Founded. Others: Full description, Products and services, Use cases, Target audience, State or province, HQ address, LinkedIn, Twitter, Company ID.
 * @param {FALSE} with_header Optional. TRUE adds a header row with the field names. Example: TRUE.
 * @param {"refresh 1"} refresh Optional; leave it out. Sheet Scout > Formulas > Refresh pending lookups sets it (a count that changes, so Sheets runs the formula again).
 * @return One row of company fields per input.
 * @customfunction
 * @preserve
 */
global.COMPANY_LOOKUP = function COMPANY_LOOKUP(
  domain: unknown,
  fields?: unknown,
  with_header?: unknown,
  _refresh?: unknown,
) {
  return formulas.COMPANY_LOOKUP(domain, fields, with_header);
};

/**
 * Lists companies similar to a reference company: a header row, then up to `limit` companies.
 * @param {"stripe.com"} domain The reference company's domain (or URL, e-mail or company ID), one cell. Example: "stripe.com" or A2. For a list: Company search > Similar to a list.
 * @param {10} limit Optional number of companies, 1 to 2000 (default 10; the free plan reaches 25). Example: 50.
 * @param {E2:F4} filters Optional filters: a JSON object, or a two-column range of key | value rows. Keys: include.size, include.country, include.city, exclude.size, exclude.country, exclude.city, exclude.domains, range.founded.min, range.founded.max. Example: E2:F4 or "{""include.country"": [""United States""]}".
 * @param {"refresh 1"} refresh Optional; leave it out. Sheet Scout > Formulas > Refresh pending lookups sets it (a count that changes, so Sheets runs the formula again).
 * @return A header row and one row per similar company.
 * @customfunction
 * @preserve
 */
global.SIMILAR = function SIMILAR(domain: unknown, limit?: unknown, filters?: unknown, _refresh?: unknown) {
  return formulas.SIMILAR(domain, limit, filters);
};

/**
 * Searches companies by a description in plain words: a header row, then up to `limit` companies, best match first.
 * @param {"payment APIs for marketplaces"} query What the companies do, in plain words. Example: "payment APIs for marketplaces".
 * @param {10} limit Optional number of companies, 1 to 2000 (default 10; the free plan reaches 25). Example: 100.
 * @param {E2:F4} filters Optional filters: a JSON object, or a two-column range of key | value rows. Keys: include.size, include.country, include.city, exclude.size, exclude.country, exclude.city, exclude.domains, range.founded.min, range.founded.max. Example: E2:F4 or "{""include.country"": [""United States""]}".
 * @param {"refresh 1"} refresh Optional; leave it out. Sheet Scout > Formulas > Refresh pending lookups sets it (a count that changes, so Sheets runs the formula again).
 * @return A header row and one row per matching company.
 * @customfunction
 * @preserve
 */
global.COMPANY_SEARCH = function COMPANY_SEARCH(
  query: unknown,
  limit?: unknown,
  filters?: unknown,
  _refresh?: unknown,
) {
  return formulas.COMPANY_SEARCH(query, limit, filters);
};

global.freezeFormulasToValues = formulas.freezeFormulasToValues;
global.refreshPendingLookups = formulas.refreshPendingLookups;

// --- Bulk enrichment ---
global.showEnrichPanel = enrichment.showEnrichPanel;
global.getEnrichmentPreview = enrichment.getEnrichmentPreview;
global.startEnrichment = enrichment.startEnrichment;
global.runEnrichmentChunk = enrichment.runEnrichmentChunk;
global.getEnrichmentProgress = enrichment.getEnrichmentProgress;
global.cancelEnrichment = enrichment.cancelEnrichment;
global.resumeEnrichment = enrichment.resumeEnrichment;
global.getRefreshPreview = enrichment.getRefreshPreview;
global.runRefreshChunk = enrichment.runRefreshChunk;
global.getRefreshSchedule = enrichment.getRefreshSchedule;
global.setRefreshSchedule = enrichment.setRefreshSchedule;
global.getRefreshChanges = enrichment.getRefreshChanges;

// --- Keep enriching new rows (in the Enrich panel) ---
global.getNewRows = newRows.getNewRows;
global.setNewRows = newRows.setNewRows;
global.saveNewRowsResearch = newRows.saveNewRowsResearch;
global.stopNewRowsResearch = newRows.stopNewRowsResearch;

// --- Research ---
global.showResearchPanel = research.showResearchPanel;
global.getResearchContext = research.getResearchContext;
global.countResearchQuestions = research.countResearchQuestions;
global.launchResearch = research.launchResearch;
global.pollResearch = research.pollResearch;
global.tickResearch = research.tickResearch;
global.getResearchWatch = research.getResearchWatch;
global.saveResearchWatch = research.saveResearchWatch;
global.changeResearchWatch = research.changeResearchWatch;
global.pauseAccountWatches = research.pauseAccountWatches;
global.resumeAccountWatches = research.resumeAccountWatches;
global.stopAccountWatches = research.stopAccountWatches;
global.listResearchHistory = research.listResearchHistory;
global.getSelectedRowReport = research.getSelectedRowReport;
global.getTaskReport = research.getTaskReport;
global.writeTaskToSelectedRow = research.writeTaskToSelectedRow;
global.showResearchRows = research.showResearchRows;
global.getSpendingGuard = research.getSpendingGuard;
global.setSpendingGuard = research.setSpendingGuard;
global.checkUnconfirmedResearch = research.checkUnconfirmedResearch;
global.sendUnconfirmedResearchAnyway = research.sendUnconfirmedResearchAnyway;

// --- Spending history (Settings > Spending) ---
global.getSpendingHistory = spending.getSpendingHistory;
global.exportSpendingHistory = spending.exportSpendingHistory;

// --- Digest (Settings > Digest; posted by the shared timer) ---
global.getDigest = digest.getDigest;
global.setDigest = digest.setDigest;
global.removeDigest = digest.removeDigest;
global.sendDigestNow = digest.sendDigestNow;

// --- Time-driven trigger (the document's one shared timer: research polling and enrichment continuation) ---

/**
 * Time-driven trigger: polls this spreadsheet's pending research tasks, continues its enrichment job, and removes
 * itself when neither has work left.
 * @preserve
 */
global.sheetScoutTimer = timer.sheetScoutTimer;

// --- Company search ---
global.showSearchPanel = search.showSearchPanel;
global.getSearchPanelState = search.getSearchPanelState;
global.getSearchSheetColumns = search.getSearchSheetColumns;
global.getSearchExcludeDomains = search.getSearchExcludeDomains;
global.summarizeSearchExcludeDomains = search.summarizeSearchExcludeDomains;
global.previewCompanySearch = search.previewCompanySearch;
global.writeCompanySearch = search.writeCompanySearch;
global.runCompanySearchAgain = search.runCompanySearchAgain;
global.getLookalikeReferences = search.getLookalikeReferences;
global.runLookalikeSearch = search.runLookalikeSearch;

// --- Tables and templates ---
global.showTablesDialog = tables.showTablesDialog;
global.getTablesState = tables.getTablesState;
global.saveTablesMapping = tables.saveTablesMapping;
global.pushTablesColumns = tables.pushTablesColumns;
global.saveTablesTemplate = tables.saveTablesTemplate;
