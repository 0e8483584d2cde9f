// The timer's handler body (timer.ts keeps the timer and its marks): each due feature's slice under one time budget,
// each in isolation. A slice that throws (storage full, a quota spent, a damaged record) ends only itself: its pending
// mark stays as it was, so the next run tries it again, and what stopped is kept for the panels (timer-stops.ts). The
// slice that collects paid work (research polling) runs first; when it fails, the slices that would start paid work
// (a watch run, research on new rows) start none that time (they do the rest of their work), so nothing is paid for
// that could not be collected. The
// timer's own bookkeeping (its record, the marks, the registry entry) is written so that a failed write never ends
// the run. Pure over the timer's ports.
import { TIMER_FEATURES, type TimerFeature } from './features';
import {
  armTimer,
  DUE_NOW,
  featureWake,
  isPending,
  markTimerRan,
  MIN_SLICE_MS,
  noteHolder,
  recordTick,
  removeTimerIfIdle,
  setMark,
  TIMER_BUDGET_MS,
  type TimerDeps,
} from './timer';
import { bookkeeping, noteStops, stopMessage, type StoppedPart, type TimerStop } from './timer-stops';

/**
 * One feature's work for the timer: a slice under `budgetMs`, saying whether the feature still has pending work and,
 * when that work waits for a time (a schedule's day), when it is next due.
 */
export interface TimerTask {
  feature: TimerFeature;
  /**
   * `leftToOthers`: work is left that only other users' timers can do (removeTimerIfIdle). `run.paidWork` false: the
   * slice starts no paid work this time (it does the rest), and says with `heldBack` whether it held some back.
   */
  runSlice(
    budgetMs: number,
    run?: { paidWork: boolean },
  ): { pending: boolean; wakeAt?: number; leftToOthers?: boolean; heldBack?: boolean };
  /** It collects paid work (research polling): when it fails, no slice that starts paid work runs in the same run. */
  collects?: boolean;
  /** It may start paid work (a watch run, research on new rows): it is told when it may not. */
  startsPaidWork?: boolean;
}

export interface TimerRun {
  ran: Array<{ feature: TimerFeature; pending: boolean }>;
  /** What is kept as stopped after this run (what failed in it, and earlier failures of parts that did not run). */
  stopped: TimerStop[];
  /** The timer was removed: no feature has pending work. */
  removed: boolean;
}

/** Why a slice that starts paid work did not run: the collection before it failed. */
export function notStartedText(collectionFailure: string): string {
  return (
    'paid work not started, so that nothing is paid for that could not be collected: collecting research results failed ' +
    `first (${collectionFailure}); tried again at the next run`
  );
}

/**
 * Runs each task whose work is due (or unmarked: it returns at once when it has none), each feature with due work
 * getting an equal share of what is left of the budget (so a slow feature cannot starve the next one; an unmarked one
 * counts as one more while it runs), records each feature's pending state and when it is next due, keeps the user's
 * registry entry current, and removes the timer when idle.
 */
export function runTimer(deps: TimerDeps, tasks: TimerTask[], budgetMs: number = TIMER_BUDGET_MS): TimerRun {
  const deadline = deps.clock.now() + budgetMs;
  const stopped = new Map<StoppedPart, string>();
  const keep = (failure: string | null) => failure !== null && stopped.set('timer', failure);
  keep(bookkeeping(() => markTimerRan(deps)));
  const ran: TimerRun['ran'] = [];
  const cleared: StoppedPart[] = [];
  let leftToOthers: TimerFeature | undefined;
  let collectionFailed: string | null = null;
  const startedAt = deps.clock.now();
  const wakes = tasks.map((task) => featureWake(deps, task.feature));
  const due = wakes.map((wake) => wake !== null && wake <= startedAt);
  tasks.forEach((task, index) => {
    const waiting = wakes[index] !== null && !due[index];
    if (waiting) return;
    const sharing = due.slice(index).filter(Boolean).length + (due[index] ? 0 : 1);
    const share = Math.floor(Math.max(0, deadline - deps.clock.now()) / sharing);
    if (share < MIN_SLICE_MS) {
      ran.push({ feature: task.feature, pending: wakes[index] !== null });
      return;
    }
    const paidWork = !(task.startsPaidWork && collectionFailed !== null);
    let result: ReturnType<TimerTask['runSlice']>;
    try {
      result = task.runSlice(share, { paidWork });
    } catch (error) {
      stopped.set(task.feature, stopMessage(error));
      if (task.collects) collectionFailed = stopMessage(error);
      ran.push({ feature: task.feature, pending: wakes[index] !== null });
      return;
    }
    if (result.heldBack && collectionFailed !== null) stopped.set(task.feature, notStartedText(collectionFailed));
    else cleared.push(task.feature);
    ran.push({ feature: task.feature, pending: result.pending });
    const wake = result.wakeAt !== undefined && result.wakeAt > deps.clock.now() ? String(result.wakeAt) : DUE_NOW;
    if (result.leftToOthers && !result.pending) leftToOthers = task.feature;
    else keep(bookkeeping(() => setMark(deps, task.feature, result.pending ? wake : null)));
  });
  let removed = false;
  // Work only other users' timers can do keeps its mark for them, not this timer.
  if (!TIMER_FEATURES.some((feature) => feature !== leftToOthers && isPending(deps, feature)))
    keep(bookkeeping(() => (removed = removeTimerIfIdle(deps, leftToOthers, { leftToOthers: true }) > 0)));
  else
    keep(
      bookkeeping(() => {
        armTimer(deps, {});
        recordTick(deps);
        noteHolder(deps);
      }),
    );
  const kept = noteStops(
    deps.document,
    deps.clock.now(),
    stopped,
    stopped.has('timer') ? cleared : [...cleared, 'timer'],
    deps.notes,
  );
  return { ran, stopped: kept, removed };
}
