// The Settings panel's "Spreadsheets Sheet Scout keeps current": the spreadsheets holding the user's timers (Google
// allows 20 per account), linked, each with every work that keeps its timer and its state as it is (a scheduled
// refresh or an account watch with its next run, new rows checked at every run of the timer, research or an
// enrichment under way) and when its timer next runs; above them, while they wait for the user's authorization (an
// update needs more), the link that gives it. One element kept across the panel's re-renders; it loads its own state,
// and reads it again when the document changed elsewhere.
import type { KeptSpreadsheets } from '../../src/account/contract';
import { server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { selfLoadingSection } from './self-loading';
import { authorizationNotice } from '../ui/authorization-notice';

type Kept = KeptSpreadsheets['spreadsheets'][number];

const section = h('section', { id: 'kept-spreadsheets' });

/** What a work done at every run of the timer (or due at its next one) is doing, in words. */
const AT_EACH_RUN: Record<Kept['work'][number]['feature'], string> = {
  newRows: 'checked at every run of the timer',
  research: 'results collected at every run of the timer',
  enrichment: 'continues at every run of the timer',
  refresh: 'a run is due or under way: it goes on at the timer’s next run',
  watch: 'a run is due or under way: it goes on at the timer’s next run',
  digest: 'a post is due at the timer’s next run',
};

/** What a work waiting for a time does then ("next run Mon, Nov 30, 06:00 AM"). */
const AT_TIME: Record<Kept['work'][number]['feature'], string> = {
  newRows: 'next check after',
  research: 'next check after',
  enrichment: 'continues after',
  refresh: 'next run',
  watch: 'next run',
  digest: 'next post',
};

/** "Timer: every minute." (a script bound to the spreadsheet) or "Timer: every hour, next run about 11:05 AM." */
function timerLine(spreadsheet: Kept, timeZone: string): string {
  if (spreadsheet.cadence === 'minute') return 'Timer: every minute.';
  const next =
    spreadsheet.timerNextAt === null
      ? 'next run within the hour'
      : `next run about ${inSpreadsheetZone(spreadsheet.timerNextAt, timeZone)}`;
  return `Timer: every hour, ${next}.`;
}

function entry(spreadsheet: Kept, timeZone: string): HTMLElement {
  const name = /^https:\/\//.test(spreadsheet.url)
    ? h('a', { href: spreadsheet.url, target: '_blank', rel: 'noopener' }, spreadsheet.name)
    : h('span', {}, spreadsheet.name);
  const work = spreadsheet.work.map((item) =>
    h(
      'li',
      { 'data-feature': item.feature },
      `${item.what.charAt(0).toUpperCase()}${item.what.slice(1)}: ` +
        (item.at === null
          ? AT_EACH_RUN[item.feature]
          : `${AT_TIME[item.feature]} ${inSpreadsheetZone(item.at, timeZone)}`) +
        '.',
    ),
  );
  return h(
    'li',
    { class: 'kept' },
    name,
    spreadsheet.here ? h('span', { class: 'muted' }, ' (this one)') : null,
    work.length > 0
      ? h('ul', { class: 'muted kept-work' }, ...work)
      : h('div', { class: 'muted' }, 'Finishing its work.'),
    h('div', { class: 'muted kept-timer' }, timerLine(spreadsheet, timeZone)),
  );
}

function render(kept: KeptSpreadsheets | null, problem?: string): void {
  replaceChildren(
    section,
    h('h2', {}, 'Spreadsheets Sheet Scout keeps current'),
    problem ? message('error', problem) : null,
    kept?.authorization ? authorizationNotice(kept.authorization) : null,
    !kept
      ? problem
        ? null
        : h('p', { class: 'muted' }, 'Loading…')
      : kept.spreadsheets.length === 0
        ? h('p', { class: 'muted', id: 'kept-none' }, 'None: no schedule, watch or job runs with the panels closed.')
        : h('ul', { id: 'kept-list' }, ...kept.spreadsheets.map((spreadsheet) => entry(spreadsheet, kept.timeZone))),
    kept
      ? h(
          'p',
          { class: 'muted', id: 'kept-limit' },
          `${kept.spreadsheets.length} of the ${kept.limit} timers Google allows your account. Each keeps one ` +
            'spreadsheet current with the panels closed; stopping its schedule or watch frees it.',
        )
      : null,
  );
}

/** The section (loads its state the first time it is shown; `reload` after a change elsewhere). */
export const keptSpreadsheetsSection = selfLoadingSection(section, {
  load: () => server.getKeptSpreadsheets(),
  render,
  failed: (problem) => render(null, problem),
});
