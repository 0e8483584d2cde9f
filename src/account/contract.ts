// What the Settings panel and the credits badge exchange with the server (sidebar/ imports only this file and
// src/api/types from src/): the account state, the badge's credits and account, and the daily request budget; and,
// for the local playground, which tokens its sandbox accepts.
export type { AccountState } from './service';
export type { AccountKind, BudgetStatus } from '../platform/request-budget';
import type { TimerFeature } from '../scheduler/features';

/** Since when the user's timers wait for their authorization (an update needs more), and Google's page to give it. */
export interface TimerAuthorization {
  since: number;
  url: string;
}

/** What the credits badge shows: the account's available credits and its e-mail; null when not connected. */
export interface Credits {
  availableCredits: number | null;
  email: string | null;
  /** Present while the user's timers wait for their authorization: every panel's header says so, with the link. */
  timerAuthorization?: TimerAuthorization;
}

/** Settings' "Spreadsheets Sheet Scout keeps current": the spreadsheets holding the user's timers. */
export interface KeptSpreadsheets {
  spreadsheets: Array<{
    name: string;
    url: string;
    /** What keeps its timer, in words ("scheduled refresh, account watch"). */
    keptBy: string;
    /** When its next work is due (epoch ms), or null: work is under way. */
    nextRunAt: number | null;
    /** It is the spreadsheet the panel is open in. */
    here: boolean;
    /**
     * Each work its timer keeps ("scheduled refresh"), with its own next time (a schedule's or a watch's next run), or
     * null: it is done at the timer's next run (work under way, or checked at every run).
     */
    work: Array<{ feature: TimerFeature; what: string; at: number | null }>;
    /** When its timer next runs, as far as can be told (whole periods after it was made), or null: not known. */
    timerNextAt: number | null;
    /** How often its timer runs: every minute (a script bound to the spreadsheet) or hourly (an add-on). */
    cadence: 'minute' | 'hourly' | null;
  }>;
  /** Google's limit of timers per account (20). */
  limit: number;
  /** While the user's timers wait for their authorization (an update needs more): since when, and where to give it. */
  authorization: TimerAuthorization | null;
  /** The time zone the panel shows times in (this spreadsheet's). */
  timeZone: string;
}

/** Whether the service address is a local sandbox (the playground's, or `npm start`'s): plain HTTP on this machine. */
export function isLocalSandbox(baseUrl: string | null | undefined): boolean {
  return /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(baseUrl ?? '');
}

/**
 * What the local sandbox accepts, for the panels' hints: every token of its seeded accounts (dev/sandbox/accounts.ts;
 * dev/sandbox/README.md says more of each).
 */
export const SANDBOX_HINTS = {
  token:
    'Local sandbox: paste sbx_pro_token (Pro, 500 credits), sbx_pro2_token (its colleague), sbx_solo_token ' +
    '(no organization), sbx_free_token (free plan), sbx_low_token (12 credits) or sbx_rival_token (another company).',
  table: 'Local sandbox: tbl_labs_companies or tbl_labs_contacts (with sbx_pro_token).',
  template: 'Local sandbox: tpl_labs_account_research (with sbx_pro_token).',
} as const;
