// What Settings > Spending exchanges with the server (the sidebar imports only this file from src/spending): the
// spreadsheet's runs that reserved credits in the last 90 days, newest first, and the export of that list to a sheet.
import type { RunKind, SpendingRun } from './history';

export type { RunKind };

/** How each kind of run is named in the list and in an export. */
export const RUN_KIND_LABELS: Readonly<Record<RunKind, string>> = {
  launch: 'Research launch',
  watch: 'Account watch run',
  'send-anyway': 'Send anyway',
  'new-rows': 'Research on new rows',
};

/** A run as Settings lists it: the history's run, with its sheet by name ('' when that sheet was deleted since). */
export type SpendingRunDto = Omit<SpendingRun, 'sheetId'> & { sheetName: string };

export interface SpendingHistoryDto {
  runs: SpendingRunDto[];
  /** How far back the list goes. */
  days: number;
  /** Runs removed before their 90 days to stay within the document's storage. */
  dropped: number;
  /** Since when a run may be missing (the document's storage was full), or null. */
  incompleteSince: number | null;
  /** The time zone the panel shows times in (this spreadsheet's). */
  timeZone: string;
}

/** "Export to a sheet": the sheet's name (made when there is none); `replace` confirms replacing one's contents. */
export interface SpendingExportRequest {
  sheetName: string;
  replace?: boolean;
}

export interface SpendingExportAnswer {
  ok: boolean;
  message: string;
  /** The sheet holds data: the panel asks before replacing it (send the request again with `replace`). */
  confirmReplace?: boolean;
}

/** The default name of the export's sheet. */
export const EXPORT_SHEET = 'Sheet Scout spending';
