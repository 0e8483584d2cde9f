// The "Keep data fresh" section's "Changes": the cells refreshes changed on this sheet in the last N days, newest
// first, each with the row that holds its company now, the column, and the value before and after (service text,
// shown as text). The same values are in the cells' notes; this lists them in one place.
import type { RefreshChangesAnswer } from '../../src/enrichment/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { count } from './format';

const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
const shown = (value: string) => (value === '' ? '(empty)' : value);

function changesList(answer: Extract<RefreshChangesAnswer, { ok: true }>, days: number): HTMLElement[] {
  if (answer.changes.length === 0)
    return [h('p', { class: 'muted' }, `No refresh changed "${answer.sheetName}" in the last ${count(days)} days.`)];
  return [
    h(
      'p',
      { class: 'muted', id: 'fresh-changes-count' },
      `${answer.more ? 'The newest ' : ''}${count(answer.changes.length)} changed cell${answer.changes.length === 1 ? '' : 's'} in the last ${count(days)} days:`,
    ),
    h(
      'ul',
      { id: 'fresh-changes-list' },
      ...answer.changes.map((change) =>
        h(
          'li',
          {},
          h(
            'div',
            { class: 'change-where' },
            `${change.row === null ? 'No row now' : `Row ${change.row}`} · ${change.domain} · ${day(change.at)}`,
          ),
          h('div', {}, `${change.header}: ${shown(change.before)} → ${shown(change.after)}`),
        ),
      ),
    ),
  ];
}

/** The changes' controls (how many days back) and the list. */
export function changesView(): HTMLElement {
  const days = h('input', {
    type: 'number',
    id: 'fresh-changes-days',
    min: '0',
    max: '3650',
    value: '30',
    'aria-label': 'Changes of the last days',
  }) as HTMLInputElement;
  const list = h('div', { id: 'fresh-changes' });
  const show = h('button', { type: 'button', id: 'fresh-changes-show' }, 'Show changes');
  show.addEventListener('click', () => {
    const back = Number(days.value);
    replaceChildren(list, h('p', { class: 'muted' }, 'Reading…'));
    server.getRefreshChanges(back).then(
      (answer) => replaceChildren(list, ...(answer.ok ? changesList(answer, back) : [message('warn', answer.message)])),
      (error) => replaceChildren(list, message('error', errorText(error))),
    );
  });
  return h(
    'div',
    { id: 'fresh-changes-section' },
    h('h3', {}, 'Changes'),
    h(
      'div',
      { class: 'fresh-age' },
      h('label', { for: 'fresh-changes-days' }, 'Last'),
      days,
      h('span', {}, 'days'),
      show,
    ),
    list,
  );
}
