// Which sheets belong to the user: the add-in keeps its own bookkeeping in hidden sheets (the research ledger,
// the full reports and the task index, enrichment dates, the Tables records), and no panel may offer, read from or write to them. The rule every sheet
// picker and sheet-level server function applies: a hidden sheet, or one named like an internal sheet (even if
// someone unhid it), is not a user sheet.

/** Where research keeps one record per launched row (src/research/records/ledger.ts). */
export const LEDGER_SHEET = 'Sheet Scout research ledger';
/** Where research keeps the full reports of finished tasks (src/research/records/stores.ts). */
export const REPORTS_SHEET = 'Sheet Scout research reports';
/** Who launched each research task, under which launch and record (src/research/records/task-index.ts). */
export const TASKS_SHEET = 'Sheet Scout research tasks';
/** Where bulk enrichment keeps when each domain of each sheet was last enriched (for "Refresh data older than"). */
export const ENRICHMENT_DATES_SHEET = 'Sheet Scout enrichment dates';
/** Where refreshes log the cells they changed (src/enrichment/refresh/change-log.ts: the Enrich panel's "Changes"). */
export const REFRESH_CHANGES_SHEET = 'Sheet Scout refresh changes';
/** Where the document's bulky records are kept (src/shared/storage/record-sheet.ts: the Tables mappings and history). */
export const RECORDS_SHEET = 'Sheet Scout records';
/** Where the account watch's signals wait for the next digest (src/shared/storage/digest-outbox.ts). */
export const DIGEST_SHEET = 'Sheet Scout digest';

/**
 * Sheets the add-in creates and hides (src/research keeps its ledger and reports there, src/enrichment its dates and
 * refresh changes, src/tables its records).
 */
export const INTERNAL_SHEET_NAMES: readonly string[] = [
  LEDGER_SHEET,
  REPORTS_SHEET,
  TASKS_SHEET,
  ENRICHMENT_DATES_SHEET,
  REFRESH_CHANGES_SHEET,
  RECORDS_SHEET,
  DIGEST_SHEET,
];

const internal = new Set(INTERNAL_SHEET_NAMES.map((name) => name.toLowerCase()));

/** Whether a sheet may be offered to the user, read from or written to by a panel. */
export function isUserSheet(sheet: { name: string; hidden: boolean }): boolean {
  return !sheet.hidden && !internal.has(sheet.name.trim().toLowerCase());
}

export const NOT_A_USER_SHEET = 'Sheet Scout keeps its own records in that hidden sheet: pick one of your sheets';

/**
 * Why a sheet may not be the target of work that writes into it (research, a watch, an enrichment), or null: the
 * add-in's own sheets never are (any editor could aim paid results at another user's records), nor is a hidden one.
 */
export function targetSheetProblem(sheet: { name: string; hidden: boolean }): string | null {
  if (internal.has(sheet.name.trim().toLowerCase())) return NOT_A_USER_SHEET;
  return sheet.hidden ? `"${sheet.name}" is hidden: unhide it first, or pick another sheet` : null;
}
