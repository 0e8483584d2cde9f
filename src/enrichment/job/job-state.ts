// The durable record of a document's bulk enrichment job, kept in DocumentProperties so any execution (the panel's
// next call, the continuation timer, another editor) can resume it. The record is small: where the job is in the
// sheet (a row cursor and a fingerprint of the domains above it) rather than the domains themselves, so it is one
// property value, written in one call per save; only a long list of domains waiting for a retry can outgrow a value,
// and then it goes through the shared chunked store (parts under a new generation, the head written last). A cancel
// from another panel never rewrites the record under a running execution: it leaves a stop mark that the record is
// read with, and that the execution holding the job honours at its next save.
import type { KeyValueStore } from '../../ports';
import type { EnrichedList } from '../sheet/layout';
import { CHUNK_BYTES, readChunked, removeChunked, utf8Bytes, writeChunked } from '../../shared/storage/chunked-store';

export type JobStatus = 'running' | 'paused' | 'done' | 'cancelled';

/**
 * A domain waiting for another lookup: enrichment still running at the service (202), a failed lookup, or a lookup a
 * pause stopped (missing or rejected token, settings, quota: not the domain's fault, looked up again on Resume).
 */
export interface RetryEntry {
  /** Domain. */
  d: string;
  /** Lookups made so far. */
  n: number;
  /** Epoch ms when the next lookup is due. */
  at: number;
  why: 'enriching' | 'error' | 'paused';
  /** What the last failed lookup met ("the service could not be reached (no answer)"), for failed lookups. */
  m?: string;
}

export interface JobCounts {
  /** Rows that received profile values. */
  written: number;
  notFound: number;
  /** Rows marked "still enriching" after the last retry. */
  gaveUp: number;
  /** Rows marked "lookup failed" after the last retry. */
  errors: number;
  /** Rows gone (deleted, or their domain changed) before their result was written. */
  deleted: number;
}

/** What the sheet held when the job started. */
export interface JobScope {
  rows: number;
  blank: number;
  invalid: number;
  alreadyFilled: number;
  uniqueDomains: number;
}

/** The job's continuation on the shared timer: whose timer continues it, and when its next run is due. */
export interface JobWake {
  /** The trigger id of the user whose job this is (their token runs it), or null when it was not known. */
  timer: string | null;
  at: number;
}

export interface EnrichJob extends EnrichedList {
  v: 2;
  id: string;
  status: JobStatus;
  /** Why the job is paused (a short actionable sentence), or a note on how it ended. */
  message: string | null;
  /** Where each field's column was when the job started (1-based), and whether the job added it. */
  columns: number[];
  added: boolean[];
  /** The headers of the columns the job added are written with its first save. */
  headersPending: boolean;
  overwrite: boolean;
  /**
   * Normalized headers of the field columns a finished job on this sheet (same domain column) had filled when this job
   * started: an empty cell there, in a row with other values, is a value the profile lacks.
   */
  settled: string[];
  /** Rows above this (grid index) are done, but for rows of domains waiting for a retry. */
  cursor: number;
  /** Fingerprint of the domain cells above the cursor: another value means rows moved (a sort, an insert). */
  prefix: string;
  /**
   * Rows moved while the job ran: rows below the cursor may hold its results, so each execution takes the rows from
   * the top (the field cells and the enrichment dates tell the done ones).
   */
  moved: boolean;
  /** Rows below the cursor may still need values (false: only retries remain). */
  moreRows: boolean;
  /** Rows that still needed a value at the last save (to count rows deleted before their result was written). */
  remaining: number;
  retries: RetryEntry[];
  /** Domains this job marked "still enriching" or "lookup failed" (not tried again in this job). */
  marked: string[];
  scope: JobScope;
  /** Domains that needed a lookup when the job started, and how many have a final outcome. */
  totalDomains: number;
  resolvedDomains: number;
  counts: JobCounts;
  /** HTTP lookups sent (first tries and job-level retries, not counting the client's own retries) and cache hits. */
  lookups: number;
  /** HTTP requests the client sent for them, its own retries included. */
  requests: number;
  cacheHits: number;
  /** Saves so far (each one commits the rows done since the last). */
  chunks: number;
  /** Sheet Scout's daily request budget is spent: no lookup before this time (epoch ms). */
  waitUntil: number | null;
  /** The shared timer holds a continuation for the job (made once, when an execution first ended with work left). */
  timerArmed: boolean;
  wake: JobWake | null;
  startedAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export const JOB_KEY = 'sheetscout.enrich.job';
/** A cancel from a panel while an execution holds the job: `{ id, at }` of the job to stop. */
export const STOP_KEY = 'sheetscout.enrich.stop';

/** A waiting domain's last error message is kept to this many characters (the record's size is budgeted). */
export const RETRY_MESSAGE_CHARS = 100;
/** Bytes of a retry entry besides its domain: the field names, counts, time, reason and the message. */
const RETRY_ENTRY_BYTES = 70 + RETRY_MESSAGE_CHARS;
/** Bytes of a marked domain besides its name. */
const MARKED_BYTES = 3;
/** Bytes the chunked store adds per 8 KB part (its key) and for its head. */
const CHUNK_OVERHEAD_BYTES = 80;

/**
 * The most the record of a job over these domains can take in DocumentProperties: its other fields, a full waiting
 * list and a full list of marked domains as long as these on average, and the chunked store's keys.
 */
export function jobRecordBound(
  job: EnrichJob,
  domains: readonly string[],
  limits: { maxWaitingDomains: number; maxMarkedDomains: number },
): number {
  const average =
    domains.length === 0 ? 0 : domains.reduce((sum, domain) => sum + utf8Bytes(domain), 0) / domains.length;
  const bare = utf8Bytes(JSON.stringify({ ...job, retries: [], marked: [] }));
  const waiting = Math.min(limits.maxWaitingDomains, domains.length) * (average + RETRY_ENTRY_BYTES);
  const marked = Math.min(limits.maxMarkedDomains, domains.length) * (average + MARKED_BYTES);
  const text = bare + waiting + marked;
  return Math.ceil(text + (text / CHUNK_BYTES + 1) * CHUNK_OVERHEAD_BYTES);
}

/** The stored text: the record itself when it fits one value, else the chunked store's parts. */
function storedText(store: KeyValueStore): string | null {
  const head = store.get(JOB_KEY);
  if (head === null) return null;
  return head.startsWith('{"v":') ? head : readChunked(store, JOB_KEY);
}

/** Bytes the stored record takes now (0 when there is none). */
export function storedJobBytes(store: KeyValueStore): number {
  const text = storedText(store);
  return text === null ? 0 : Math.ceil(utf8Bytes(text) + (utf8Bytes(text) / CHUNK_BYTES + 1) * CHUNK_OVERHEAD_BYTES);
}

/** A record of the first version (a plan of domains in sorted order behind a domain cursor) as this version's. */
function fromFirstVersion(old: Record<string, unknown>, store: KeyValueStore): EnrichJob {
  const headers = (old.headers as string[]) ?? [];
  return {
    ...(old as unknown as EnrichJob),
    v: 2,
    columns: headers.map(() => 0),
    added: headers.map(() => false),
    headersPending: false,
    settled: (old.settled as string[]) ?? [],
    // Its rows are found again from the sheet and the enrichment dates (the fallback of a moved cursor).
    cursor: 0,
    prefix: 'first-version',
    moved: true,
    moreRows: true,
    remaining: 0,
    retries: ((old.retries as RetryEntry[]) ?? []).map(({ d, n, at, why, m }) => ({
      d,
      n,
      at,
      why,
      ...(m ? { m } : {}),
    })),
    marked: [],
    waitUntil: (old.waitUntil as number | null) ?? null,
    timerArmed: store.get('sheetscout.enrichment.wake') !== null,
    wake: null,
  };
}

/** When the stop mark (`text`) asks to stop this job, else null. */
function stopAt(text: string | null, job: EnrichJob): number | null {
  if (!text) return null;
  try {
    const { id, at } = JSON.parse(text) as { id?: unknown; at?: unknown };
    return id === job.id && typeof at === 'number' ? at : null;
  } catch {
    return null;
  }
}

/** The job whose record the stop mark names is cancelled (what was written stays). */
function withStop(job: EnrichJob, store: KeyValueStore): EnrichJob {
  if (job.status !== 'running' && job.status !== 'paused') return job;
  const at = stopAt(store.get(STOP_KEY), job);
  return at === null ? job : cancelled(job, at);
}

/** The job as cancelled at `at`. */
export function cancelled(job: EnrichJob, at: number): EnrichJob {
  return {
    ...job,
    status: 'cancelled',
    message: 'Cancelled: values written so far are kept.',
    updatedAt: at,
    finishedAt: at,
  };
}

export function loadJob(store: KeyValueStore): EnrichJob | null {
  const text = storedText(store);
  if (text === null) return null;
  try {
    const job = JSON.parse(text) as Record<string, unknown>;
    if (job.v === 2) return withStop(job as unknown as EnrichJob, store);
    return job.v === 1 ? withStop(fromFirstVersion(job, store), store) : null;
  } catch {
    return null;
  }
}

/** When a panel asked to stop this job, if it did since the job was loaded (a fresh read of the stop mark). */
export function stopRequested(store: KeyValueStore, job: EnrichJob): number | null {
  return stopAt(store.fresh(STOP_KEY), job);
}

/** Asks the execution that holds the job to stop it; readers see it cancelled at once. */
export function requestStop(store: KeyValueStore, job: EnrichJob, at: number): void {
  store.set(STOP_KEY, JSON.stringify({ id: job.id, at }));
}

/**
 * Saves the job: one value when it fits (one property write, with `also` in the same write), else in chunked parts.
 * A record that ends a stopped job drops the stop mark.
 */
export function saveJob(store: KeyValueStore, job: EnrichJob, also: Record<string, string> = {}): void {
  const text = JSON.stringify(job);
  const previous = store.get(JOB_KEY);
  if (Object.keys(also).length > 0)
    store.setAll({ ...also, ...(utf8Bytes(text) <= CHUNK_BYTES ? { [JOB_KEY]: text } : {}) });
  if (utf8Bytes(text) <= CHUNK_BYTES) {
    if (Object.keys(also).length === 0) store.set(JOB_KEY, text);
    // The parts of a record that no longer needs them (after a long waiting list).
    if (previous !== null && !previous.startsWith('{"v":')) removeChunkedParts(store, previous);
  } else {
    // The head replaces a record kept whole (its parts are written first: a crash leaves that record readable).
    writeChunked(store, JOB_KEY, text);
  }
  if (job.status !== 'running' && job.status !== 'paused' && store.get(STOP_KEY) !== null) store.remove(STOP_KEY);
}

/** Removes the parts a chunked-store head names (the head itself was overwritten). */
function removeChunkedParts(store: KeyValueStore, head: string): void {
  const scratch = new Map<string, string>([[JOB_KEY, head]]);
  const view: KeyValueStore = {
    get: (key) => (scratch.has(key) ? (scratch.get(key) as string) : store.get(key)),
    fresh: (key) => store.fresh(key),
    set: () => undefined,
    setAll: () => undefined,
    remove: (key) => (key === JOB_KEY ? undefined : store.remove(key)),
  };
  removeChunked(view, JOB_KEY);
}

export function emptyCounts(): JobCounts {
  return { written: 0, notFound: 0, gaveUp: 0, errors: 0, deleted: 0 };
}
