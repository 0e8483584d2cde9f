// The bulk enrichment job's limits: how much a chunk plans and keeps waiting, its time budgets, the retry delays,
// when the continuation fires, and which per-domain errors no retry fixes.
import type { ApiError } from '../../api/errors';

export const LIMITS = {
  /** Domains planned per chunk (bounds what a crash can cost and the job record's size). */
  planSize: 750,
  /**
   * A rest at most this much larger than planSize is planned whole, as the last plan: a last plan of a few dozen
   * domains would cost an execution of its own (start, lock, commit) for one round of lookups.
   */
  lastPlanSlack: 100,
  /**
   * Domains waiting for a retry at most: the plan waits for room (bounds the job record, kept in the document's
   * 500 KB of properties, to JOB_RECORD_MAX_BYTES however many lookups the service answers with "still enriching").
   */
  maxWaitingDomains: 500,
  /** Time after which a chunk starts no new batch: short for the sidebar (live progress), long for the trigger. */
  sidebarBudgetMs: 25_000,
  triggerBudgetMs: 240_000,
  /** Delays before the lookups that follow a 202 (enrichment started), then the row is marked. */
  enrichingDelaysMs: [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000, 120_000],
  /** Retries falling due within this window of the first one are sent together (fewer, fuller fetchAll calls). */
  retryGroupMs: 1_500,
  /** Delays before the lookups that follow a failed lookup (after the client's own retries). */
  errorDelaysMs: [5_000, 30_000, 120_000],
  /** The trigger fires this long after the last chunk if the sidebar stops driving the job. */
  triggerBackstopMs: 120_000,
  /** Longest sleep inside an execution for a retry that is due soon (longer waits end the execution). */
  maxWaitMs: 20_000,
  /** The same for a sidebar chunk: a wait shorter than another execution's start, lock and commit (~1.5 s). */
  sidebarMaxWaitMs: 1_500,
  /** Shortest delay of a trigger that continues the job. */
  triggerMinDelayMs: 60_000,
};

/** Per-domain errors no later retry fixes: the row is marked at once. */
export const PERMANENT_ERRORS: ReadonlySet<ApiError['kind']> = new Set(['invalid_input', 'validation', 'rejected']);
