// The shared timer's handler: the document's one time-driven trigger runs the due scheduled refreshes and account
// watch runs, the check for new rows to enrich, research polling, the enrichment continuation and the digest's post,
// each a slice of one time budget (timer.ts), and removes itself when none has work left. A tick with nothing due (a schedule waiting for its day) reads the
// document's properties, notes that it ran and returns. A timer Google runs without its spreadsheet (it may, for an
// add-on: not documented) can do nothing: it retires itself and notes why for the user's panels. Each run is
// budgeted to what is left of Sheet Scout's share of the user's daily trigger runtime (runtime-budget.ts) and books
// what it used, its start included.
import { appContext } from '../platform/app-context';
import { enrichmentTimerSlice } from '../enrichment/timer-slice';
import { refreshTimerSlice } from '../enrichment/refresh/schedule-service';
import { researchTimerSlice } from '../research/timer-slice';
import { watchTimerSlice } from '../research/watch/watch-runs';
import { newRowsTimerSlice } from '../new-rows/timer-slice';
import { digestTimerSlice } from '../digest/timer-slice';
import { appsScriptTimer, retireDocumentlessTimer } from '../platform/timer-triggers';
import { flushWrites, hasActiveSpreadsheet } from '../platform/spreadsheet';
import { idleTick, runTimer } from './timer';
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
  const timer = appsScriptTimer(document, user, context.clock);
  try {
    if (idleTick(timer, event?.triggerUid)) return;
    // Too little left today: no feature gets a slice, each keeps its pending work and the timer (runTimer).
    const { budgetMs } = timerRuntimeBudget(user, startedAt, readAccountKind(user));
    runTimer(
      timer,
      [
        { feature: 'refresh', runSlice: refreshTimerSlice },
        { feature: 'watch', runSlice: watchTimerSlice },
        // Before research polling: research it launches for new rows is created and collected in the same run.
        { feature: 'newRows', runSlice: newRowsTimerSlice },
        { feature: 'research', runSlice: researchTimerSlice },
        { feature: 'enrichment', runSlice: enrichmentTimerSlice },
        // Last: a digest reports the runs the slices before it finished.
        { feature: 'digest', runSlice: digestTimerSlice },
      ],
      budgetMs,
    );
    // The run's sheet writes are committed within its measured time.
    flushWrites();
  } finally {
    recordTimerRuntime(user, timer.userLock, startedAt, context.clock.now());
  }
}
