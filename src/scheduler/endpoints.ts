// The shared timer's handler: the document's one time-driven trigger runs research polling, then the enrichment
// continuation, each a slice of one time budget (timer.ts), and removes itself when neither has work left.
import { appContext } from '../platform/app-context';
import { enrichmentTimerSlice } from '../enrichment/timer-slice';
import { researchTimerSlice } from '../research/timer-slice';
import { appsScriptTimer } from '../platform/timer-triggers';
import { runTimer } from './timer';

export function sheetScoutTimer(): void {
  const context = appContext();
  const document = context.stores.document;
  if (!document) return;
  runTimer(appsScriptTimer(document, context.clock), [
    { feature: 'research', runSlice: researchTimerSlice },
    { feature: 'enrichment', runSlice: enrichmentTimerSlice },
  ]);
}
