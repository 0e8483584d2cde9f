// Why no timer can serve a document: Google refused one more (the user's 20 are in use: the refusal names the
// spreadsheets holding them), refused it for another reason (a test deployment), or runs the user's timers without
// their spreadsheet (then none is made for a week); and what each means for work that a timer must run or collect.
import { limitMessage, type TimerHolder } from './timer-registry';

/**
 * Google refused to create the timer: `limit`, the user has 20 triggers of this script already (one per spreadsheet
 * where Sheet Scout has work running; for an add-on, also one time-driven trigger per document); `unsupported`, for
 * any other reason (a test deployment of an add-on runs no installable triggers), with Google's words.
 */
export class TimerUnavailable extends Error {
  constructor(
    readonly reason: 'limit' | 'unsupported' | 'documentless',
    google = '',
    holders: TimerHolder[] = [],
  ) {
    super(
      reason === 'limit'
        ? limitMessage(holders)
        : reason === 'documentless'
          ? "Google runs Sheet Scout's timers without their spreadsheet for your account, so a timer can do " +
            'nothing there.'
          : `Google did not let Sheet Scout set up this spreadsheet's timer (${google || 'no reason given'}); a ` +
            'test deployment of the add-on runs no timers.',
    );
    this.name = 'TimerUnavailable';
  }
}

/**
 * Why a timer that exists has not run for `hours`: either cause Google has, a test deployment of the add-on (no
 * installable trigger runs) or the user's daily trigger time spent (90 minutes, 6 hours on Workspace: every trigger of
 * theirs fails until it frees up, and every script and add-on they use spends it, not only Sheet Scout).
 */
export function silentTimerMessage(hours: number): string {
  return (
    `Sheet Scout's timer has not run for ${hours >= 1 ? `${hours} h` : 'a while'}. Google runs no timers for a test ` +
    "deployment of the add-on, and none of yours once your account's daily time for timers is spent (90 minutes, 6 " +
    'hours on Google Workspace), which your other scripts and add-ons use too.'
  );
}

/** User property: when a timer of this user ran without its spreadsheet (Google's behaviour here), ms. */
export const DOCUMENTLESS_KEY = 'sheetscout.timer.documentless';
/** No timer is made for a week after one ran without its spreadsheet; then one is tried again. */
export const DOCUMENTLESS_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** Why no timer serves the document: whether work that must be paid for may still start, and what to tell. */
export interface TimerProblem {
  message: string;
  /** The refusal is a limit that lifts (launch later) rather than how this installation runs (panel-driven). */
  blocksSpending: boolean;
  /**
   * No timer of this user can run work of this document with the panels closed (Google allows no more, or runs them
   * without their spreadsheet): work that only a timer runs (a schedule, a watch) is not saved.
   */
  closedPanelsOnly: boolean;
}
