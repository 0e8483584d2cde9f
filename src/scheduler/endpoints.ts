// The shared timer's handler: the document's one time-driven trigger runs research polling, the enrichment
// continuation, scheduled refreshes, then account watches' runs, each a slice of one time budget (timer.ts), and removes itself when none
// has work left. A timer
// Google runs without its spreadsheet (it may, for an add-on: not documented) can do nothing: it retires itself and
// notes why for the user's panels. Each run is budgeted to what is left of Sheet Scout's share of the user's daily
// trigger runtime (runtime-budget.ts) and records what it used.
import { appContext } from '../platform/app-context';
import { enrichmentTimerSlice } from '../enrichment/timer-slice';
import { refreshTimerSlice } from '../enrichment/schedule-service';
import { researchTimerSlice } from '../research/timer-slice';
import { watchTimerSlice } from '../research/watch-runs';
import { appsScriptTimer, retireDocumentlessTimer } from '../platform/timer-triggers';
import { hasActiveSpreadsheet } from '../platform/spreadsheet';
import { runTimer } from './timer';
import { readAccountKind } from '../platform/request-budget';
import { recordTimerRuntime, timerRuntimeBudget } from './runtime-budget';

export function sheetScoutTimer(event?: { triggerUid?: string }): void {
  const context = appContext();
  const document = context.stores.document;
  if (!document || !hasActiveSpreadsheet()) {
    retireDocumentlessTimer(context.stores.user, context.clock, event?.triggerUid);
    return;
  }
  const user = context.stores.user;
  const startedAt = context.clock.now();
  // Too little left today: no feature gets a slice, each keeps its pending work and the timer (runTimer).
  const { budgetMs } = timerRuntimeBudget(user, startedAt, readAccountKind(user));
  try {
    runTimer(
      appsScriptTimer(document, user, context.clock),
      [
        { feature: 'research', runSlice: researchTimerSlice },
        { feature: 'enrichment', runSlice: enrichmentTimerSlice },
        { feature: 'refresh', runSlice: refreshTimerSlice },
        { feature: 'watch', runSlice: watchTimerSlice },
      ],
      budgetMs,
    );
  } finally {
    recordTimerRuntime(user, startedAt, context.clock.now());
  }
}
