// What the enrichment panel and the server exchange (sidebar/enrichment imports only this file and src/api/types):
// the job's options, preview and progress, and the refresh of data older than N days.
import type { ColumnOption } from './sheet/layout';
import type { EnrichJob, JobCounts, JobScope } from './job/job-state';

export interface EnrichOptions {
  /** 1-based column; detected from the selection when absent. */
  domainColumn?: number;
  /** Profile field keys; the defaults when absent. */
  fields?: string[];
  overwrite?: boolean;
}

export interface FieldChoice {
  key: string;
  header: string;
  checked: boolean;
  /** Where the values go: "column H (existing)" or "new column K". */
  target: string;
}

export type EnrichPreview =
  | {
      ok: true;
      sheetName: string;
      columns: ColumnOption[];
      domainColumn: number;
      domainColumnLabel: string;
      hasHeaderRow: boolean;
      note: string | null;
      fields: FieldChoice[];
      overwrite: boolean;
      rows: number;
      uniqueDomains: number;
      blank: number;
      invalid: number;
      alreadyFilled: number;
      /** Unique domains that need a lookup, and how many of them are cached already. */
      toLookUp: number;
      cached: number;
      credits: 0;
      plan: RequestPlan;
      job: EnrichProgress | null;
    }
  | { ok: false; message: string; job: EnrichProgress | null };

/**
 * A job's requests against Sheet Scout's daily request budget: one per domain not cached (more for domains the
 * service is still enriching). When they do not fit what is left today, the job does what fits and the timer
 * continues it as requests free up, over `days` days.
 */
export interface RequestPlan {
  requests: number;
  leftToday: number;
  dailyLimit: number;
  days: number;
}

/** The plan of `requests` lookups with `leftToday` of a `dailyLimit` budget left. Pure. */
export function requestPlan(requests: number, leftToday: number, dailyLimit: number): RequestPlan {
  const days = requests <= leftToday ? 1 : 1 + Math.ceil((requests - leftToday) / Math.max(1, dailyLimit));
  return { requests, leftToday, dailyLimit, days };
}

export interface EnrichProgress {
  jobId: string;
  status: EnrichJob['status'];
  message: string | null;
  sheetName: string;
  domainColumnLabel: string;
  headers: string[];
  overwrite: boolean;
  scope: JobScope;
  counts: JobCounts;
  totalDomains: number;
  resolvedDomains: number;
  percent: number;
  /**
   * Domains waiting for the service to finish enriching them (202), failed lookups waiting for a retry, and domains
   * a pause stopped (token, settings or quota: looked up again on Resume, not errors).
   */
  enriching: number;
  retrying: number;
  /** What the failed lookups waiting for a retry met, most of them ("the service could not be reached"), or null. */
  retryCause: string | null;
  blocked: number;
  /** Seconds until the next lookup of a waiting domain; null when none waits. */
  nextTrySeconds: number | null;
  lookups: number;
  cacheHits: number;
  chunks: number;
  /**
   * Domains per second since the start, and the estimated seconds left (null when unknown): the domains not looked up
   * yet at the rate of fresh lookups, and at least the wait for the next try of the waiting ones. `etaLatestSeconds`
   * is the latest finish if the service takes every retry the job allows for its waiting domains.
   */
  rate: number;
  etaSeconds: number | null;
  etaLatestSeconds: number | null;
  /** When the driver should call the next chunk: 0 now, n ms later, or -1 when there is nothing left to do. */
  nextStepInMs: number;
  /**
   * Sheet Scout's daily request budget is spent: the job waits until this time (epoch ms), when requests leave the
   * budget's window, and the timer continues it then with every panel closed; null otherwise.
   */
  waitingForRequestsUntil: number | null;
  /** Another execution holds the job right now. */
  busy: boolean;
  startedAt: number;
  updatedAt: number;
}

export type StartResult = { ok: true; progress: EnrichProgress } | { ok: false; message: string };

/** "Refresh data older than N days": the age in days, and the domains this run already handed back. */
export interface RefreshRequest {
  days: number;
  /** Domains the service is still enriching or could not answer in this run: not asked again until the next run. */
  skip?: string[];
}

export type RefreshPreview =
  | {
      ok: true;
      sheetName: string;
      days: number;
      /** Headers of the enriched columns a refresh compares. */
      fields: string[];
      /** Enriched rows older than the cutoff, of them without a recorded date (enriched before dates were kept). */
      staleRows: number;
      undatedRows: number;
      domains: number;
      /** Lookups the refresh sends (one per domain) and what they cost. */
      requests: number;
      credits: 0;
    }
  | { ok: false; message: string };

export type RefreshChunkResult =
  | {
      ok: true;
      /** Domains answered in this chunk (found or no longer found). */
      checked: number;
      changedRows: number;
      changedCells: number;
      /** Cells whose value the user typed over what the add-in wrote: kept as they are. */
      keptEdits: number;
      /** Per enriched column, the rows whose value changed. */
      changedByField: Array<{ header: string; rows: number }>;
      /**
       * Enriched rows newer than the refresh's days (left alone), and when the first of them gets older than that
       * (epoch ms; null when none): why a refresh found nothing to check, and when it will.
       */
      freshRows: number;
      freshDueAt: number | null;
      notFound: number;
      /** Domains to skip for the rest of this run (still enriching, or the service refused the lookup). */
      retryLater: string[];
      /** Lookups that did not reach the service (unavailable, no answer): the chunk stopped there; not skipped. */
      unreachable: number;
      /** Stale domains this chunk did not reach (the next chunk takes them). */
      remaining: number;
      /** Lookups this chunk sent. */
      requests: number;
    }
  | { ok: false; message: string };

/** What a scheduled refresh run found (or why it could not run). */
export interface ScheduleSummary {
  /** When the run started (under way) or ended (last run). */
  at: number;
  checked: number;
  changedRows: number;
  changedCells: number;
  keptEdits: number;
  notFound: number;
  problem: string | null;
  /**
   * Enriched rows the run left alone, being newer than its days, and when the first of them is due for a check (as
   * the run's first chunk found them; absent in summaries of earlier versions).
   */
  freshRows?: number;
  freshDueAt?: number | null;
}

/** A sheet's refresh schedule as the Enrich panel shows it. */
export interface RefreshScheduleDto {
  days: number;
  cadence: 'weekly' | 'monthly';
  /** 0 = Sunday ... 6 = Saturday (weekly). */
  weekday: number;
  /** The hour of the spreadsheet's day a run starts after (at the first hourly tick of the timer past it). */
  hour: number;
  /** When the next run starts (epoch ms); null while a run is under way. */
  nextRunAt: number | null;
  running: boolean;
  /** While a run under way cannot reach the service: since when (epoch ms); it tries again hourly. */
  unreachableSince: number | null;
  lastRun: ScheduleSummary | null;
  /** The share of the day's request budget a scheduled run may use (0..1). */
  requestShare: number;
}

/** The Enrich panel's schedule change: off, or every week on a day / every month, for data older than `days`. */
export interface RefreshScheduleRequest {
  cadence: 'off' | 'weekly' | 'monthly';
  weekday: number;
  days: number;
  /** The hour of the spreadsheet's day the run starts after (default 6). */
  hour?: number;
}

/** The active sheet's schedule, or why it cannot have one. */
export type RefreshScheduleAnswer =
  | {
      ok: true;
      sheetName: string;
      schedule: RefreshScheduleDto | null;
      timerProblem: string | null;
      /** The spreadsheet's time zone, in which the schedule runs and its times are shown. */
      timeZone: string;
    }
  | { ok: false; message: string };

/** The active sheet's cells changed by refreshes since a date, newest first (the panel's "Changes"). */
export type RefreshChangesAnswer =
  | {
      ok: true;
      sheetName: string;
      since: number;
      changes: Array<{
        /** The row that holds the domain now (null: none does). */
        row: number | null;
        domain: string;
        header: string;
        before: string;
        after: string;
        at: number;
      }>;
      /** More changes than listed (the newest are listed). */
      more: boolean;
    }
  | { ok: false; message: string };
