// The Settings panel's "Spreadsheets Sheet Scout keeps current": the spreadsheets holding the user's timers (Google
// allows 20 per account), each with what keeps its timer (a scheduled refresh, an account watch, research or an
// enrichment running) and when its next run is due, linked; above them, while they wait for the user's authorization
// (an update needs more), the link that gives it. One element kept across the panel's re-renders; it loads its own
// state.
import type { KeptSpreadsheets } from '../../src/account/contract';
import { server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { selfLoadingSection } from './self-loading';
import { authorizationNotice } from '../ui/authorization-notice';

const section = h('section', { id: 'kept-spreadsheets' });

function entry(spreadsheet: KeptSpreadsheets['spreadsheets'][number], timeZone: string): HTMLElement {
  const name = /^https:\/\//.test(spreadsheet.url)
    ? h('a', { href: spreadsheet.url, target: '_blank', rel: 'noopener' }, spreadsheet.name)
    : h('span', {}, spreadsheet.name);
  const next =
    spreadsheet.nextRunAt === null ? 'running now' : `next run ${inSpreadsheetZone(spreadsheet.nextRunAt, timeZone)}`;
  return h(
    'li',
    {},
    name,
    spreadsheet.here ? h('span', { class: 'muted' }, ' (this one)') : null,
    h('div', { class: 'muted' }, `${spreadsheet.keptBy}; ${next}`),
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

/** The section (loads its state the first time it is shown). */
export const keptSpreadsheetsSection = selfLoadingSection(section, {
  load: () => server.getKeptSpreadsheets(),
  render,
  failed: (problem) => render(null, problem),
});
