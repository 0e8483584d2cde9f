// The features that share the document's timer (timer.ts): research polling, the enrichment continuation, scheduled
// refreshes, account watch runs, the hourly check for new rows to enrich and the digest's posts.
export type TimerFeature = 'research' | 'enrichment' | 'refresh' | 'watch' | 'newRows' | 'digest';
export const TIMER_FEATURES: readonly TimerFeature[] = [
  'research',
  'enrichment',
  'refresh',
  'watch',
  'newRows',
  'digest',
];
