// Account watch runs (watch.ts holds the rules): the shared timer's slice that starts each due run of a watch with the
// panels closed, from the timer of the editor who saved it: its rows found by their key values, the spending cap
// checked for the whole run first, then the same launch as the panel's, its records marked with the run. A run that
// cannot reach the service keeps its place (nothing was sent for it), says since when on the Signals header and in
// the panel, and is tried again at every tick until the service answers. A run that started, however late, keeps the
// watch's rhythm: the next starts at the first of its slots at least 80% of a period later (MIN_GAP_SHARE). In a
// timer run whose collection of research failed, no run starts: a due run keeps its place for the next run
// (src/scheduler/timer-run.ts says why).
import { researchContext, withLock, type Research } from '../context';
import { isUnreachable, userMessage } from '../../api/errors';
import { counted, reservationFor } from '../spending/depth';
import { launchPaidBy, timerLaunchProblem } from '../launch/paid-launch';
import { keyColumn, keyString } from '../rows/row-locator';
import { spreadsheetCalendar } from '../spending/calendar';
import { readWatches, SIGNALS_HEADER, watchesWake, writeWatches, type Watch } from './watch';
import {
  confirmationProblem,
  readConfirmation,
  unreadableText,
  unreadableWatches,
  writeConfirmation,
  type WatchConfirmation,
} from './confirmation';
import { nextRun } from '../../enrichment/refresh/schedule';
import { localTime } from '../../enrichment/refresh/schedule-service';
import { isPending, myTimers } from '../../scheduler/timer';
import { formatInSpreadsheetZone } from '../../platform/spreadsheet';

/** A watch run's launch may take this long in the timer's slice (the rest stays queued for the ticks). */
const RUN_LAUNCH_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A watch's period, nominal (a month's run may be 28 to 31 days from the last). */
const PERIOD_MS: Record<Watch['cadence'], number> = { weekly: 7 * DAY_MS, monthly: 30 * DAY_MS };
/**
 * A run keeps the watch's rhythm: the next one starts at the first of the watch's slots (its weekday's hour, a month's
 * first day) at least this share of a period after it. A run on time is followed by the next slot; a late one (a
 * service outage, a timer that could not run) by the slot after next when it came more than a fifth of a period late,
 * never by a run a few hours or days after it.
 */
export const MIN_GAP_SHARE = 0.8;

/** When the run after one that started at `startedAt` may start, at the earliest. */
export function nextRunAfter(watch: Watch, startedAt: number): number {
  return nextRun(watch, startedAt + MIN_GAP_SHARE * PERIOD_MS[watch.cadence], localTime);
}

const stores = (r: Research) => r.records.records;

/**
 * The current rows of the watch's rows, found by their key values (where rows repeat them, every such row: they ask
 * the same question, one task whose result each of them gets), in key order.
 */
function watchedRows(r: Research, watch: Watch): { rows: number[]; missing: number } {
  const headers = r.deps.grid.headers(watch.sheetId) ?? [];
  const columns = watch.keyHeaders.map((header) => keyColumn(headers, header));
  if (columns.some((column) => column === null)) return { rows: [], missing: watch.rowKeys.length };
  const values = r.deps.grid.readColumns(watch.sheetId, columns as number[]);
  const rowsByKey = new Map<string, number[]>();
  values.forEach((row, i) => {
    const key = keyString(row.map((value) => value.trim()));
    rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), i + 2]);
  });
  const rows: number[] = [];
  let missing = 0;
  for (const key of watch.rowKeys) {
    const found = rowsByKey.get(keyString(key)) ?? [];
    if (found.length > 0) rows.push(...found);
    else missing++;
  }
  return { rows, missing };
}

/** A run that could not reach the service: nothing was sent for it, and it is tried again at the next tick. */
interface Unreachable {
  unreachable: true;
}

/** Starts one due run of a watch (under the lock): its summary line, or that the service could not be reached. */
function startRun(r: Research, watch: Watch, deadline: number): string | Unreachable {
  if (r.deps.grid.headers(watch.sheetId) === null)
    return `Not started: the sheet "${watch.sheetName}" was deleted (Sheet Scout > Account watch > Stop all watches)`;
  const notTheUsers = r.deps.grid.targetProblem(watch.sheetId);
  if (notTheUsers) return `Not started: ${notTheUsers}`;
  const { rows, missing } = watchedRows(r, watch);
  const notFound = missing > 0 ? `, ${counted(missing, 'row')} not found (the values their brief reads changed)` : '';
  if (rows.length === 0) return `Not started: none of the ${counted(watch.rowKeys.length, 'watched row')} was found`;
  const run = watch.run as { n: number; at: number };
  // What decides money is checked against what the saver confirmed (the record is in a sheet any editor can change).
  const confirmation = readConfirmation(r.document, watch.id);
  const earliest = confirmation?.lastStartedAt ? nextRunAfter(watch, confirmation.lastStartedAt) : null;
  const unconfirmed = confirmationProblem(watch, confirmation, earliest, run.at);
  if (unconfirmed) return `Not started: ${unconfirmed}`;
  const user = r.deps.client.getUser();
  if (!user.ok && isUnreachable(user.error)) return { unreachable: true };
  if (!user.ok) return `Not started: ${userMessage(user.error)}`;
  if (user.value.email !== watch.savedBy)
    return `Not started: the watch is paid from ${watch.savedBy}, who saved it, and this timer's token is ${user.value.email}'s`;
  const fields = (watch.mapping.fields ?? []).map((field) => field.header);
  const outcome = launchPaidBy(
    r,
    user.value.email,
    {
      sheetId: watch.sheetId,
      rows,
      template: watch.template,
      depth: watch.depth,
      schema: watch.schema,
      mapping: watch.mapping,
      rerun: false,
      again: true,
      watch: { id: watch.id, run: run.n, signalsHeader: SIGNALS_HEADER, day: spreadsheetCalendar().day(run.at) },
      // Columns the user deleted since are made again: the run's values and signals need them.
      outputHeaders: [watch.mapping.statusHeader, ...fields, SIGNALS_HEADER],
    },
    {
      deadline,
      availableCredits: user.value.available_credits,
      reservationPerTask: reservationFor(watch.depth),
      fitToCap: false,
      canFinish: (plan) => timerLaunchProblem(r, plan),
      run: 'watch',
    },
  );
  if (outcome.refused) return `Not started: ${outcome.refused.split('\n')[0]}`;
  // When it started (not when it came due: a run that waited for the service started late), for the rhythm's check.
  const startedAt = r.context.clock.now();
  writeConfirmation(r.document, { ...(confirmation as WatchConfirmation), lastStartedAt: startedAt }, watch.id);
  const created = outcome.entries.length;
  const running = outcome.plan.skippedRunning.length;
  const still = running > 0 ? `, ${running} still researching from before` : '';
  return `Researching ${counted(created, 'row')}${still}${notFound}`;
}

/**
 * The shared timer's slice: starts the watches' due runs (one at a time, under the document lock). A run is marked
 * started (with its number) before anything is sent; one found marked in a later slice was interrupted: its records
 * in the ledger say whether its launch went through, so no row of a run is paid twice. A run that could not reach the
 * service stays due (its number kept) and waits for the next tick. Pending while any watch is active (its next run
 * needs the timer), next due at the earliest active watch's time.
 */
export function watchTimerSlice(
  budgetMs: number,
  run: { paidWork: boolean } = { paidWork: true },
): { pending: boolean; wakeAt?: number; heldBack?: boolean } {
  const r = researchContext(budgetMs);
  // No active watch (the feature is pending while there is one): no lock, records sheet or trigger list is read.
  if (!isPending(r.trigger, 'watch')) return { pending: false };
  // The timer's collection failed: due runs wait, with their place, for a run that can collect them.
  if (!run.paidWork) {
    const now = r.context.clock.now();
    const due = readWatches(stores(r)).some(
      (watch) => watch.status === 'active' && (watch.run !== null || watch.nextRunAt <= now),
    );
    return { pending: true, heldBack: due };
  }
  const mine = myTimers(r.trigger);
  // Another editor's watch runs from their timer (their token pays); one saved when no timer could be made, from any
  // (startRun still checks that the token's account is the saver's).
  const runsHere = (watch: Watch) => watch.timer === null || mine.includes(watch.timer);
  const deadline = r.context.clock.now() + Math.min(budgetMs, RUN_LAUNCH_MS);
  return withLock<{ pending: boolean; wakeAt?: number }>(
    r,
    1000,
    () => ({ pending: true }),
    () => {
      noteUnreadable(r);
      const waiting = new Set<string>();
      for (;;) {
        const now = r.context.clock.now();
        const watches = readWatches(stores(r));
        const due = watches.find(
          (watch) =>
            watch.status === 'active' &&
            (watch.run || watch.nextRunAt <= now) &&
            runsHere(watch) &&
            !waiting.has(watch.id),
        );
        // Pending is the document's (another editor's timer reads it too): any active watch keeps it.
        if (!due || now >= deadline) {
          const wake = watchesWake(watches);
          return wake === undefined ? { pending: false } : { pending: true, wakeAt: wake ?? undefined };
        }
        const run = due.run ?? { n: due.runs + 1, at: now };
        const interrupted = due.run !== null && launchedBefore(r, due.id, run.n);
        writeWatches(
          stores(r),
          watches.map((watch) => (watch === due ? { ...watch, run } : watch)),
        );
        const started = interrupted
          ? 'Researching (resumed after an interruption)'
          : startRun(r, { ...due, run }, deadline);
        if (typeof started !== 'string') {
          // Nothing was sent: the run keeps its number and its place, and says since when it waits.
          waiting.add(due.id);
          const since = due.unreachableSince ?? now;
          noteRun(r, due, run.at, unreachableText(since));
          writeWatches(
            stores(r),
            readWatches(stores(r)).map((watch) =>
              watch.id === due.id ? { ...watch, run, unreachableSince: since } : watch,
            ),
          );
          continue;
        }
        noteRun(r, due, run.at, started);
        const after = readWatches(stores(r));
        writeWatches(
          stores(r),
          after.map((watch) => (watch.id === due.id ? ranOnce(watch, run, started, now) : watch)),
        );
      }
    },
  );
}

/**
 * The watch once its run, started at `now` (`started`: what it did), is under way. A run that started keeps the
 * rhythm from when it started, however late that was (nextRunAfter: a run that waited days for the service is not
 * followed by the next slot hours later); one that did not waits for the next slot.
 */
function ranOnce(watch: Watch, run: { n: number; at: number }, started: string, now: number): Watch {
  const { unreachableSince: _, ...rest } = watch;
  const nextSlot = nextRun(watch, Math.max(now, watch.nextRunAt), localTime);
  return {
    ...rest,
    run: null,
    runs: run.n,
    lastRun: { at: run.at, text: started },
    nextRunAt: started.startsWith('Researching') ? Math.max(nextRunAfter(watch, now), nextSlot) : nextSlot,
  };
}

/** What a run waiting for the service says (in the spreadsheet's time zone). */
function unreachableText(since: number): string {
  return `Service unavailable since ${formatInSpreadsheetZone(since, 'EEE HH:mm')}, trying again hourly`;
}

/**
 * A run that did not start (or waits for the service) says so in the note of the sheet's Signals header, where someone
 * looking at the sheet with the panels closed sees it; a run that starts clears it.
 */
function noteRun(r: Research, watch: Watch, at: number, text: string): void {
  const note =
    text.startsWith('Not started') || text.startsWith('Service unavailable')
      ? `Account watch, run of ${spreadsheetCalendar().day(at)}: ${text}. Sheet Scout > Research shows the watch.`
      : null;
  noteOnSignalsHeader(r, watch.sheetId, note);
}

/** Sets (or clears, with null) the note of a watched sheet's Signals header. */
export function noteOnSignalsHeader(r: Research, sheetId: number, note: string | null): void {
  const column = (r.deps.grid.headers(sheetId) ?? []).indexOf(SIGNALS_HEADER) + 1;
  if (column === 0) return;
  r.deps.grid.write(sheetId, [{ row: 1, column, note }]);
}

/**
 * Watches whose record cannot be read (changed outside Sheet Scout) start nothing: each active one says so, with what
 * its saver confirmed, on its sheet's Signals header (its panel says so too).
 */
function noteUnreadable(r: Research): void {
  for (const confirmation of unreadableWatches(stores(r), r.document)) {
    if (confirmation.paused || confirmation.sheetId === undefined || r.deps.grid.headers(confirmation.sheetId) === null)
      continue;
    const day = spreadsheetCalendar().day(r.context.clock.now());
    const text = `Account watch, ${day}: Not started: ${unreadableText(confirmation)}. Sheet Scout > Research shows the watch.`;
    noteOnSignalsHeader(r, confirmation.sheetId, text);
  }
}

/** Whether records of this watch run are in the ledger (its launch saved them before sending anything). */
function launchedBefore(r: Research, watchId: string, run: number): boolean {
  r.deps.ledger.load();
  return r.deps.ledger.all().some((entry) => entry.watch?.id === watchId && entry.watch.run === run);
}
