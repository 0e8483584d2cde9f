// What a custom-function execution works with: the shared document cache, the clock, the time budget that keeps
// every call inside Sheets' 30-second limit, the circuit breaker, and a factory for a service client on the
// formula connection (null when no token is shared with this spreadsheet's formulas).
import type { ServiceClient } from '../api/client';
import type { CachePort, ClockPort } from '../ports';
import type { CircuitBreaker } from './breaker';

export type FormulaClient = Pick<ServiceClient, 'batchSize' | 'lookupCompanies' | 'runSearches' | 'runSimilar'>;

export interface ClientOptions {
  /** Retry budget of one batch (waits included), in ms. */
  budgetMs: number;
  /** Requests per fetchAll. */
  maxParallel: number;
}

export interface FormulaLimits {
  /** No new batch of requests starts after this much time since the execution began. */
  stopFetchingAfterMs: number;
  /**
   * Nor one that the slowest round seen could carry past this much time since the execution began (UrlFetchApp has
   * no timeout to stop a slow request before Sheets' limit).
   */
  endRoundsByMs: number;
  /** Retries of a batch must end by this time since the execution began. */
  deadlineMs: number;
  /** Lookups sent per fetchAll. */
  batchSize: number;
}

/**
 * Custom functions get 30 s. Batches start only in the first 20 s, and only when the slowest round seen (in this
 * execution, or learned by this document's formulas) would end by 27 s; their retries end by 24 s, leaving margin
 * for the cache writes and Sheets' own overhead. A range too large for that answers "Pending" for the rest.
 */
export const CUSTOM_FUNCTION_LIMITS: FormulaLimits = {
  stopFetchingAfterMs: 20_000,
  endRoundsByMs: 27_000,
  deadlineMs: 24_000,
  batchSize: 50,
};

export interface FormulaEnv {
  cache: CachePort;
  clock: ClockPort;
  /** Clock time at which the execution started. */
  startedAt: number;
  limits: FormulaLimits;
  /** The slowest recent round of this document's formulas (learned across executions), or null before any. */
  slowestRoundMs: number | null;
  connect: ((options: ClientOptions) => FormulaClient) | null;
  breaker: CircuitBreaker | null;
}
