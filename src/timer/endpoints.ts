// The shared timer's handler, and the one place that composes the features' background work: it stands above every
// feature and hands the scheduler (src/scheduler/) their slices, so the scheduler knows no feature. The document's one
// time-driven trigger runs the due scheduled refreshes and account watch runs, the check for new rows to enrich,
// research polling, the enrichment continuation and the digest's post, each a slice of one time budget
// (scheduler/timer-run.ts: research's collection first, each slice isolated from the others' failures), and removes
// itself when none has work left. A tick with nothing due (a schedule waiting for its day) reads the document's
// properties, notes that it ran and returns. A timer Google runs without its spreadsheet (it may, for an add-on: not
// documented) can do nothing: it retires itself and notes why for the user's panels. Each run is budgeted to what is
// left of Sheet Scout's share of the user's daily trigger runtime (scheduler/runtime-budget.ts) and books what it
// used, its start included. First of all a run asks whether the user has authorized what this version needs (Google
// keeps running the timers of an add-on whose update needs more, and refuses their calls): if not, it does nothing
// else, every feature's work waits untouched, and the user is told where they look (scheduler/authorization.ts). A
// run after Settings > Check this installation asked for one notes what it found (src/shared/installation.ts).
import { appContext } from '../platform/app-context';
import { enrichmentTimerSlice } from '../enrichment/timer-slice';
import { refreshTimerSlice } from '../enrichment/refresh/schedule-service';
import { researchTimerSlice } from '../research/timer-slice';
import { watchTimerSlice } from '../research/watch/watch-runs';
import { newRowsTimerSlice } from '../new-rows/timer-slice';
import { digestTimerSlice } from '../digest/timer-slice';
import { appsScriptTimer, retireDocumentlessTimer, userLock } from '../scheduler/adapters/triggers';
import { authorizationStatus } from '../scheduler/adapters/authorization';
import { noteAuthorizationOnSignals } from '../research/watch/authorization-note';
import { noteAuthorization } from '../scheduler/authorization';
import { flushWrites, hasActiveSpreadsheet } from '../platform/spreadsheet';
import { idleTick } from '../scheduler/timer';
import { runTimer } from '../scheduler/timer-run';
import { readAccountKind } from '../platform/request-budget';
import { recordTimerRuntime, timerRuntimeBudget, timerStartAllowanceMs } from '../scheduler/runtime-budget';
import { noteTimerProbe } from '../shared/installation';

export function sheetScoutTimer(event?: { triggerUid?: string }): void {
  const context = appContext();
  const startedAt = context.clock.now();
  if (awaitsAuthorization(context, startedAt, event?.triggerUid)) return;
  const document = context.stores.document;
  if (!document || !hasActiveSpreadsheet()) {
    retireDocumentlessTimer(context.stores.user, context.clock, event?.triggerUid);
    const measuredMs = context.clock.now() - startedAt;
    noteTimerProbe(context.stores.user, { ranAt: startedAt, withDocument: false, measuredMs, bookedMs: 0 });
    return;
  }
  const user = context.stores.user;
  // What stops in a run is noted in the document's cache when its properties take no write.
  const timer = { ...appsScriptTimer(document, user, context.clock), notes: context.cache };
  try {
    if (idleTick(timer, event?.triggerUid)) return;
    // Too little left today: no feature gets a slice, each keeps its pending work and the timer (runTimer).
    const { budgetMs } = timerRuntimeBudget(user, startedAt, readAccountKind(user));
    runTimer(
      timer,
      [
        // First: paid work is collected before anything starts more (and when collecting fails, nothing does).
        { feature: 'research', runSlice: researchTimerSlice, collects: true },
        { feature: 'refresh', runSlice: refreshTimerSlice },
        { feature: 'watch', runSlice: watchTimerSlice, startsPaidWork: true },
        { feature: 'newRows', runSlice: newRowsTimerSlice, startsPaidWork: true },
        { feature: 'enrichment', runSlice: enrichmentTimerSlice },
        // Last: a digest reports the runs the slices before it finished.
        { feature: 'digest', runSlice: digestTimerSlice },
      ],
      budgetMs,
    );
    // The run's sheet writes are committed within its measured time.
    flushWrites();
  } finally {
    const endedAt = context.clock.now();
    recordTimerRuntime(user, timer.userLock, startedAt, endedAt);
    // A check of this installation asked for this run's findings: what it measured, and booked (its start added).
    const measuredMs = endedAt - startedAt;
    const bookedMs = measuredMs + timerStartAllowanceMs(user);
    noteTimerProbe(user, { ranAt: startedAt, withDocument: true, measuredMs, bookedMs });
  }
}

/**
 * Whether the user has not authorized what this version needs: then the run touches nothing Google would refuse (only
 * the user's properties, which need no scope), notes it for the panels and, where Google lets it, on the Signals
 * headers of the watches this timer runs, and books its short run. Once authorized, the notes go.
 */
function awaitsAuthorization(
  context: ReturnType<typeof appContext>,
  startedAt: number,
  triggerUid: string | undefined,
): boolean {
  const note = noteAuthorization(context.stores.user, startedAt, authorizationStatus());
  noteAuthorizationOnSignals(context.stores.document, note, triggerUid);
  if (!note) return false;
  recordTimerRuntime(context.stores.user, userLock(), startedAt, context.clock.now());
  return true;
}
