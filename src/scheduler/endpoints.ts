// The shared timer's handler: the document's one time-driven trigger runs research polling, then the enrichment
// continuation, each a slice of one time budget (timer.ts), and removes itself when neither has work left. A timer
// Google runs without its spreadsheet (it may, for an add-on: not documented) can do nothing: it retires itself and
// notes why for the user's panels.
import { appContext } from '../platform/app-context';
import { enrichmentTimerSlice } from '../enrichment/timer-slice';
import { researchTimerSlice } from '../research/timer-slice';
import { appsScriptTimer, retireDocumentlessTimer } from '../platform/timer-triggers';
import { hasActiveSpreadsheet } from '../platform/spreadsheet';
import { runTimer } from './timer';

export function sheetScoutTimer(event?: { triggerUid?: string }): void {
  const context = appContext();
  const document = context.stores.document;
  if (!document || !hasActiveSpreadsheet()) {
    retireDocumentlessTimer(context.stores.user, context.clock, event?.triggerUid);
    return;
  }
  runTimer(appsScriptTimer(document, context.stores.user, context.clock), [
    { feature: 'research', runSlice: researchTimerSlice },
    { feature: 'enrichment', runSlice: enrichmentTimerSlice },
  ]);
}
