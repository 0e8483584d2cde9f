// The spreadsheet's research spending guard: a credit cap per day and per month for research launched from this
// spreadsheet (off by default). What counts is what the service charges, read from the ledger: a task not finished yet
// (queued, sent, unconfirmed, running) holds its depth's full reservation, a finished one its real cost (2 credits
// per agent that ran), a failed or refused one nothing; a create sent again with "Send anyway" keeps counting the
// first one, which may have started, at its reservation. Launches check it under the document lock after loading the
// ledger, so two editors launching at once are checked one after the other and the cap is never passed. Days and
// months are the spreadsheet's calendar (the caller supplies the period keys). Pure.
import type { TaskDepth } from '../../api/types';
import { counted, reservationFor, taskCost } from './depth';
import type { LedgerEntry } from '../records/ledger';
import type { SpentByDay } from './spend-journal';
import type { Calendar } from './calendar';

export interface SpendingCap {
  /** Credits a day, or null for no daily cap. */
  daily: number | null;
  /** Credits a calendar month, or null for no monthly cap. */
  monthly: number | null;
}

export const NO_CAP: SpendingCap = { daily: null, monthly: null };

/** Credits the record's own task counts against the cap now. */
function ownTaskCredits(entry: LedgerEntry): number {
  switch (entry.state) {
    case 'done':
      return taskCost('done', entry.agents);
    case 'failed':
    case 'error':
      return 0;
    default:
      return reservationFor(entry.depth);
  }
}

/**
 * Credits a record counts against the cap now: its task's, and a full reservation for each earlier create that may
 * have started (sent again with "Send anyway": the service never showed it, which does not prove it did not start).
 */
export function chargedCredits(entry: LedgerEntry): number {
  // An imported task was paid elsewhere; a reused one was paid by its first record.
  if (entry.imported || entry.reused) return 0;
  return ownTaskCredits(entry) + (entry.maybeStarted ?? 0) * reservationFor(entry.depth);
}

/**
 * The refusal of "Send anyway" for records whose sending again would pass the cap (each may pay a second task), or
 * null when it fits.
 */
export function sendAgainProblem(room: GuardRoom, entries: readonly LedgerEntry[]): string | null {
  const needed = entries.reduce((sum, entry) => sum + reservationFor(entry.depth), 0);
  if (room.left === null || needed <= room.left) return null;
  const count = entries.length;
  return (
    `Over this spreadsheet's research spending cap: sending ${count === 1 ? 'it' : `these ${count}`} again may ` +
    `reserve ${needed} more credits (the first ${count === 1 ? 'create' : 'creates'} may have started and ${count === 1 ? 'counts' : 'count'}), ` +
    `${room.left} left. Nothing was sent: raise the cap in Settings, or wait for the task list to show ${count === 1 ? 'it' : 'them'} (Check again).`
  );
}

export interface GuardRoom {
  cap: SpendingCap;
  spentToday: number;
  spentThisMonth: number;
  /** Credits left under the tighter cap, or null when no cap is set. */
  left: number | null;
}

/**
 * What this spreadsheet's research spent today and this month, and what is left under its cap: the larger of what
 * the ledger's records count and what the journal kept (`journal`: a ledger sheet edited, cleared or deleted counts
 * no less than before; records from before the journal count through the ledger).
 */
export function guardRoom(
  cap: SpendingCap,
  entries: readonly LedgerEntry[],
  now: number,
  calendar: Calendar,
  journal: SpentByDay = {},
): GuardRoom {
  const today = calendar.day(now);
  const month = calendar.month(now);
  let ledgerToday = 0;
  let ledgerMonth = 0;
  for (const entry of entries) {
    const credits = chargedCredits(entry);
    if (credits === 0 || calendar.month(entry.launchedAt) !== month) continue;
    ledgerMonth += credits;
    if (calendar.day(entry.launchedAt) === today) ledgerToday += credits;
  }
  const journalMonth = Object.entries(journal)
    .filter(([day]) => day.startsWith(`${month}-`))
    .reduce((sum, [, credits]) => sum + credits, 0);
  const spentToday = Math.max(ledgerToday, journal[today] ?? 0);
  const spentThisMonth = Math.max(ledgerMonth, journalMonth, spentToday);
  const limits = [
    cap.daily === null ? null : cap.daily - spentToday,
    cap.monthly === null ? null : cap.monthly - spentThisMonth,
  ].filter((left): left is number => left !== null);
  return { cap, spentToday, spentThisMonth, left: limits.length > 0 ? Math.max(0, Math.min(...limits)) : null };
}

/**
 * Why work that reserves `credits` at once (an account watch's run) can never start under the cap, whatever was spent
 * (a run larger than the daily or the monthly cap), or null.
 */
export function capProblem(cap: SpendingCap, credits: number): string | null {
  const tightest = [
    cap.daily === null ? null : { cap: cap.daily, period: 'daily' },
    cap.monthly === null ? null : { cap: cap.monthly, period: 'monthly' },
  ].find((limit) => limit !== null && credits > limit.cap);
  return tightest
    ? `A run of this watch reserves up to ${credits} credits and this spreadsheet's ${tightest.period} research ` +
        `spending cap is ${tightest.cap}: it could never start. Watch fewer rows, choose a lower depth, or raise the cap ` +
        'in Settings. Nothing was saved.'
    : null;
}

/** How many rows of a launch at `depth` fit in the room left (all of them when there is no cap). */
export function rowsThatFit(room: GuardRoom, depth: TaskDepth, rows: number): number {
  return room.left === null ? rows : Math.min(rows, Math.floor(room.left / reservationFor(depth)));
}

/**
 * What answering yes to a question about rows a launch left alone (already researched, or running for another
 * account) would launch: the first of `rows` (in sheet order) that fit, at `perRow` credits each.
 */
export interface LaunchQuestion {
  rows: number[];
  perRow: number;
  /** What leaves the other rows out, with the credits it leaves: the spending cap or the account's credits; null: none. */
  limit: { by: 'cap' | 'credits'; left: number } | null;
}

/** The question about `asked` rows: as many as the cap's and the credits' room allow (null: no limit). */
export function questionFit(
  asked: readonly number[],
  perRow: number,
  capLeft: number | null,
  creditsLeft: number | null,
): LaunchQuestion {
  const rows = [...asked].sort((a, b) => a - b);
  const limits: Array<NonNullable<LaunchQuestion['limit']>> = [];
  if (capLeft !== null) limits.push({ by: 'cap', left: capLeft });
  if (creditsLeft !== null) limits.push({ by: 'credits', left: creditsLeft });
  const limit =
    limits
      .filter((candidate) => Math.floor(candidate.left / perRow) < rows.length)
      .sort((a, b) => a.left - b.left)[0] ?? null;
  return { rows: limit ? rows.slice(0, Math.floor(limit.left / perRow)) : rows, perRow, limit };
}

/**
 * The refusal of a launch that would pass the cap, with the numbers and what fits: `tasks` to create, for `rows` rows
 * (rows asking the same question share one task).
 */
export function capMessage(room: GuardRoom, depth: TaskDepth, tasks: number, rows = tasks): string {
  const needed = tasks * reservationFor(depth);
  const caps = [
    room.cap.daily === null ? null : `${room.spentToday} of ${room.cap.daily} today`,
    room.cap.monthly === null ? null : `${room.spentThisMonth} of ${room.cap.monthly} this month`,
  ].filter(Boolean);
  const fit = rowsThatFit(room, depth, tasks);
  const unit = rows === tasks ? 'row' : 'task';
  const what =
    rows === tasks
      ? counted(tasks, 'row')
      : `${counted(rows, 'row')} ask ${counted(tasks, 'distinct question')}: ${counted(tasks, 'task')}`;
  return (
    `Over this spreadsheet's research spending cap: ${what} ${tasks === 1 ? 'reserves' : 'reserve'} ` +
    `${counted(needed, 'credit')}, ${room.left ?? 0} left (${caps.join(', ')} spent). ` +
    (fit > 0 ? `${counted(fit, unit)} ${fit === 1 ? 'fits' : 'fit'}.` : `No ${unit} fits at this depth.`)
  );
}

/** A cap as typed in Settings: whole non-negative numbers, or blank for none. */
export function readCap(input: { daily: number | null; monthly: number | null }): SpendingCap | string {
  for (const [label, value] of [
    ['Daily', input.daily],
    ['Monthly', input.monthly],
  ] as const) {
    if (value !== null && (!Number.isInteger(value) || value < 0 || value > 10_000_000))
      return `${label} cap: a whole number of credits, or blank for none`;
  }
  if (input.daily !== null && input.monthly !== null && input.daily > input.monthly)
    return 'The daily cap is above the monthly cap';
  return { daily: input.daily, monthly: input.monthly };
}
