// Reuse on request (issue 46): a question this spreadsheet already bought (questions.ts: the same rendered brief, depth
// and output schema) whose task finished within the period the user chose, its record and its report still kept in
// the hidden sheets, is offered before anything is paid; the user answers use those results (0 credits) or research
// again. Only sealed rows are read (sealed-table.ts: a ledger or report row changed outside Sheet Scout reads as
// nothing), so no edit of the hidden sheets makes a forged report, or another question's, pass as bought; a task
// written with "Write to selected row" (imported) was not bought here and is never offered. The rows that take an
// earlier result get a record of their own: done, its task the earlier one, charged nothing, marked reused with when
// it was researched, and written into them as a finished task's is (write-back.ts). Pure over the report store.
import type { JsonSchemaObject, TaskDepth, TaskReport } from '../../api/types';
import type { LedgerEntry } from '../records/ledger';
import type { ReuseOffer } from '../contract';
import { questionKey } from './questions';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The start of the period of `days` days that ends `now`. */
export const periodStart = (now: number, days: number): number => now - days * DAY_MS;

/** When a result was researched: its task's finish (a reused record keeps the first record's). */
export function researchedAt(entry: LedgerEntry): number {
  return entry.reused ? entry.reused.researchedAt : entry.finishedAt || entry.updatedAt;
}

/** An earlier result of a question: the record that holds it and its report, as the sealed store gave it back. */
export interface EarlierResult {
  entry: LedgerEntry;
  report: TaskReport;
}

/** The reports the store holds readable and sealed, by task id (ReportStore.getAll). */
export interface SealedReports {
  getAll(taskIds: readonly string[]): Map<string, TaskReport>;
}

/** The keys of the questions rows ask (brief -> rows) at `depth` with `schema`, by brief. */
export function questionKeys(
  questions: ReadonlyMap<string, readonly number[]>,
  depth: TaskDepth,
  schema: JsonSchemaObject | null,
): Map<string, string> {
  return new Map([...questions.keys()].map((brief) => [brief, questionKey(brief, depth, schema)]));
}

/** Whether a record holds a result bought in this spreadsheet: a finished task, not one imported from elsewhere. */
const bought = (entry: LedgerEntry) => entry.state === 'done' && entry.taskId !== null && !entry.imported;

/**
 * The earlier result of each question of `keys` researched at `since` or later: of the records bought here, the most
 * recently researched one whose report the store holds readable and sealed (one read of their reports).
 */
export function earlierResults(
  records: readonly LedgerEntry[],
  keys: ReadonlySet<string>,
  since: number,
  reports: SealedReports,
): Map<string, EarlierResult> {
  const newestFirst = records
    .filter((entry) => bought(entry) && researchedAt(entry) >= since)
    .map((entry) => ({ entry, key: questionKey(entry.brief, entry.depth, entry.schema) }))
    .filter(({ key }) => keys.has(key))
    .sort((a, b) => researchedAt(b.entry) - researchedAt(a.entry));
  const readable = reports.getAll(newestFirst.map(({ entry }) => entry.taskId as string));
  const found = new Map<string, EarlierResult>();
  for (const { entry, key } of newestFirst) {
    const report = readable.get(entry.taskId as string);
    if (report && !found.has(key)) found.set(key, { entry, report });
  }
  return found;
}

/** What the offer says of rows asking `questions` (brief -> rows; `keys` their keys by brief) over `days` days. */
export function reuseOffer(
  questions: ReadonlyMap<string, readonly number[]>,
  keys: ReadonlyMap<string, string>,
  earlier: ReadonlyMap<string, EarlierResult>,
  days: number,
): ReuseOffer {
  const offer: ReuseOffer = { days, rows: 0, questions: 0, oldest: null };
  for (const [brief, rows] of questions) {
    const result = earlier.get(keys.get(brief) as string);
    if (!result) continue;
    offer.rows += rows.length;
    offer.questions += 1;
    offer.oldest = Math.min(offer.oldest || Infinity, researchedAt(result.entry));
  }
  return offer;
}

/**
 * The record of rows given an earlier result: the launch's queued record of their question, done with the earlier
 * task's result (its counters, degradation notes and report), charged nothing, to be written like a finished task's.
 */
export function reusedEntry(queued: LedgerEntry, earlier: EarlierResult, now: number): LedgerEntry {
  const first = earlier.entry;
  return {
    ...queued,
    taskId: first.taskId,
    state: 'done',
    iterations: first.iterations,
    agents: 0,
    sources: first.sources,
    cost: 0,
    degradation: first.degradation,
    updatedAt: now,
    finishedAt: now,
    reused: { from: first.reused ? first.reused.from : first.id, researchedAt: researchedAt(first) },
  };
}
