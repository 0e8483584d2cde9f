// What a research launch needs in order to finish, checked before anything is paid for: a target sheet of the user's
// (never the add-in's own hidden sheets), today's requests (one create per row and the polls that collect the
// results) and room in the spreadsheet for the hidden records (Google allows 10 million cells per spreadsheet). The timer that collects the results with the panels closed is the third
// precondition (scheduler/timer.ts, reserveTimer). Each check answers the refusal message with what does fit, or null.
// Pure.
import type { LedgerEntry } from '../records/ledger';
import { entryToRow } from '../records/ledger';
import type { GridPort } from '../ports';

/** Google's limit of cells per spreadsheet (every sheet's rows x columns, filled or not). */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;
/** A finished task's report row: task id, part count, and one part (a longer report takes a cell per 45,000 chars). */
const REPORT_ROW_CELLS = 3;
/**
 * Room kept for the ledger's and the reports' hidden sheets, which Google makes 1,000 x 26 before the add-in trims
 * them to their tables.
 */
const NEW_SHEETS_CELLS = 2 * 1000 * 26;

/** The header row of a launch's or a watch's sheet, or why it cannot be their target (gone, the add-in's own, hidden). */
export function targetHeaders(grid: Pick<GridPort, 'headers' | 'targetProblem'>, sheetId: number): string[] | string {
  const headers = grid.headers(sheetId);
  if (!headers) return 'That sheet no longer exists: reopen the panel';
  return grid.targetProblem(sheetId) ?? headers;
}

const figure = (n: number) => n.toLocaleString('en-US');
const rowsText = (n: number) => `${figure(n)} row${n === 1 ? '' : 's'}`;

/** Requests the polls of a launch of `rows` tasks take, beyond the creates: a list page per 100 tasks, twice over. */
export function pollAllowance(rows: number): number {
  return 2 * Math.ceil(rows / 100) + 5;
}

/** Refuses a launch whose creates and polls do not fit the requests left today. */
export function requestProblem(
  rows: number,
  budget: { used: number; limit: number; googleLimit: number },
): string | null {
  const left = Math.max(0, budget.limit - budget.used);
  const needed = rows + pollAllowance(rows);
  if (needed <= left) return null;
  let fit = Math.max(0, left - pollAllowance(left));
  while (fit > 0 && fit + pollAllowance(fit) > left) fit -= 1;
  return (
    `Nothing was sent: research on ${rowsText(rows)} sends ${figure(rows)} requests to start and about ` +
    `${figure(pollAllowance(rows))} more to collect the results, and Sheet Scout has ${figure(left)} of its ` +
    `${figure(budget.limit)} daily requests left (Google allows ${figure(budget.googleLimit)} a day). ` +
    (fit > 0 ? `Launch up to ${rowsText(fit)} now, and the rest tomorrow.` : 'Launch them tomorrow.')
  );
}

/** Cells the hidden records of these new tasks take: each ledger row as wide as its record, and its report row. */
export function recordCells(entries: readonly LedgerEntry[]): number {
  return entries.reduce((sum, entry) => sum + entryToRow(entry).length + REPORT_ROW_CELLS, 0);
}

/** Refuses a launch whose hidden records would take the spreadsheet past Google's cell limit. */
export function storageProblem(entries: readonly LedgerEntry[], cellsInUse: number): string | null {
  const records = recordCells(entries);
  const needed = records + NEW_SHEETS_CELLS;
  if (cellsInUse + needed <= SPREADSHEET_CELL_LIMIT) return null;
  const perRow = Math.max(1, Math.ceil(records / Math.max(1, entries.length)));
  const fit = Math.max(0, Math.floor((SPREADSHEET_CELL_LIMIT - cellsInUse - NEW_SHEETS_CELLS) / perRow));
  return (
    `Nothing was sent: this spreadsheet holds ${figure(cellsInUse)} of the ${figure(SPREADSHEET_CELL_LIMIT)} cells ` +
    `Google allows, and research on ${rowsText(entries.length)} needs about ${figure(needed)} more for its records. ` +
    'Delete unused rows, columns or sheets' +
    (fit > 0 ? `, or launch up to ${rowsText(fit)}.` : '.')
  );
}
