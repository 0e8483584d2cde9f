// The bulk enrichment job's limits: how often it saves, how much it keeps waiting, its time budgets, the retry delays,
// when the continuation fires, and which per-domain errors no retry fixes.
import type { ApiError } from '../../api/errors';

export const LIMITS = {
  /**
   * A running job saves at least this often: the rows done since the last save are written and committed, the new
   * lookups go to the cache and the job's record is written once. An execution killed between two saves loses at
   * most this much of its lookups (none of their credits: lookups are free) and nothing it wrote.
   */
  saveIntervalMs: 10_000,
  /**
   * Domains waiting for a retry at most: new lookups wait for room (bounds the job record, kept in the document's
   * 500 KB of properties, however many lookups the service answers with "still enriching").
   */
  maxWaitingDomains: 500,
  /** Domains marked "still enriching" or "lookup failed" the record remembers (so a moved cursor does not retry them). */
  maxMarkedDomains: 200,
  /**
   * Time after which an execution starts no new batch. The panel's call runs this long (it shows progress from a
   * second, cheap call meanwhile): each execution costs a start, a read of the domain column and a commit, so fewer,
   * longer ones come nearer to what the job must cost; well inside the 6 minutes Google allows.
   */
  sidebarBudgetMs: 60_000,
  triggerBudgetMs: 240_000,
  /** Delays before the lookups that follow a 202 (enrichment started), then the row is marked. */
  enrichingDelaysMs: [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000, 120_000],
  /** Retries falling due within this window of the first one are sent together (fewer, fuller fetchAll calls). */
  retryGroupMs: 1_500,
  /** Delays before the lookups that follow a failed lookup (after the client's own retries). */
  errorDelaysMs: [5_000, 30_000, 120_000],
  /** The timer continues the job this long after an execution ended with work left, if no panel calls first. */
  triggerBackstopMs: 120_000,
  /** Longest sleep inside a timer's execution for a retry that is due soon (longer waits end the execution). */
  maxWaitMs: 20_000,
  /**
   * The same for the panel's: a wait shorter than another execution's start and reads (~1.5 s); longer ones end the
   * call, and the panel shows the waiting domains until it calls again (nothing holds the job meanwhile).
   */
  sidebarMaxWaitMs: 1_500,
  /** Shortest delay of a timer run that continues the job. */
  triggerMinDelayMs: 60_000,
};

/** Per-domain errors no later retry fixes: the row is marked at once. */
export const PERMANENT_ERRORS: ReadonlySet<ApiError['kind']> = new Set(['invalid_input', 'validation', 'rejected']);
