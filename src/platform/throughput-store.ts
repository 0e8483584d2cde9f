// Keeps the learned throughput (src/api/throughput.ts) of a document between executions, in its cache: the next
// execution, or a formula recalculated a minute later, starts near the batch size and request rate the service
// allowed, instead of learning them again from the first 429. Kept for 6 hours, the cache's longest life.
import { AdaptiveThroughput, THROUGHPUT_LIMITS, type ThroughputLimits, type ThroughputState } from '../api/throughput';
import type { CachePort, ClockPort } from '../ports';

const TTL_SECONDS = 21_600;

/** The throughput learned for this document by the sidebar and jobs (`panel`) or its formulas (another token). */
export type ThroughputScope = 'panel' | 'formulas';

/** A formula calculation has one round within its 30 s, so formulas start at 50 requests; jobs learn from 25. */
const LIMITS_BY_SCOPE: Record<ThroughputScope, ThroughputLimits> = {
  panel: THROUGHPUT_LIMITS,
  formulas: { ...THROUGHPUT_LIMITS, initialBatch: 50 },
};

function keyOf(scope: ThroughputScope): string {
  return `sheet-scout:throughput:${scope}`;
}

function readState(cache: CachePort, scope: ThroughputScope): ThroughputState | null {
  const text = cache.getAll([keyOf(scope)])[keyOf(scope)];
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as ThroughputState) : null;
  } catch {
    return null;
  }
}

/**
 * What a later execution must not miss: a lower ceiling, a refusal (the rate found, or lowered), a slower round. Saved
 * at once; the rest (the batch growing, timings, streaks, the paced rate's slow climb) at most every 10 s.
 */
const shape = (state: ThroughputState) =>
  JSON.stringify([state.ceiling, state.ratePerSecond === null, state.refusedRate]);
const SAVE_EVERY_MS = 10_000;

/**
 * The document's throughput, saved back to the cache when it learns something: see `shape` for what is saved at once,
 * and every round once the rounds are paced; other changes (an unpaced round's timings) at most every 10 s, since each
 * cache write costs about a tenth of a second (CacheService put, measured ~93 ms).
 */
/** `width`: how many requests of a fetchAll Google runs at once, where Check this installation measured it. */
export function documentThroughput(
  cache: CachePort,
  scope: ThroughputScope,
  clock: ClockPort,
  width: number | null = null,
): AdaptiveThroughput {
  const saved = readState(cache, scope);
  let savedShape = saved ? shape(saved) : '';
  let savedSlowest = saved?.slowestRoundMs ?? 0;
  let savedAt = -Infinity;
  return new AdaptiveThroughput(
    saved,
    LIMITS_BY_SCOPE[scope],
    (state) => {
      const now = clock.now();
      const slower = (state.slowestRoundMs ?? 0) > savedSlowest;
      // Once paced, each round's timing is what keeps the next execution from bursting into an empty bucket.
      const paced = state.ratePerSecond !== null;
      if (!paced && !slower && shape(state) === savedShape && now - savedAt < SAVE_EVERY_MS) return;
      cache.putAll({ [keyOf(scope)]: JSON.stringify(state) }, TTL_SECONDS);
      savedShape = shape(state);
      savedSlowest = state.slowestRoundMs ?? 0;
      savedAt = now;
    },
    width,
  );
}
