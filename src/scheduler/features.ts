// The features that share the document's timer (timer.ts): research polling, the enrichment continuation, scheduled
// refreshes and account watch runs.
export type TimerFeature = 'research' | 'enrichment' | 'refresh' | 'watch';
export const TIMER_FEATURES: readonly TimerFeature[] = ['research', 'enrichment', 'refresh', 'watch'];
