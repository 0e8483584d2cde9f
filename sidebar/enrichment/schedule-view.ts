// The "Keep data fresh" section's schedule: off, every week on a day, or every month, after an hour of the day, for
// data older than the section's N days, run by the document's timer with the panels closed (at its first hourly tick
// after that hour); what it shows once set: the next run (or since when a run waits for the service), the last run's
// summary (cells changed, edits kept; a run that had nothing to check says why and when it will), and the share of the
// day's requests it may take. Its status is read again when the document changed elsewhere (the timer's runs).
import type { RefreshScheduleAnswer, RefreshScheduleDto, ScheduleSummary } from '../../src/enrichment/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { count } from './format';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const when = inSpreadsheetZone;
const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

const plural = (n: number, noun: string) => `${count(n)} ${noun}${n === 1 ? '' : 's'}`;

/** Reads the shown schedule's status again (set by the view the panel shows). */
let reloadShown: () => Promise<void> = async () => undefined;

/** Reads the schedule's status again after a change made elsewhere (the timer ran it, another editor saved it). */
export function reloadSchedule(): Promise<void> {
  return reloadShown();
}

/**
 * A last run that had nothing to check, in words: every enriched row was newer than the schedule's days (or there was
 * none), and when the first of them is due and which run checks it.
 */
function nothingDueText(schedule: RefreshScheduleDto, last: ScheduleSummary, timeZone: string): string {
  const ran = `Last run ${when(last.at, timeZone)}: nothing to check`;
  const rows = last.freshRows ?? 0;
  if (rows === 0) return `${ran}: no enriched row on the sheet.`;
  const all = rows === 1 ? 'the 1 enriched row was' : `all ${plural(rows, 'enriched row')} were`;
  const newer = `${ran}, as ${all} enriched less than ${plural(schedule.days, 'day')} before (0 lookups, 0 credits).`;
  const due = last.freshDueAt ?? null;
  const next = schedule.nextRunAt;
  if (due === null || next === null) return newer;
  return due <= next
    ? `${newer} The first is due ${when(due, timeZone)}: the next run, ${when(next, timeZone)}, checks it.`
    : `${newer} The first is due ${when(due, timeZone)}: the first run after that checks it.`;
}

/** The schedule in words: when it runs, the next run, the last run's summary and its request share. */
function scheduleLines(schedule: RefreshScheduleDto, timeZone: string): HTMLElement[] {
  const cadence = schedule.cadence === 'weekly' ? `Every ${WEEKDAYS[schedule.weekday]}` : 'On the 1st of every month';
  const last = schedule.lastRun;
  const lastText = !last
    ? 'Not run yet.'
    : last.problem
      ? `Last run ${when(last.at, timeZone)}: ${last.problem}`
      : last.checked === 0
        ? nothingDueText(schedule, last, timeZone)
        : `Last run ${when(last.at, timeZone)}: ${plural(last.changedCells, 'cell')} changed in ${plural(last.changedRows, 'row')}` +
          `${last.keptEdits > 0 ? `, ${plural(last.keptEdits, 'edit')} of yours kept` : ''} (${plural(last.checked, 'domain')} checked).`;
  return [
    h(
      'p',
      { id: 'fresh-schedule-status' },
      `${cadence} after ${hourText(schedule.hour)} (${timeZone}, within the hour), data older than ` +
        `${plural(schedule.days, 'day')}. ` +
        (schedule.unreachableSince !== null
          ? `Service unavailable since ${when(schedule.unreachableSince, timeZone)}, trying again hourly.`
          : schedule.running
            ? 'Running now.'
            : `Next run: ${when(schedule.nextRunAt ?? 0, timeZone)}.`),
    ),
    h('p', { class: 'muted', id: 'fresh-schedule-last' }, lastText),
    h(
      'p',
      { class: 'muted' },
      `Runs with the panels closed and uses at most ${Math.round(schedule.requestShare * 100)} % of the day's lookups; 0 credits.`,
    ),
  ];
}

/**
 * The schedule's controls and status. `days` is the section's "older than" input: a saved schedule takes its value,
 * and a schedule read from the server puts its own days there, so saving it again keeps them.
 */
export function scheduleView(days: HTMLInputElement): HTMLElement {
  const cadence = h(
    'select',
    { id: 'fresh-cadence', 'aria-label': 'Refresh schedule' },
    h('option', { value: 'off' }, 'No schedule'),
    h('option', { value: 'weekly' }, 'Every week'),
    h('option', { value: 'monthly' }, 'Every month'),
  ) as HTMLSelectElement;
  const weekday = h(
    'select',
    { id: 'fresh-weekday', 'aria-label': 'Day of the week' },
    ...WEEKDAYS.map((name, i) => h('option', { value: String(i), selected: i === 1 }, name)),
  ) as HTMLSelectElement;
  const hour = h(
    'select',
    { id: 'fresh-hour', 'aria-label': 'Hour of the day' },
    ...Array.from({ length: 24 }, (_, i) =>
      h('option', { value: String(i), selected: i === 6 }, `after ${hourText(i)}`),
    ),
  ) as HTMLSelectElement;
  const save = h('button', { type: 'button', id: 'fresh-schedule-save' }, 'Save schedule');
  const status = h('div', { id: 'fresh-schedule' });
  const syncWeekday = () => {
    weekday.hidden = cadence.value !== 'weekly';
    hour.hidden = cadence.value === 'off';
  };
  /** Shows an answer; `controls`: also puts the schedule into the controls (not on a reload: the user's choice stays). */
  const show = (answer: RefreshScheduleAnswer, saved = false, controls = true) => {
    if (!answer.ok) return replaceChildren(status, message('warn', answer.message));
    const schedule = answer.schedule;
    if (controls && schedule) {
      cadence.value = schedule.cadence;
      weekday.value = String(schedule.weekday);
      hour.value = String(schedule.hour);
      days.value = String(schedule.days);
    } else if (controls) cadence.value = 'off';
    syncWeekday();
    replaceChildren(
      status,
      saved ? message('ok', schedule ? 'Schedule saved.' : 'Schedule stopped.') : null,
      answer.timerProblem ? message('warn', answer.timerProblem) : null,
      ...(schedule
        ? scheduleLines(schedule, answer.timeZone)
        : [h('p', { class: 'muted' }, `No schedule on "${answer.sheetName}".`)]),
    );
  };
  cadence.addEventListener('change', syncWeekday);
  save.addEventListener('click', () => {
    save.disabled = true;
    server
      .setRefreshSchedule({
        cadence: cadence.value as 'off' | 'weekly' | 'monthly',
        weekday: Number(weekday.value),
        hour: Number(hour.value),
        days: Number(days.value),
      })
      .then(
        (answer) => show(answer, answer.ok),
        (error) => replaceChildren(status, message('error', errorText(error))),
      )
      .finally(() => (save.disabled = false));
  });
  syncWeekday();
  reloadShown = () =>
    server.getRefreshSchedule().then(
      (answer) => (status.isConnected ? show(answer, false, false) : undefined),
      () => undefined,
    );
  server.getRefreshSchedule().then(
    (answer) => show(answer),
    (error) => replaceChildren(status, message('error', errorText(error))),
  );
  return h(
    'div',
    { id: 'fresh-schedule-section' },
    h('h3', {}, 'Schedule'),
    h('div', { class: 'fresh-schedule-row' }, cadence, weekday, hour, save),
    status,
  );
}
