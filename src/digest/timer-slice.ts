// The shared timer's slice that posts the digest (src/timer/endpoints.ts runs it last: it reports what the other
// slices finished).
import { digestContext } from './context';
import { digestSlice } from './service';

export function digestTimerSlice(budgetMs: number): { pending: boolean; wakeAt?: number } {
  return digestSlice(digestContext(), budgetMs);
}
