// The features that share the document's timer (timer.ts): research polling, the enrichment continuation, scheduled
// refreshes, account watch runs and the hourly check for new rows to enrich.
export type TimerFeature = 'research' | 'enrichment' | 'refresh' | 'watch' | 'newRows';
export const TIMER_FEATURES: readonly TimerFeature[] = ['research', 'enrichment', 'refresh', 'watch', 'newRows'];
