// Research on new rows (the rules; research-service.ts saves it, research-runs.ts launches it): a separate opt-in on
// a sheet that keeps enriching its new rows, with its brief, depth and output, and a monthly credit limit. The limit
// counts every row launched at its depth's full reservation (what a task can cost at most), so what the service
// charges stays within it; the spreadsheet's spending cap counts the same launches through the research ledger. The
// figures (credits a row, the monthly limit, the rows it holds) are confirmed before anything is saved, and what was
// confirmed is kept in the document's properties with who confirmed it (their account pays, their timer launches).
// Pure.
import type { JsonSchemaObject, TaskDepth } from '../api/types';
import type { OutputMapping } from '../research/records/ledger';
import type { SpendingCap } from '../research/spending/spending-guard';
import type { SavedRun } from '../research/spending/saved-runs';
import type { NewRowsResearchConfirm, NewRowsResearchDto } from './contract';

/** The most a monthly limit may be (a typo of a few digits is refused, not saved). */
export const MONTHLY_LIMIT_MAX = 1_000_000;

export interface NewRowsResearch {
  template: string;
  depth: TaskDepth;
  schema: JsonSchemaObject | null;
  mapping: OutputMapping;
  /** The output's columns, status first. */
  headers: string[];
  creditsPerRow: number;
  monthlyLimit: number;
  /** The Sheet Scout account that confirmed it (it pays), when, and its timer (null: none could be made). */
  savedBy: string;
  confirmedAt: number;
  timer: string | null;
  lastRun: { at: number; text: string } | null;
}

/** Credits research on a sheet's new rows reserved in a month of the spreadsheet's calendar ("2026-11"). */
export interface MonthSpend {
  month: string;
  reserved: number;
}

export function reservedIn(spent: MonthSpend | null, month: string): number {
  return spent && spent.month === month ? spent.reserved : 0;
}

/** The month's reservations after `credits` more. */
export function spendMore(spent: MonthSpend | null, month: string, credits: number): MonthSpend {
  return { month, reserved: reservedIn(spent, month) + credits };
}

/** How many more rows the month's limit holds. */
export function rowsLeftThisMonth(research: NewRowsResearch, reserved: number): number {
  return Math.max(0, Math.floor((research.monthlyLimit - reserved) / research.creditsPerRow));
}

export function confirmFigures(monthlyLimit: number, creditsPerRow: number): NewRowsResearchConfirm {
  return { creditsPerRow, monthlyLimit, rowsPerMonth: Math.floor(monthlyLimit / creditsPerRow) };
}

/** Why this monthly limit cannot be saved (it holds no row; a row exceeds the spending cap), or null. */
export function limitProblem(monthlyLimit: number, creditsPerRow: number, cap: SpendingCap): string | null {
  if (!Number.isInteger(monthlyLimit) || monthlyLimit < 1 || monthlyLimit > MONTHLY_LIMIT_MAX)
    return `The monthly limit is a whole number of credits from 1 to ${MONTHLY_LIMIT_MAX.toLocaleString('en-US')}.`;
  if (monthlyLimit < creditsPerRow)
    return `A row reserves up to ${creditsPerRow} credits at this depth: a monthly limit of ${monthlyLimit} holds none.`;
  const tightest = [cap.daily, cap.monthly].filter((limit): limit is number => limit !== null);
  const smallest = tightest.length > 0 ? Math.min(...tightest) : null;
  if (smallest !== null && creditsPerRow > smallest)
    return (
      `A row reserves up to ${creditsPerRow} credits and this spreadsheet's research spending cap is ${smallest}: ` +
      'no new row could ever be researched. Choose a lower depth or raise the cap in Settings.'
    );
  return null;
}

/** Whether `confirmed` is what the user was shown for this request. */
export function isConfirmed(
  confirmed: { creditsPerRow: number; monthlyLimit: number } | null,
  figures: NewRowsResearchConfirm,
): boolean {
  return confirmed?.creditsPerRow === figures.creditsPerRow && confirmed.monthlyLimit === figures.monthlyLimit;
}

/** What research on a sheet's new rows reserves for one row and who pays it (saved-runs.ts weighs it). */
export function newRowsRun(research: NewRowsResearch, sheetName: string): SavedRun {
  return {
    what: `Research on the new rows of "${sheetName}"`,
    unit: 'row',
    credits: research.creditsPerRow,
    payer: research.savedBy,
  };
}

export function researchDto(research: NewRowsResearch, reserved: number, blocked: string | null): NewRowsResearchDto {
  return {
    template: research.template,
    depth: research.depth,
    headers: research.headers,
    creditsPerRow: research.creditsPerRow,
    monthlyLimit: research.monthlyLimit,
    reservedThisMonth: reserved,
    savedBy: research.savedBy,
    confirmedAt: research.confirmedAt,
    lastRun: research.lastRun,
    blocked,
  };
}

/** What a launch for new rows did, in one line ("Researching 3 new rows; 2 left out: this month's limit is reached"). */
export function launchText(launched: number, overLimit: number, refused: string | null): string {
  const parts: string[] = [];
  if (launched > 0) parts.push(`Researching ${launched} new row${launched === 1 ? '' : 's'}`);
  if (overLimit > 0)
    parts.push(
      `${overLimit} new row${overLimit === 1 ? '' : 's'} not researched: this month's limit is reached (they are ` +
        'filled; Research > Launch researches them)',
    );
  if (refused) parts.push(`Not researched: ${refused}`);
  return parts.length > 0 ? parts.join('; ') : 'Nothing launched: the new rows were researched already';
}
