// The Tasks tab's notices about the hidden research ledger: records Sheet Scout does not act on (changed outside it,
// or unreadable), kept in the hidden sheet as they are, and records of this spreadsheet's runs the ledger lost.
import type { ResearchStatusDto } from '../../src/research/contract';
import { h } from '../ui/dom';

const records = (count: number) => `${count} research record${count === 1 ? '' : 's'}`;
const named = (damaged: ResearchStatusDto['damaged']) =>
  damaged.map((record) => record.taskId || record.entryId || '(no id)').join(', ');

/** Ledger records Sheet Scout does not act on: kept in the hidden sheet, named here so nothing is lost silently. */
export function damagedNotice(damaged: ResearchStatusDto['damaged']): HTMLElement {
  const changed = damaged.filter((record) => record.changed);
  const unreadable = damaged.filter((record) => !record.changed);
  const parts = [
    changed.length > 0
      ? `${records(changed.length)} ${changed.length === 1 ? 'was' : 'were'} changed outside Sheet Scout in its hidden ` +
        `sheet "Sheet Scout research ledger" (${named(changed)}): nothing is sent, charged or written for ` +
        `${changed.length === 1 ? 'it' : 'them'}. A task that finished can still be written into a row with "Write to ` +
        'selected row" below.'
      : '',
    unreadable.length > 0
      ? `${records(unreadable.length)} could not be read (${named(unreadable)}). They are kept unchanged in the hidden ` +
        'sheet "Sheet Scout research ledger"; their rows are not updated.'
      : '',
  ];
  return h('div', { class: 'message error', id: 'damaged-records', role: 'alert' }, parts.filter(Boolean).join(' '));
}

/** Records of this spreadsheet's runs the ledger lost (deleted or changed outside Sheet Scout). */
export function lostNotice(lost: number): HTMLElement {
  return h(
    'div',
    { class: 'message error', id: 'lost-records', role: 'alert' },
    `${records(lost)} ${lost === 1 ? 'was' : 'were'} deleted or changed outside Sheet Scout in its hidden ledger ` +
      'sheet: their results are not written here, and Settings > Spending counts them as not collected (what they ' +
      "cost is in your account's task list below).",
  );
}
