// The Launch tab's "Watch these rows" section (account watch): the selected rows researched again every week or month
// with the tab's brief, depth and fields, each run writing a Signals cell per row. The cost of a run and of a month is
// shown and confirmed before the watch is saved; once saved it shows the next run, the last run and Pause, Resume and
// Stop (which asks first, as the menu's Stop all does); what stands in the way of its runs (the spending cap, its payer's
// credits or token) until it is resolved. It follows changes made elsewhere (the menu's Pause all, Resume all, Stop
// all, another editor's panel, the timer's runs) at its next poll, and a notice of its own change that they made old
// goes. Service text (the last run's line) is shown as text.
import { counted, type WatchAnswer, type WatchCadence, type WatchDto } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { h, message } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { output, render, state } from './state';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface WatchState {
  answer: WatchAnswer | null;
  cadence: WatchCadence;
  weekday: number;
  /** The last answer's message (a refusal, or what a change did), shown in the section. */
  notice: { kind: 'error' | 'ok' | 'warn'; text: string } | null;
  busy: boolean;
  /** The section is open (kept across redraws; opened by a watch or a cost to confirm). */
  open: boolean;
  /** "Stop watching" was clicked: its question waits for the answer. */
  confirmingStop: boolean;
}

export const watchState: WatchState = {
  answer: null,
  cadence: 'weekly',
  weekday: 1,
  notice: null,
  busy: false,
  open: false,
  confirmingStop: false,
};

const when = inSpreadsheetZone;

/** When the document's watches last changed as this panel knows it (undefined before its first poll). */
let seenChange: number | null | undefined;

/**
 * Reads the watch again when the document's watches changed since the panel last knew (the menu's Pause all, Resume
 * all or Stop all; another editor's panel), as the poll reports it.
 */
export async function followWatchChanges(changedAt: number | null): Promise<void> {
  if (changedAt === seenChange) return;
  const known = seenChange !== undefined;
  seenChange = changedAt;
  if (known) await loadWatch(true);
}

/** What a notice about the watch speaks of: whether it runs, when, and what it watches. */
const watchStateKey = (watch: WatchDto | null) =>
  JSON.stringify(watch && [watch.status, watch.nextRunAt, watch.rows, watch.creditsPerRun, watch.cadence]);

/**
 * Reads the active sheet's watch (the panel's opening, the selection read again, after a tick, and when it changed
 * elsewhere); `onlyIfChanged` redraws only when the watch changed (a background read must not redraw the form under
 * the user's typing), and then the notice of the panel's own last change goes: what it said is no longer so.
 */
export async function loadWatch(onlyIfChanged = false): Promise<void> {
  const before = JSON.stringify(watchState.answer?.watch ?? null);
  const stateBefore = watchStateKey(watchState.answer?.watch ?? null);
  try {
    watchState.answer = await server.getResearchWatch();
  } catch (error) {
    if (onlyIfChanged) return;
    watchState.notice = { kind: 'error', text: errorText(error) };
    return render();
  }
  const changed = JSON.stringify(watchState.answer.watch ?? null) !== before;
  if (watchState.answer.watch) watchState.open = true;
  // Changed elsewhere (paused, resumed, stopped, saved again): the notice of the panel's own change is old news, and
  // a question about a watch that is gone has nothing left to ask.
  if (onlyIfChanged && watchStateKey(watchState.answer.watch) !== stateBefore) watchState.notice = null;
  if (!watchState.answer.watch) watchState.confirmingStop = false;
  if (watchState.answer.message) watchState.notice = { kind: 'warn', text: watchState.answer.message };
  if (!onlyIfChanged || changed) render();
}

async function answered(call: () => Promise<WatchAnswer>): Promise<void> {
  if (watchState.busy) return;
  watchState.busy = true;
  render();
  try {
    const answer = await call();
    watchState.open = true;
    watchState.confirmingStop = false;
    watchState.answer = answer.ok ? answer : { ...answer, watch: answer.watch ?? watchState.answer?.watch ?? null };
    watchState.notice = answer.message ? { kind: answer.ok ? 'ok' : 'error', text: answer.message } : null;
  } catch (error) {
    watchState.notice = { kind: 'error', text: errorText(error) };
  } finally {
    watchState.busy = false;
    render();
    document.getElementById('watch-section')?.scrollIntoView({ block: 'nearest' });
  }
}

/** Asks for the cost (confirmed = null) or saves the watch with the cost the user confirmed. */
function save(confirmed: number | null): void {
  const context = state.context;
  if (!context) return;
  void answered(() =>
    server.saveResearchWatch({
      sheetId: context.sheetId,
      rows: context.rows,
      template: state.template,
      depth: state.depth,
      output: output(),
      cadence: watchState.cadence,
      weekday: watchState.weekday,
      confirmedCreditsPerRun: confirmed,
    }),
  );
}

function scheduleControls(): HTMLElement {
  const cadence = h(
    'select',
    {
      id: 'watch-cadence',
      'aria-label': 'How often',
      onchange: (e: Event) => {
        watchState.cadence = (e.target as HTMLSelectElement).value as WatchCadence;
        render();
      },
    },
    h('option', { value: 'weekly', selected: watchState.cadence === 'weekly' }, 'Every week on'),
    h('option', { value: 'monthly', selected: watchState.cadence === 'monthly' }, 'Every month (the 1st)'),
  );
  const weekday = h(
    'select',
    {
      id: 'watch-weekday',
      'aria-label': 'Day of the week',
      hidden: watchState.cadence !== 'weekly',
      onchange: (e: Event) => {
        watchState.weekday = Number((e.target as HTMLSelectElement).value);
      },
    },
    ...WEEKDAYS.map((day, i) => h('option', { value: String(i), selected: i === watchState.weekday }, day)),
  );
  return h('div', { class: 'row' }, cadence, weekday);
}

/** The cost to confirm, and the button that saves the watch with it. */
function confirmation(answer: WatchAnswer): HTMLElement | null {
  const confirm = answer.confirm;
  if (!confirm) return null;
  const runs = watchState.cadence === 'weekly' ? 'up to 5 runs' : '1 run';
  return h(
    'div',
    { id: 'watch-confirm' },
    message(
      'warn',
      `Watching ${counted(confirm.rows, 'row')} costs up to ${confirm.creditsPerRun} credits a run and up to ` +
        `${confirm.creditsPerMonth} a month (${runs}). Only research agents that run are billed. Runs count against ` +
        'the spending cap: a run the cap has no room for does not start.',
    ),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', class: 'primary', id: 'watch-save', onclick: () => save(confirm.creditsPerRun) },
        `Watch ${counted(confirm.rows, 'row')}`,
      ),
    ),
  );
}

/** A line of the service's or the timer's, ended with one full stop. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** "Stop watching": asks first (stopQuestion), as the menu's Stop all does. */
function stopButton(): HTMLElement {
  const ask = () => {
    watchState.confirmingStop = true;
    render();
  };
  return h('button', { type: 'button', id: 'watch-stop', onclick: ask }, 'Stop watching');
}

/** The question before a stop: the watch goes (its Signals and values stay); Pause keeps it for later. */
function stopQuestion(change: (action: 'pause' | 'resume' | 'stop') => () => void): HTMLElement {
  const keep = () => {
    watchState.confirmingStop = false;
    render();
  };
  return h(
    'div',
    { id: 'watch-stop-question', class: 'message warn', role: 'alertdialog' },
    'Stop this watch? Its Signals and values stay in the rows; no run starts again. To stop it for a while only, ' +
      'use Pause.',
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', id: 'watch-stop-yes', onclick: change('stop') }, 'Stop the watch'),
      h('button', { type: 'button', id: 'watch-stop-no', onclick: keep }, 'Keep watching'),
    ),
  );
}

/** When the next run starts, or why it waits (paused, the service unavailable). */
function nextRunText(watch: WatchDto, timeZone: string): string {
  if (watch.status === 'paused') return 'Paused.';
  if (watch.unreachableSince !== null)
    return (
      `Service unavailable since ${when(watch.unreachableSince, timeZone)}: the run due ` +
      `${when(watch.nextRunAt ?? 0, timeZone)} tries again hourly.`
    );
  return `Next run: ${when(watch.nextRunAt ?? 0, timeZone)}.`;
}

/** A saved watch: when it runs, its cost, what stands in its runs' way, the last run, and its buttons. */
function watchStatus(watch: WatchDto, timeZone: string): HTMLElement {
  const cadence = watch.cadence === 'weekly' ? `every ${WEEKDAYS[watch.weekday]}` : 'on the 1st of every month';
  const change = (action: 'pause' | 'resume' | 'stop') => () => void answered(() => server.changeResearchWatch(action));
  return h(
    'div',
    { id: 'watch-status' },
    h(
      'p',
      {},
      `Watching ${counted(watch.rows, 'row')} of "${watch.sheetName}" ${cadence} after 06:00 (${timeZone}, within the hour), up to ` +
        `${watch.creditsPerRun} credits a run. Changes go to the "${watch.signalsHeader}" column.`,
    ),
    h('p', { id: 'watch-next' }, nextRunText(watch, timeZone)),
    watch.blocked ? h('div', { id: 'watch-blocked' }, message('error', watch.blocked)) : null,
    h(
      'p',
      { class: 'muted', id: 'watch-last' },
      watch.lastRun ? `Last run ${when(watch.lastRun.at, timeZone)}: ${sentence(watch.lastRun.text)}` : 'Not run yet.',
    ),
    h(
      'div',
      { class: 'row' },
      watch.status === 'paused'
        ? h('button', { type: 'button', id: 'watch-resume', onclick: change('resume') }, 'Resume')
        : h('button', { type: 'button', id: 'watch-pause', onclick: change('pause') }, 'Pause'),
      watchState.confirmingStop ? null : stopButton(),
    ),
    watchState.confirmingStop ? stopQuestion(change) : null,
  );
}

export function watchSection(): HTMLElement {
  const answer = watchState.answer;
  const watch = answer?.watch ?? null;
  const fields = state.outputKind === 'fields';
  const rows = state.context?.rows.length ?? 0;
  return h(
    'details',
    {
      id: 'watch-section',
      open: watchState.open,
      // The state follows the click at once: a redraw before the toggle event (a read coming back) keeps the section
      // as the user left it; the event of a section already redrawn away is old news.
      ontoggle: (e: Event) => {
        const details = e.target as HTMLDetailsElement;
        if (details.isConnected) watchState.open = details.open;
      },
    },
    h(
      'summary',
      {
        onclick: (e: Event) => {
          watchState.open = !((e.currentTarget as HTMLElement).parentElement as HTMLDetailsElement).open;
        },
      },
      watch ? 'Account watch' : 'Watch these rows on a schedule',
    ),
    h(
      'p',
      { class: 'muted' },
      'Researches the rows again every week or month with this brief and fields, and writes what changed in a ' +
        'Signals column, by column ("Employees 51-200 → 201-500"), with the old value in the changed cell\'s note.',
    ),
    watch && answer ? watchStatus(watch, answer.timeZone) : null,
    scheduleControls(),
    fields
      ? h(
          'div',
          { class: 'row' },
          h(
            'button',
            { type: 'button', id: 'watch-preview', disabled: rows === 0 || watchState.busy, onclick: () => save(null) },
            `Watch the ${rows === 1 ? 'selected row' : `${rows} selected rows`}${watch ? ' instead' : ''}`,
          ),
        )
      : h(
          'div',
          { class: 'muted', id: 'watch-needs-fields' },
          'A watch compares fields: choose "Fields" as the output.',
        ),
    answer ? confirmation(answer) : null,
    watchState.notice ? message(watchState.notice.kind, watchState.notice.text) : null,
  );
}
