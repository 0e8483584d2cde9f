// The user's daily trigger runtime, planned. Google gives each user 90 minutes a day of trigger runtime (6 hours on
// Google Workspace), shared by every script and add-on they use; past it, every trigger of theirs fails until the day
// moves on. Sheet Scout's timers (one per document with work) keep to a share of it: each timer run is budgeted to
// what the share has left over a rolling window of 25 hourly buckets (any 24 hours fall inside it, whenever Google's
// day starts), records what it used when it ends, and when too little is left it does no work, keeps the work
// pending and lets the next run (or an open panel) carry on. A run is booked as Google counts it: its measured time
// plus its start (a tick with nothing due costs about half a second, not a flat figure). One small JSON value in the
// user's properties, written under the user's lock with a fresh read, so that timers of two spreadsheets that end at
// once both keep their booking. Pure.
import type { KeyValueStore, LockPort } from '../ports';
import {
  addUsage,
  nextRelease,
  parseUsage,
  usedInWindow,
  type AccountKind,
  type HourlyUsage,
} from '../platform/request-budget';
import { MIN_SLICE_MS, TIMER_BUDGET_MS } from './timer';
import { settledStartMs } from '../shared/installation';

/** UserProperties: the timers' runtime per hour, in ms. */
export const TIMER_RUNTIME_KEY = 'sheetscout.timer.runtime';

const MINUTE_MS = 60 * 1000;
/** Sheet Scout's share of the daily trigger runtime: half of Google's 90 minutes (6 hours on Workspace)... */
export const TIMER_RUNTIME_SHARES: Record<AccountKind, { shareMs: number; googleLimitMs: number }> = {
  consumer: { shareMs: 45 * MINUTE_MS, googleLimitMs: 90 * MINUTE_MS },
  // ...and two thirds of Workspace's 6 hours: Workspace users run larger jobs, and other scripts have 2 hours.
  workspace: { shareMs: 240 * MINUTE_MS, googleLimitMs: 360 * MINUTE_MS },
};
/**
 * What a timer run costs beyond the time its handler measures: starting the execution before the handler's first
 * clock reading (Apps Script loads the whole bundle: about 0.37 s for this one's 490 KB in the emulator's cost model,
 * 250 ms + 0.25 ms per KB, an estimate) and the booking's own lock and write after its last reading (about 0.17 s),
 * rounded up. The handler flushes its sheet writes before that reading, so their commit is measured.
 */
export const TIMER_START_MS = 600;

/** The start a run is booked with: TIMER_START_MS, or the start Check this installation timed when longer. */
export function timerStartAllowanceMs(user: KeyValueStore): number {
  return Math.max(TIMER_START_MS, settledStartMs(user) ?? 0);
}
/**
 * A run's work may go past its budget by its last round of requests and its final writes (a few seconds): this much
 * of what is left of the share is kept for that, so that the share holds. It is not booked: only what a run used is.
 */
const FINISH_MARGIN_MS = 9_000;
/** How long a booking waits for another timer of the same user to finish its own. */
const USER_LOCK_WAIT_MS = 5_000;

export interface TimerRuntimeBudget {
  /** What this run may spend on work (0: nothing, the work stays pending). */
  budgetMs: number;
  /** Runtime the timers used in the window, ms. */
  usedMs: number;
  /** When enough runtime frees up for a slice again (ms since epoch), when the budget is spent; else null. */
  resumesAt: number | null;
}

/** The budget of a timer run starting `now`. */
export function timerRuntimeBudget(user: KeyValueStore, now: number, account: AccountKind): TimerRuntimeBudget {
  const usage = parseUsage(user.get(TIMER_RUNTIME_KEY));
  const usedMs = usedInWindow(usage, now);
  const leftMs = TIMER_RUNTIME_SHARES[account].shareMs - usedMs - TIMER_START_MS - FINISH_MARGIN_MS;
  if (leftMs >= MIN_SLICE_MS) return { budgetMs: Math.min(TIMER_BUDGET_MS, leftMs), usedMs, resumesAt: null };
  return { budgetMs: 0, usedMs, resumesAt: resumeTime(usage, now, account) };
}

/** When the hours leaving the window (oldest first) free a slice again. */
function resumeTime(usage: HourlyUsage, now: number, account: AccountKind): number | null {
  let at = now;
  // Each step lets one more hour leave the window: there are at most 25.
  for (let step = 0; step < 25; step++) {
    const release = nextRelease(usage, at);
    if (release === null) return null;
    at = release;
    const left = TIMER_RUNTIME_SHARES[account].shareMs - usedInWindow(usage, at) - TIMER_START_MS - FINISH_MARGIN_MS;
    if (left >= MIN_SLICE_MS) return at;
  }
  return null;
}

/**
 * Records a timer run that began at `startedAt` and ends at `now` (its start included: timerStartAllowanceMs), on the
 * record as stored now and under the user's lock (without the lock in time, it is recorded all the same: a booking is never dropped).
 */
export function recordTimerRuntime(user: KeyValueStore, userLock: LockPort, startedAt: number, now: number): void {
  const usedMs = Math.max(0, now - startedAt) + timerStartAllowanceMs(user);
  const locked = userLock.tryLock(USER_LOCK_WAIT_MS);
  try {
    user.set(TIMER_RUNTIME_KEY, JSON.stringify(addUsage(parseUsage(user.fresh(TIMER_RUNTIME_KEY)), now, usedMs)));
  } finally {
    if (locked) userLock.release();
  }
}

/** The panels' words for a spent budget (they add that work moves while a panel is open). */
export function timerRuntimeMessage(budget: TimerRuntimeBudget, now: number): string | null {
  if (budget.budgetMs > 0) return null;
  const minutes = budget.resumesAt === null ? null : Math.max(1, Math.ceil((budget.resumesAt - now) / MINUTE_MS));
  const when =
    minutes === null
      ? 'later today'
      : minutes < 90
        ? `in about ${minutes} min`
        : `in about ${Math.round(minutes / 60)} h`;
  return `Sheet Scout's share of Google's daily time for timers is used up: with every panel closed, it resumes ${when}.`;
}
