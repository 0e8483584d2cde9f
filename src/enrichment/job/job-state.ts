// The durable record of a document's bulk enrichment job, kept in DocumentProperties so any execution (the sidebar's
// next call, the continuation trigger, another editor) can resume it. Property values hold 9 KB at most, so the JSON
// goes through the shared chunked store (UTF-8-measured parts under a random generation, the head written last: a
// crash mid-save leaves the previous record intact, and two executions saving at once never mix their parts).
// Beside it, per sheet, the field columns that finished jobs filled (so a later run can tell a value the profile lacks
// from a row not enriched yet: see rows.ts), and the fields last chosen in the panel for that sheet.
import type { KeyValueStore } from '../../ports';
import { CHUNK_BYTES, chunkedGeneration, readChunked, utf8Bytes, writeChunked } from '../../shared/chunked-store';

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
  /** Rows that needed it when it was planned (to count rows deleted meanwhile). */
  r: number;
  /** Last error message, for failed lookups. */
  m?: string;
}

/** A domain of the next chunk and how many rows needed it when planned. */
export interface PlanEntry {
  d: string;
  r: number;
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

export interface EnrichJob {
  v: 1;
  id: string;
  status: JobStatus;
  /** Why the job is paused (a short actionable sentence), or a note on how it ended. */
  message: string | null;
  sheetId: number;
  sheetName: string;
  domainColumn: number;
  domainHeader: string;
  fields: string[];
  headers: string[];
  overwrite: boolean;
  /**
   * Normalized headers of the field columns a finished job on this sheet (same domain column) had filled when this job
   * started: an empty cell there, in a row with other values, is a value the profile lacks. Absent in older records.
   */
  settled?: string[];
  /** Domains are processed in sorted order; everything up to the cursor has been looked up. */
  cursor: string;
  plan: PlanEntry[];
  /** The current plan is the last: after it only retries remain. */
  mainDone: boolean;
  retries: RetryEntry[];
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
  chunks: number;
  /**
   * Sheet Scout's daily request budget is spent: no lookup before this time (epoch ms), when requests leave the
   * budget's window; the timer continues the job then. Absent in older records.
   */
  waitUntil?: number | null;
  startedAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export const JOB_KEY = 'sheetscout.enrich.job';

/** A waiting domain's last error message is kept to this many characters (the record's size is budgeted). */
export const RETRY_MESSAGE_CHARS = 100;
/** Bytes of a retry entry besides its domain: the field names, counts, time, reason and the message. */
const RETRY_ENTRY_BYTES = 80 + RETRY_MESSAGE_CHARS;
/** Bytes of a plan entry besides its domain. */
const PLAN_ENTRY_BYTES = 16;
/** Bytes the chunked store adds per 8 KB part (its key) and for its head. */
const CHUNK_OVERHEAD_BYTES = 80;

/**
 * The most the record of a job over these domains can take in DocumentProperties: its other fields, a full plan and
 * a full waiting list of domains as long as these on average, and the chunked store's keys.
 */
export function jobRecordBound(
  job: EnrichJob,
  domains: readonly string[],
  limits: { planSize: number; lastPlanSlack: number; maxWaitingDomains: number },
): number {
  const average =
    domains.length === 0 ? 0 : domains.reduce((sum, domain) => sum + utf8Bytes(domain), 0) / domains.length;
  const bare = utf8Bytes(JSON.stringify({ ...job, plan: [], retries: [] }));
  const plan = Math.min(limits.planSize + limits.lastPlanSlack, domains.length) * (average + PLAN_ENTRY_BYTES);
  const waiting = Math.min(limits.maxWaitingDomains, domains.length) * (average + RETRY_ENTRY_BYTES);
  const text = bare + plan + waiting;
  return Math.ceil(text + (text / CHUNK_BYTES + 1) * CHUNK_OVERHEAD_BYTES);
}

/** The plan of the next chunk from the domains still pending (sorted), and whether it is the last. */
export function nextPlan(
  pending: string[],
  rowsOf: Map<string, number>,
  limits: { planSize: number; lastPlanSlack: number },
): Pick<EnrichJob, 'plan' | 'mainDone'> {
  const mainDone = pending.length <= limits.planSize + limits.lastPlanSlack;
  const planned = mainDone ? pending : pending.slice(0, limits.planSize);
  return { plan: planned.map((d) => ({ d, r: rowsOf.get(d) ?? 0 })), mainDone };
}

/** Bytes the stored record takes now (0 when there is none). */
export function storedJobBytes(store: KeyValueStore): number {
  const text = readChunked(store, JOB_KEY);
  return text === null ? 0 : Math.ceil(utf8Bytes(text) + (utf8Bytes(text) / CHUNK_BYTES + 1) * CHUNK_OVERHEAD_BYTES);
}
export function loadJob(store: KeyValueStore): EnrichJob | null {
  const text = readChunked(store, JOB_KEY);
  if (text === null) return null;
  try {
    const job = JSON.parse(text) as EnrichJob;
    return job.v === 1 ? job : null;
  } catch {
    return null;
  }
}

/** Which write of the job is stored (one property read): unchanged means no other execution saved it since. */
export function jobGeneration(store: KeyValueStore): string | null {
  return chunkedGeneration(store, JOB_KEY);
}

/** Saves the job in UTF-8-measured pieces under 9 KB each, the head last (src/shared/chunked-store.ts). */
export function saveJob(store: KeyValueStore, job: EnrichJob): void {
  writeChunked(store, JOB_KEY, JSON.stringify(job));
}

/** DocumentProperties key prefix: per sheet, normalized domain header -> normalized headers of filled field columns. */
export const FILLED_COLUMNS_PREFIX = 'sheetscout.enrich.filled.';
/** Room for one property value (9 KB): past it only the latest domain column's entry is kept. */
const FILLED_COLUMNS_MAX_CHARS = 8000;

type FilledColumns = Record<string, string[]>;

function readFilledColumns(store: KeyValueStore, sheetId: number): FilledColumns {
  const text = store.get(FILLED_COLUMNS_PREFIX + sheetId);
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const filled: FilledColumns = {};
    for (const [domainHeader, headers] of Object.entries(parsed)) {
      if (Array.isArray(headers))
        filled[domainHeader] = headers.filter((header): header is string => typeof header === 'string');
    }
    return filled;
  } catch {
    return {};
  }
}

/** Normalized headers of the field columns finished jobs filled on this sheet next to this domain column. */
export function filledColumns(store: KeyValueStore, sheetId: number, domainHeader: string): Set<string> {
  return new Set(readFilledColumns(store, sheetId)[domainHeader] ?? []);
}

/** Records the field columns a job filled to the end (normalized headers), adding to what earlier jobs filled. */
export function recordFilledColumns(
  store: KeyValueStore,
  sheetId: number,
  domainHeader: string,
  headers: string[],
): void {
  const filled = readFilledColumns(store, sheetId);
  const merged = { ...filled, [domainHeader]: [...new Set([...(filled[domainHeader] ?? []), ...headers])] };
  const text = JSON.stringify(merged);
  store.set(
    FILLED_COLUMNS_PREFIX + sheetId,
    text.length <= FILLED_COLUMNS_MAX_CHARS ? text : JSON.stringify({ [domainHeader]: merged[domainHeader] }),
  );
}

/** DocumentProperties key prefix: per sheet, the profile field keys last chosen in the Enrich panel (JSON list). */
export const CHOSEN_FIELDS_PREFIX = 'sheetscout.enrich.fields.';

/** The field keys last chosen for this sheet, or null when none were. */
export function chosenFields(store: KeyValueStore, sheetId: number): string[] | null {
  const text = store.get(CHOSEN_FIELDS_PREFIX + sheetId);
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((key) => typeof key === 'string')
      ? (parsed as string[])
      : null;
  } catch {
    return null;
  }
}

export function rememberChosenFields(store: KeyValueStore, sheetId: number, keys: string[]): void {
  const text = JSON.stringify(keys);
  if (store.get(CHOSEN_FIELDS_PREFIX + sheetId) !== text) store.set(CHOSEN_FIELDS_PREFIX + sheetId, text);
}

export function emptyCounts(): JobCounts {
  return { written: 0, notFound: 0, gaveUp: 0, errors: 0, deleted: 0 };
}
