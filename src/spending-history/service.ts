// Settings > Spending: the spending history as the panel lists it (each run's sheet named as it is now, the times in
// the spreadsheet's zone) and its export to a sheet the user names: plain values (text with Sheets' text prefix, so
// an e-mail or a sheet name never becomes a formula; numbers as numbers), one row per run under a header row, into a
// new sheet, or over an existing one's contents only once the user confirmed replacing them. Over ports (ports.ts).
import { safeText, type CellValue } from '../shared/cell-values';
import {
  RUN_KIND_LABELS,
  type SpendingExportAnswer,
  type SpendingExportRequest,
  type SpendingHistoryDto,
  type SpendingRunDto,
} from './contract';
import { HISTORY_DAYS, SpendingHistory } from './history';
import type { SpendingHistoryDeps, SpreadsheetZonePort } from './ports';
import { INCOMPLETE_KEY } from './recording';

export const EXPORT_HEADERS = [
  'Started',
  'Run',
  'Started by',
  'Sheet',
  'Rows',
  'Credits reserved',
  'Charged',
  'Given back',
  'Still open',
  'Creates that may have started unseen',
  'Not collected (ledger edited outside Sheet Scout)',
  'Run id',
  'Rows given earlier results (0 credits)',
];
const SHEET_NAME_CHARS = 100;

/** The spreadsheet's spending history, newest first. */
export function historyDto({ document, clock, sheets, zone }: SpendingHistoryDeps): SpendingHistoryDto {
  const { runs, dropped } = new SpendingHistory(document, () => clock.now()).list();
  const names = runs.length > 0 ? sheets.sheetNamesById() : new Map<number, string>();
  const incomplete = Number(document.get(INCOMPLETE_KEY));
  return {
    runs: runs.map((run) => ({ ...run, sheetName: names.get(run.sheetId) ?? '' })),
    days: HISTORY_DAYS,
    dropped,
    incompleteSince: incomplete > 0 ? incomplete : null,
    timeZone: zone.timeZone(),
  };
}

/** One run as an export row. */
function exportRow(run: SpendingRunDto, zone: SpreadsheetZonePort): CellValue[] {
  return [
    safeText(zone.format(run.at, 'yyyy-MM-dd HH:mm')),
    safeText(RUN_KIND_LABELS[run.kind]),
    safeText(run.startedBy),
    safeText(run.sheetName || '(deleted sheet)'),
    run.rows,
    run.reserved,
    run.charged,
    run.givenBack,
    run.open,
    run.unknown,
    run.lost,
    safeText(run.id),
    run.reused,
  ];
}

/** Writes the history into the named sheet (made when absent; one holding data only when `replace` confirms it). */
export function exportHistory(deps: SpendingHistoryDeps, request: SpendingExportRequest): SpendingExportAnswer {
  const name = request.sheetName.trim();
  if (name === '' || name.length > SHEET_NAME_CHARS)
    return { ok: false, message: `Name the sheet to export to (1 to ${SHEET_NAME_CHARS} characters)` };
  const { runs } = historyDto(deps);
  const rows = [EXPORT_HEADERS.map((header) => safeText(header)), ...runs.map((run) => exportRow(run, deps.zone))];
  const written = deps.sheets.exportSheet(name, rows, request.replace === true);
  if (written === 'filled')
    return {
      ok: false,
      confirmReplace: true,
      message: `"${name}" already holds data: replace its contents with the spending history?`,
    };
  if (written !== 'written') return { ok: false, message: written };
  const count = runs.length;
  return { ok: true, message: `Exported ${count} run${count === 1 ? '' : 's'} to "${name}" (values, no formulas)` };
}
