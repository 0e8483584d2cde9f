// What the Research panel reads of the sheet and shows in it: the selected rows, the first one's values (for the
// live preview) and the panel's saved settings; how many distinct questions the selected rows ask, and how many of
// them this spreadsheet bought within the period the panel names (reuse.ts: the offer of earlier results); and "Show
// in sheet", which selects the status cells of launched rows.
import { researchContext } from '../context';
import type { QuestionCountDto, QuestionCountRequest, ResearchContextDto, ReuseOffer } from '../contract';
import { parseTemplate } from '../brief/brief-template';
import { questionsOf } from './questions';
import { resolveOutput } from './launch-request';
import { earlierResults, periodStart, questionKeys, reuseOffer } from './reuse';
import { reservationFor } from '../spending/depth';
import { rowDomains } from '../brief/brief-domains';
import { guardDto } from '../spending/guard-service';
import { savedPanelState } from './launch-service';
import { SheetGrid } from '../adapters/sheets';
import { activeSpreadsheet, type Spreadsheet } from '../../platform/spreadsheet';

function selectedRows(spreadsheet: Spreadsheet, sheet: GoogleAppsScript.Spreadsheet.Sheet): number[] {
  // A selection of several ranges (Ctrl-click) arrives as a range list (null without a selection).
  const ranges = spreadsheet.getActiveRangeList()?.getRanges() ?? [];
  const last = sheet.getLastRow();
  const rows = new Set<number>();
  for (const range of ranges) {
    if (range.getSheet().getSheetId() !== sheet.getSheetId()) continue;
    const end = Math.min(range.getLastRow(), last);
    for (let row = Math.max(2, range.getRow()); row <= end; row++) rows.add(row);
  }
  return [...rows].sort((a, b) => a - b);
}

export function panelContext(): ResearchContextDto {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const grid = new SheetGrid(spreadsheet);
  const rows = selectedRows(spreadsheet, sheet);
  const headers = grid.headers(sheet.getSheetId()) ?? [];
  // One read of the selected rows: the first one's values for the preview, and which are blank (a launch skips them).
  const values = rows.length > 0 ? grid.readRows(sheet.getSheetId(), rows) : [];
  const firstRow = values[0] ?? null;
  const r = researchContext();
  return {
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    headers,
    rows,
    blankRows: rows.filter((_row, i) => (values[i] ?? []).every((cell) => String(cell).trim() === '')),
    firstRow,
    firstRowDomains: firstRow ? rowDomains(firstRow) : null,
    saved: savedPanelState(r),
    reservations: { medium: reservationFor('medium'), high: reservationFor('high'), xhigh: reservationFor('xhigh') },
    guard: guardDto(r),
  };
}

/**
 * The distinct questions the rows ask with the template (plan.ts groups them so at launch), from one read of them;
 * with a depth, an output and a period, the offer of their earlier results.
 */
export function questionCount(request: QuestionCountRequest): QuestionCountDto {
  const grid = new SheetGrid(activeSpreadsheet());
  const headers = grid.headers(request.sheetId);
  const parsed = headers ? parseTemplate(request.template, headers) : null;
  if (!parsed?.ok) return null;
  const rows = [...new Set(request.rows.filter((row) => row >= 2))].sort((a, b) => a - b);
  const { questions } = questionsOf(parsed.template, rows, rows.length > 0 ? grid.readRows(request.sheetId, rows) : []);
  let asking = 0;
  for (const group of questions.values()) asking += group.length;
  return { asking, questions: questions.size, reusable: offerOf(request, questions) };
}

/**
 * What this spreadsheet bought of `questions` (brief -> rows) within the request's period, as a launch answering the
 * offer would find it: the sealed done records closed since then, and their sealed reports. Null without a period.
 */
function offerOf(request: QuestionCountRequest, questions: Map<string, number[]>): ReuseOffer | null {
  const { depth, days } = request;
  const output = request.output ? resolveOutput(request.output) : null;
  if (!depth || !days || !output || !output.ok) return null;
  const keys = questionKeys(questions, depth, output.schema);
  if (keys.size === 0) return { days, rows: 0, questions: 0, oldest: null };
  const r = researchContext();
  const since = periodStart(r.context.clock.now(), days);
  const earlier = earlierResults(r.deps.ledger.doneSince(since), new Set(keys.values()), since, r.deps.reports);
  return reuseOffer(questions, keys, earlier, days);
}

/**
 * "Show in sheet" after a launch: selects the status cells of the launched rows (from the first to the last), so the
 * user sees where progress will appear even when the status column is far to the right. Answers the range selected.
 */
export function selectStatusCells(request: { sheetId: number; rows: number[]; statusHeader: string }): {
  ok: boolean;
  message: string;
} {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getSheets().find((candidate) => candidate.getSheetId() === request.sheetId);
  if (!sheet) return { ok: false, message: 'That sheet no longer exists' };
  const headers = new SheetGrid(spreadsheet).headers(request.sheetId) ?? [];
  const column = headers.findIndex((header) => header.trim() === request.statusHeader.trim()) + 1;
  if (column === 0) return { ok: false, message: `No column "${request.statusHeader}" in ${sheet.getName()}` };
  const rows = request.rows.filter((row) => row >= 2);
  if (rows.length === 0) return { ok: false, message: 'No rows to show' };
  const first = Math.min(...rows);
  const range = sheet.getRange(first, column, Math.max(...rows) - first + 1, 1);
  spreadsheet.setActiveSheet(sheet);
  range.activate();
  return { ok: true, message: `Selected ${range.getA1Notation()} in ${sheet.getName()}` };
}
