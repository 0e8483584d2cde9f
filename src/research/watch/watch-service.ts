// Account watch from the panels and the menu (watch.ts holds the rules, watch-runs.ts runs it): the Research panel's
// watch of the active sheet (its cost to confirm, saved once confirmed, pause, resume, stop; its saver's timer made
// again when they open the panel), and the menu's pause, resume and stop of every watch.
import { targetHeaders } from '../launch/launch-sheet';
import { capProblem, chargedCredits } from '../spending/spending-guard';
import { researchContext, restoreSaversTimer, withLock, type Research } from '../context';
import type { WatchAction, WatchAnswer, WatchRequest } from '../contract';
import { userMessage } from '../../api/errors';
import { parseTemplate } from '../brief/brief-template';
import { counted, reservationFor } from '../spending/depth';
import { jsonSchemaProblems } from '../brief/json-schema-check';
import { resolveOutput } from '../launch/launch-request';
import { outputClashes } from '../brief/brief-template';
import { keyHeaderOf, keyString } from '../rows/row-locator';
import { storedCap } from '../spending/guard-service';
import { spreadsheetCalendar } from '../spending/calendar';
import {
  creditsPerMonth,
  noteWatchesChanged,
  readWatches,
  runSummary,
  SIGNALS_HEADER,
  watchesWake,
  writeWatches,
  type Watch,
} from './watch';
import {
  confirmationOf,
  confirmationProblem,
  readConfirmation,
  confirmedDto,
  unreadableText,
  unreadableWatches,
  shownWatch,
  writeConfirmation,
} from './confirmation';
import { noteOnSignalsHeader } from './watch-runs';
import { nextRun } from '../../enrichment/refresh/schedule';
import { localTime } from '../../enrichment/refresh/schedule-service';
import { myTimers, removeTimerIfIdle, reserveTimer, wakeTimerAt, type TimerProblem } from '../../scheduler/timer';
import { activeSheetId, sheetNameOf, spreadsheetTimeZone } from '../../platform/spreadsheet';
import { budgetProblem } from '../../shared/property-budget';
import { BUSY_MESSAGE } from '../../shared/busy';

const refused = (message: string): WatchAnswer => ({
  ok: false,
  message,
  confirm: null,
  watch: null,
  timeZone: spreadsheetTimeZone(),
});

function stores(r: Research) {
  return r.records.records;
}

/**
 * The active sheet's watch. Active watches need their saver's timer: one deleted meanwhile (by the user, or with every
 * other trigger of a user who left) is made again here when the saver opens the panel (restoreTimers).
 */
export function getWatch(): WatchAnswer {
  const r = researchContext();
  const sheetId = activeSheetId();
  const problem = restoreTimers(r);
  const watch = readWatches(stores(r)).find((entry) => entry.sheetId === sheetId);
  const unreadable = watch ? undefined : unreadableWatches(stores(r), r.document).find((c) => c.sheetId === sheetId);
  if (unreadable)
    return {
      ok: true,
      message: `This watch does not run: ${unreadableText(unreadable)}.`,
      confirm: null,
      watch: confirmedDto(unreadable, sheetNameOf(sheetId)),
      timeZone: spreadsheetTimeZone(),
    };
  const runsHere = watch?.timer ? myTimers(r.trigger).includes(watch.timer) : false;
  const overdue = watch?.status === 'active' && r.context.clock.now() - watch.nextRunAt > OVERDUE_AFTER_MS;
  const due = watch ? spreadsheetCalendar().day(watch.nextRunAt) : '';
  const confirmation = watch ? readConfirmation(r.document, watch.id) : null;
  const summary = watch ? lastRunSummary(r, watch) : null;
  // Its payer's credits are read only for an active watch (one request): a run larger than them cannot start.
  const user = watch?.status === 'active' ? r.deps.client.getUser() : null;
  const unconfirmed =
    watch && watch.status === 'active' ? confirmationProblem(watch, confirmation, null, r.context.clock.now()) : null;
  return {
    ok: true,
    message:
      problem?.message ??
      (unconfirmed ? `This watch does not run: ${unconfirmed}.` : null) ??
      (!overdue
        ? ''
        : runsHere
          ? `The run due ${due} starts at the timer's next run (within the hour).`
          : `The run due ${due} has not started: runs start from the timer of ${watch.savedBy}, who saved the ` +
            'watch; opening this panel with their Sheet Scout account sets it up again.'),
    confirm: null,
    watch: watch ? { ...shownWatch(r.document, watch, user), ...(summary ? { lastRun: summary } : {}) } : null,
    timeZone: spreadsheetTimeZone(),
  };
}

/** Records of the watch's sheet launched after its last run that its summary still looks past. */
const RECORDS_AFTER_A_RUN = 200;

/**
 * What the last run did once its rows are written, from its records in the ledger ("Researched 5 rows: 2 changed, 1
 * failed, 34 credits charged"), or null while it is under way or did not start.
 */
function lastRunSummary(r: Research, watch: Watch): { at: number; text: string } | null {
  if (!watch.lastRun?.text.startsWith('Researching')) return null;
  // The index of the ledger, and whole only the open records and the newest of the watch's sheet (the run's are).
  const newest = watch.rowKeys.length + RECORDS_AFTER_A_RUN;
  const records = r.deps.ledger
    .loadOpen({ sheetId: watch.sheetId, newest })
    .filter((entry) => entry.watch?.id === watch.id && entry.watch.run === watch.runs);
  const text = runSummary(records, chargedCredits);
  return text ? { at: watch.lastRun.at, text } : null;
}

/** A run that has not started this long after it was due is overdue (the timer fires at most hourly). */
const OVERDUE_AFTER_MS = 3 * 60 * 60 * 1000;

/**
 * Runs are paid from the account that saved a watch, so only that editor's timer runs it: when the panel is opened by
 * them (their token's account) and the timer of an active watch of theirs is gone (deleted, or never made), it is made
 * again under the lock (when free). One request (who the token is) only when such a watch exists.
 */
function restoreTimers(r: Research): TimerProblem | null {
  const mine = myTimers(r.trigger);
  const orphaned = readWatches(stores(r)).filter(
    (watch) => watch.status === 'active' && !(watch.timer && mine.includes(watch.timer)),
  );
  return restoreSaversTimer(
    () => r,
    'watch',
    orphaned,
    (watch) => watch.savedBy,
    (ownWatches, timer, problem) => {
      const own = new Set(ownWatches.map((watch) => watch.id));
      const watches = readWatches(stores(r));
      writeWatches(
        stores(r),
        watches.map((watch) => (own.has(watch.id) ? { ...watch, timer } : watch)),
      );
      // No timer of theirs can run it with the panels closed: the sheet says so too, where the signals go.
      if (problem?.closedPanelsOnly)
        for (const watch of watches.filter((entry) => own.has(entry.id)))
          noteOnSignalsHeader(r, watch.sheetId, `Account watch: no run can start. ${problem.message}`);
    },
  );
}

/** The watched rows' key values (the brief's columns), distinct and not empty, in row order. */
function rowKeysOf(r: Research, sheetId: number, rows: number[], columns: number[]): string[][] {
  const values = r.deps.grid.readRows(sheetId, rows);
  const seen = new Set<string>();
  const keys: string[][] = [];
  for (const rowValues of values) {
    const key = columns.map((column) => String(rowValues[column - 1] ?? '').trim());
    if (key.every((value) => value === '') || seen.has(keyString(key))) continue;
    seen.add(keyString(key));
    keys.push(key);
  }
  return keys;
}

/** The answer that asks for the cost to be confirmed before the watch is saved. */
const toConfirm = (confirm: NonNullable<WatchAnswer['confirm']>): WatchAnswer => ({
  ok: true,
  message: 'Confirm the cost to save the watch.',
  confirm,
  watch: null,
  timeZone: spreadsheetTimeZone(),
});

/**
 * Watches the selected rows: without `confirmedCreditsPerRun` (or with a figure that is no longer right) it answers
 * with the cost to confirm; with it, the watch is saved, replacing the sheet's earlier one.
 */
export function saveWatch(request: WatchRequest): WatchAnswer {
  const output = resolveOutput(request.output, jsonSchemaProblems);
  if (!output.ok) return refused(output.errors[0] ?? 'Check the output fields');
  if (output.mapping.kind !== 'fields' || !output.schema)
    return refused('A watch compares fields between runs: choose "Fields" as the output first.');
  const schema = output.schema;
  const r = researchContext();
  const headers = targetHeaders(r.deps.grid, request.sheetId);
  if (typeof headers === 'string') return refused(headers);
  const template = parseTemplate(request.template, headers);
  if (!template.ok) return refused(template.errors[0] ?? 'Check the brief');
  if (template.template.columns.length === 0)
    return refused('The brief must name a column (like {Domain}): that is how each watched row is found again.');
  const clashes = outputClashes([...output.headers, SIGNALS_HEADER], headers, template.template.columns);
  if (clashes.length > 0) return refused(clashes[0]);
  const rows = [...new Set(request.rows)].filter((row) => Number.isInteger(row) && row >= 2);
  const rowKeys = rowKeysOf(r, request.sheetId, rows, template.template.columns);
  if (rowKeys.length === 0) return refused('Select the rows to watch (below the header row, with a brief).');
  const creditsPerRun = rowKeys.length * reservationFor(request.depth);
  const neverFits = capProblem(storedCap(r.document), creditsPerRun);
  if (neverFits) return refused(neverFits);
  const perMonth = creditsPerMonth(creditsPerRun, request.cadence);
  const confirm = { rows: rowKeys.length, creditsPerRun, creditsPerMonth: perMonth };
  if (request.confirmedCreditsPerRun !== creditsPerRun) return toConfirm(confirm);
  const user = r.deps.client.getUser();
  if (!user.ok) return refused(userMessage(user.error));
  return withLock(
    r,
    30000,
    () => refused(BUSY_MESSAGE),
    () => {
      const watches = readWatches(stores(r));
      const previous = watches.find((entry) => entry.sheetId === request.sheetId);
      const full = confirmationBudgetProblem(r, watches, previous, user.value.email);
      if (full) return refused(full);
      const timer = reserveTimer(r.trigger, 'watch', { ownTimer: true });
      if (timer?.blocksSpending || timer?.closedPanelsOnly) return refused(`Nothing was saved. ${timer.message}`);
      r.deps.grid.ensureHeaders(request.sheetId, [...output.headers, SIGNALS_HEADER]);
      const now = r.context.clock.now();
      const watch: Watch = {
        id: previous?.id ?? r.deps.newId(),
        sheetId: request.sheetId,
        sheetName: sheetNameOf(request.sheetId),
        template: request.template,
        depth: request.depth,
        schema,
        mapping: output.mapping,
        keyHeaders: template.template.columns.map((column) => keyHeaderOf(headers, column)),
        rowKeys,
        cadence: request.cadence,
        weekday: request.weekday,
        status: 'active',
        nextRunAt: nextRun({ cadence: request.cadence, weekday: request.weekday }, now, localTime),
        creditsPerRun,
        run: null,
        runs: previous?.runs ?? 0,
        lastRun: previous?.lastRun ?? null,
        savedBy: user.value.email,
        confirmedAt: now,
        timer: myTimers(r.trigger)[0] ?? null,
      };
      storeWatch(r, watch, watches, previous);
      const note = timer ? ` ${timer.message} The watch runs when the timer does.` : '';
      return {
        ok: true,
        message: `Watching ${counted(rowKeys.length, 'row')} ${request.cadence}: up to ${creditsPerRun} credits a run.${note}`,
        confirm: null,
        watch: shownWatch(r.document, watch, user),
        timeZone: spreadsheetTimeZone(),
      };
    },
  );
}

/** What one watch's confirmation takes in the document's properties (its key and value; ids are 36 characters). */
const CONFIRMATION_BYTES = 400;

/**
 * Whether one more confirmation by `saver` fits the watches' storage budgets (src/shared/property-budget.ts): what the
 * saver's watches keep, and all of them. A watch saved again replaces its confirmation. The refusal, or null.
 */
function confirmationBudgetProblem(r: Research, watches: Watch[], previous: Watch | undefined, saver: string) {
  const mine = watches.filter(
    (watch) => watch !== previous && readConfirmation(r.document, watch.id)?.savedBy === saver,
  ).length;
  const replaced = previous && readConfirmation(r.document, previous.id) ? CONFIRMATION_BYTES : 0;
  return budgetProblem(r.document, {
    feature: 'watch',
    growth: CONFIRMATION_BYTES - replaced,
    written: CONFIRMATION_BYTES,
    editor: { name: saver, before: mine * CONFIRMATION_BYTES, after: (mine + 1) * CONFIRMATION_BYTES },
    hint: 'Stop a watch this spreadsheet no longer needs (Research > Account watch).',
  });
}

/** Saves a confirmed watch: its record (replacing the sheet's earlier one), what its saver confirmed, its next wake. */
function storeWatch(r: Research, watch: Watch, watches: Watch[], previous: Watch | undefined): void {
  const saved = [...watches.filter((entry) => entry !== previous), watch];
  writeWatches(stores(r), saved);
  noteWatchesChanged(r.document, r.context.clock.now());
  const before = previous ? readConfirmation(r.document, previous.id) : null;
  writeConfirmation(r.document, confirmationOf(watch, false, before?.lastStartedAt ?? null), watch.id);
  wakeTimerAt(r.trigger, 'watch', watchesWake(saved) ?? null);
}

/** Pauses, resumes or stops the watch of the active sheet (`sheetId` null: every watch of the document). */
export function changeWatch(action: WatchAction, sheetId: number | null = activeSheetId()): WatchAnswer {
  const r = researchContext();
  // Resumed watches run from their saver's timer: the one resuming may be the saver.
  const account = action === 'resume' ? r.deps.client.getUser() : null;
  const email = account?.ok ? account.value.email : null;
  return withLock(
    r,
    30000,
    () => refused(BUSY_MESSAGE),
    () => {
      const now = r.context.clock.now();
      const watches = readWatches(stores(r));
      const chosen = watches.filter((watch) => sheetId === null || watch.sheetId === sheetId);
      if (chosen.length === 0)
        return refused(sheetId === null ? 'No account watch in this spreadsheet.' : 'This sheet has no watch.');
      const saver = chosen.some((watch) => watch.savedBy === email);
      // Resumed watches mark the feature pending; the saver's own timer is made if it is gone.
      const timer = action === 'resume' ? reserveTimer(r.trigger, 'watch', { ownTimer: saver }) : null;
      const ownTimer = saver ? (myTimers(r.trigger)[0] ?? null) : null;
      const kept =
        action === 'stop'
          ? watches.filter((watch) => !chosen.includes(watch))
          : watches.map((watch) => {
              if (!chosen.includes(watch)) return watch;
              if (action === 'pause') return { ...watch, status: 'paused' as const };
              const nextRunAt = watch.nextRunAt > now ? watch.nextRunAt : nextRun(watch, now, localTime);
              const runner = watch.savedBy === email ? ownTimer : watch.timer;
              return { ...watch, status: 'active' as const, nextRunAt, timer: runner };
            });
      writeWatches(stores(r), kept);
      noteWatchesChanged(r.document, now);
      // What the saver confirmed follows: paused or not, or gone with the watch.
      for (const watch of chosen) {
        const confirmation = readConfirmation(r.document, watch.id);
        const next = action === 'stop' || !confirmation ? null : { ...confirmation, paused: action === 'pause' };
        writeConfirmation(r.document, next, watch.id);
      }
      if (!kept.some((watch) => watch.status === 'active')) removeTimerIfIdle(r.trigger, 'watch');
      const own = kept.find((watch) => watch.sheetId === activeSheetId());
      const verb = { pause: 'Paused', resume: 'Resumed', stop: 'Stopped' }[action];
      const what = chosen.length === 1 ? `the watch of "${chosen[0].sheetName}"` : `${chosen.length} watches`;
      return {
        ok: true,
        message: `${verb} ${what}.${timer ? ` ${timer.message}` : ''}`,
        confirm: null,
        watch: own ? shownWatch(r.document, own, account) : null,
        timeZone: spreadsheetTimeZone(),
      };
    },
  );
}
