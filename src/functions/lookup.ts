// =COMPANY_LOOKUP(domain, [fields], [with_header]): one row of profile fields per input cell. One execution handles
// a whole range: inputs are normalized and de-duplicated, cached profiles (shared with bulk enrichment through
// profile-cache, read with one getAll) are served without HTTP, the rest are fetched in parallel batches while the
// time budget lasts, and whatever could not be fetched in time answers "Pending" instead of the execution timing out.
// One formula resolves at most MAX_FORMULA_LOOKUPS unique companies (what "Refresh pending lookups" completes and the
// packed cache holds with room to spare); inputs beyond that point to the bulk enrichment instead.
import type { ApiError, Result } from '../api/errors';
import type { LookupOutcome } from '../api/types';
import { readCachedLookups, writeCachedLookups, type CachedLookup } from '../companies/profile-cache';
import { parseFieldList, profileValues, type ProfileField, type ProfileValues } from '../companies/profile-fields';
import { cellsOf, isBlank, readBoolean, readCompanyInput, type CompanyInput } from './arguments';
import { tripsBreaker } from './breaker';
import { CELL_TEXT, blankRow, errorCellText, messageRow, toFormulaCell, type FormulaResult } from './cell-text';
import type { FormulaEnv } from './ports';

/** What a lookup key resolved to in this execution. */
export type LookupAnswer = { kind: 'profile'; values: ProfileValues } | { kind: 'text'; text: string };

/** Unique companies one COMPANY_LOOKUP resolves; the inputs after them answer CELL_TEXT.useEnrich. */
export const MAX_FORMULA_LOOKUPS = 5_000;

export interface LookupRun {
  answers: Map<string, LookupAnswer>;
  /** Keys that were asked of the service in this execution. */
  fetched: number;
  /** Keys left unanswered because the time budget ran out. */
  pending: number;
}

/** Errors that say every further request will fail too (or make things worse): stop sending at once. */
const DEFINITIVE_KINDS: ApiError['kind'][] = [
  'unauthorized',
  'rate_limited',
  'quota',
  'no_token',
  'bad_base_url',
  'platform_error',
];

/**
 * Whether the batch's errors should end the run: a definitive error, or a batch in which nothing got through
 * (the service is down). A partial outage (some 5xx among answers) keeps going with the next batches.
 */
function stopsTheRun(error: ApiError, batchAnswered: boolean): boolean {
  return DEFINITIVE_KINDS.includes(error.kind) || (!batchAnswered && tripsBreaker(error));
}

/**
 * Records one batch's answers: profiles and not-found (also to cache), enriching and error texts. Answers whether the
 * service answered anything, and the batch's error that may end the run (a definitive one or one that trips the
 * breaker).
 */
function recordBatch(
  batch: string[],
  results: Result<LookupOutcome>[],
  answers: Map<string, LookupAnswer>,
): { toCache: Map<string, CachedLookup>; batchError: ApiError | null; batchAnswered: boolean } {
  const toCache = new Map<string, CachedLookup>();
  let batchError: ApiError | null = null;
  let batchAnswered = false;
  batch.forEach((key, index) => {
    const result = results[index];
    if (result.ok) {
      batchAnswered = true;
      if (result.value.state === 'ready') {
        const values = profileValues(result.value.profile);
        answers.set(key, { kind: 'profile', values });
        toCache.set(key, { state: 'found', values });
      } else {
        answers.set(key, { kind: 'text', text: CELL_TEXT.enriching });
      }
      return;
    }
    const error = result.error;
    answers.set(key, { kind: 'text', text: errorCellText(error) });
    if (error.kind === 'not_found') {
      batchAnswered = true;
      toCache.set(key, { state: 'not_found' });
    } else if (tripsBreaker(error) || DEFINITIVE_KINDS.includes(error.kind)) {
      batchError = error;
    } else {
      batchAnswered = true;
    }
  });
  return { toCache, batchError, batchAnswered };
}

/**
 * Resolves lookup keys (registered domains or company UUIDs): cache first, then the service in batches of one
 * fetchAll round each (the document's adaptive throughput, or `limits.batchSize`), each batch's results cached as
 * soon as it lands.
 */
export function resolveLookups(keys: string[], env: FormulaEnv): LookupRun {
  const answers = new Map<string, LookupAnswer>();
  const unique = [...new Set(keys)];
  const cached = readCachedLookups(env.cache, unique, env.clock.now());
  for (const [key, entry] of cached) {
    answers.set(
      key,
      entry.state === 'found' ? { kind: 'profile', values: entry.values } : { kind: 'text', text: CELL_TEXT.notFound },
    );
  }
  const missing = unique.filter((key) => !answers.has(key));
  const run: LookupRun = { answers, fetched: 0, pending: 0 };
  if (missing.length === 0) return run;

  const answerRest = (from: number, text: string) => {
    for (const key of missing.slice(from)) answers.set(key, { kind: 'text', text });
  };
  if (!env.connect) {
    answerRest(0, CELL_TEXT.setup);
    return run;
  }
  const openMessage = env.breaker?.openMessage(env.clock.now());
  if (openMessage) {
    answerRest(0, openMessage);
    return run;
  }

  const { batchSize, stopFetchingAfterMs, endRoundsByMs, deadlineMs } = env.limits;
  let slowestBatchMs = 0;
  let tripError: ApiError | null = null;
  let answered = false;
  let next = 0;
  while (next < missing.length) {
    const elapsed = env.clock.now() - env.startedAt;
    const expectedMs = Math.max(slowestBatchMs, env.slowestRoundMs ?? 0);
    if (elapsed + slowestBatchMs > stopFetchingAfterMs || elapsed + expectedMs > endRoundsByMs) break;
    const batchStart = env.clock.now();
    const client = env.connect({
      budgetMs: Math.max(0, deadlineMs - elapsed - slowestBatchMs),
      maxParallel: batchSize,
    });
    const batch = missing.slice(next, next + client.batchSize());
    const results = client.lookupCompanies(batch);
    slowestBatchMs = Math.max(slowestBatchMs, env.clock.now() - batchStart);
    next += batch.length;
    run.fetched += batch.length;

    const { toCache, batchError, batchAnswered } = recordBatch(batch, results, answers);
    if (toCache.size > 0) writeCachedLookups(env.cache, toCache, env.clock.now());
    answered ||= batchAnswered;
    if (batchError && stopsTheRun(batchError, batchAnswered)) {
      const error: ApiError = batchError;
      if (tripsBreaker(error)) tripError = error;
      answerRest(next, errorCellText(error));
      next = missing.length;
    }
  }
  run.pending = missing.length - next;
  answerRest(next, CELL_TEXT.pending);

  if (env.breaker) {
    if (tripError) env.breaker.recordFailure(tripError, env.clock.now());
    else if (answered) env.breaker.recordSuccess();
  }
  return run;
}

/** The fields argument: a comma list (or cells holding names); blank gives the default fields. */
function readFields(arg: unknown): { ok: true; fields: ProfileField[] } | { ok: false; message: string } {
  const names = cellsOf(arg)
    .filter((cell) => !isBlank(cell))
    .map((cell) => String(cell))
    .join(',');
  return parseFieldList(names);
}

/** Input cells up to the last non-blank one (a whole-column range like A2:A gives no trailing blank rows). */
export function lookupInputs(domainArg: unknown): CompanyInput[] {
  const inputs = cellsOf(domainArg).map(readCompanyInput);
  let end = inputs.length;
  while (end > 0 && inputs[end - 1].kind === 'blank') end--;
  return inputs.slice(0, end);
}

/** The lookup keys a formula resolves: its unique companies in input order, at most MAX_FORMULA_LOOKUPS. */
export function formulaLookupKeys(inputs: CompanyInput[]): string[] {
  const keys = new Set<string>();
  for (const input of inputs) {
    if (keys.size >= MAX_FORMULA_LOOKUPS) break;
    if (input.kind === 'company') keys.add(input.key);
  }
  return [...keys];
}

export function companyLookup(
  domainArg: unknown,
  fieldsArg: unknown,
  headerArg: unknown,
  env: FormulaEnv,
): FormulaResult {
  // No argument at all (=COMPANY_LOOKUP()), unlike a blank cell (""), which answers a blank row.
  if (domainArg === undefined) return [[CELL_TEXT.lookupUsage]];
  const fields = readFields(fieldsArg);
  if (!fields.ok) return [[fields.message]];
  const withHeader = readBoolean(headerArg, 'with_header', false);
  if (!withHeader.ok) return [[withHeader.message]];
  const width = fields.fields.length;
  const inputs = lookupInputs(domainArg);
  const { answers } = resolveLookups(formulaLookupKeys(inputs), env);

  const rows: FormulaResult = withHeader.value ? [fields.fields.map((field) => field.header)] : [];
  for (const input of inputs) {
    if (input.kind === 'blank') {
      rows.push(blankRow(width));
    } else if (input.kind === 'invalid') {
      rows.push(messageRow(input.message, width));
    } else {
      const answer = answers.get(input.key);
      if (answer?.kind === 'profile') rows.push(fields.fields.map((field) => toFormulaCell(answer.values[field.key])));
      else rows.push(messageRow(answer?.text ?? CELL_TEXT.useEnrich, width));
    }
  }
  return rows.length > 0 ? rows : [['']];
}
