// Keeps the learned throughput (src/api/throughput.ts) of a document between executions, in its cache: the next
// execution, or a formula recalculated a minute later, starts near the batch size and request rate the service
// allowed, instead of learning them again from the first 429. Kept for 6 hours, the cache's longest life.
import { AdaptiveThroughput, THROUGHPUT_LIMITS, type ThroughputLimits, type ThroughputState } from '../api/throughput';
import type { CachePort } from '../ports';

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

/** The document's throughput, saved back to the cache whenever it learns something. */
export function documentThroughput(cache: CachePort, scope: ThroughputScope): AdaptiveThroughput {
  return new AdaptiveThroughput(readState(cache, scope), LIMITS_BY_SCOPE[scope], (state) => {
    cache.putAll({ [keyOf(scope)]: JSON.stringify(state) }, TTL_SECONDS);
  });
}
