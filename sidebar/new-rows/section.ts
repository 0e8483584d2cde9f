// The Enrich panel's "Keep enriching new rows" section: what it does (rows added under the list get the sheet's
// enriched fields within two hours, panels closed, 0 credits; rows already there, or cleared or edited by hand, are
// left alone), Turn on / Turn off, and once on, since when, the last check and what it found, the next check, what
// runs it (another editor's timer, or why none can), and research on new rows (research-form.ts). Read from the server
// the first time the section opens, and again when the document changed elsewhere (the timer's checks, another
// editor's panel) unless the user is at work in it; service text is shown as text.
import type { NewRowsAnswer, NewRowsDto } from '../../src/new-rows/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { researchBlock } from './research-form';

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, noun: string) => `${count(n)} ${noun}${n === 1 ? '' : 's'}`;

/** The setting's lines: what it fills, the last and next check, what the last new rows were, any problem. */
function statusLines(setting: NewRowsDto, timeZone: string): Array<HTMLElement | null> {
  const when = (ms: number) => inSpreadsheetZone(ms, timeZone);
  const found = setting.lastFound;
  const foundText = found
    ? `Last new rows ${when(found.at)}: ${plural(found.added, 'row')} found, ${count(found.filled)} filled` +
      (found.waiting > 0 ? `, ${count(found.waiting)} waiting for the service` : '') +
      (found.invalid > 0 ? `, ${count(found.invalid)} without a domain (left alone)` : '') +
      '.'
    : 'No new row yet.';
  return [
    h(
      'p',
      { id: 'new-rows-status' },
      `On since ${when(setting.since)}: new rows of "${setting.sheetName}" (column ${setting.domainColumnLabel}) ` +
        `get ${setting.headers.join(', ')}.`,
    ),
    h(
      'p',
      { class: 'muted', id: 'new-rows-checks' },
      setting.lastCheckAt === null
        ? "Not checked yet: the first check comes at the timer's next run (checks run about hourly, with the panels closed)."
        : `Last check ${when(setting.lastCheckAt)}. Next check after ${when(setting.nextCheckAt)} (checks run about ` +
            'hourly, with the panels closed).',
    ),
    h('p', { class: 'muted', id: 'new-rows-found' }, foundText),
    setting.totals.filled > 0
      ? h('p', { class: 'muted' }, `${plural(setting.totals.filled, 'row')} filled since it was turned on.`)
      : null,
    setting.problem ? message('warn', `Since ${when(setting.problem.since)}: ${setting.problem.text}`) : null,
  ];
}

/** The section the panel shows now (a panel shows one). */
let current: NewRowsSection | null = null;

class NewRowsSection {
  private readonly body = h('div', { id: 'new-rows-body' });
  private notice: HTMLElement | null = null;

  /** Reads the section again after a change elsewhere: once opened, unless the user is typing or confirming in it. */
  async reload(): Promise<void> {
    if (this.body.childElementCount === 0 || !this.body.isConnected) return;
    const active = document.activeElement;
    if (
      (active && this.body.contains(active) && active !== document.body) ||
      this.body.querySelector('#new-rows-research-cost')
    )
      return;
    try {
      this.render(await server.getNewRows());
    } catch {
      // It keeps what it showed; the next change reads it again.
    }
  }

  element(): HTMLElement {
    const section = h('details', { id: 'new-rows' }, h('summary', {}, 'Keep enriching new rows'), this.body);
    section.addEventListener('toggle', () => {
      if (section.open && this.body.childElementCount === 0) void this.load();
    });
    return section;
  }

  private async load(): Promise<void> {
    replaceChildren(this.body, h('p', { class: 'muted' }, 'Reading the sheet…'));
    try {
      this.render(await server.getNewRows());
    } catch (error) {
      replaceChildren(this.body, message('error', errorText(error)));
    }
  }

  private async change(on: boolean, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const answer = await server.setNewRows({ on });
      this.notice = answer.ok
        ? message('ok', on ? 'On: new rows are filled with the panels closed.' : 'Turned off.')
        : message('warn', answer.message);
      if (answer.ok) this.render(answer);
      else this.body.append(this.notice);
    } catch (error) {
      this.body.append(message('error', errorText(error)));
    } finally {
      button.disabled = false;
    }
  }

  render(answer: NewRowsAnswer): void {
    if (!answer.ok) return replaceChildren(this.body, message('warn', answer.message));
    const notice = this.notice;
    this.notice = null;
    const setting = answer.newRows;
    if (!setting) {
      const turnOn = h('button', { type: 'button', class: 'primary', id: 'new-rows-on' }, 'Turn on');
      turnOn.disabled = answer.wouldFill.length === 0;
      turnOn.addEventListener('click', () => void this.change(true, turnOn));
      return replaceChildren(
        this.body,
        notice,
        h(
          'p',
          { class: 'muted', id: 'new-rows-what' },
          `Rows added under the list of "${answer.sheetName}" (typed, pasted, or by a form or another tool) get ` +
            `${answer.wouldFill.length > 0 ? answer.wouldFill.join(', ') : 'its enriched fields'} within two hours, ` +
            'with every panel closed. Lookups cost 0 credits. Rows already there, and cells you clear or edit, are ' +
            'left alone.',
        ),
        answer.wouldFill.length === 0 ? message('warn', `Enrich "${answer.sheetName}" first (Start above).`) : null,
        h('div', { class: 'row' }, turnOn),
      );
    }
    const turnOff = h('button', { type: 'button', id: 'new-rows-off' }, 'Turn off');
    turnOff.addEventListener('click', () => void this.change(false, turnOff));
    replaceChildren(
      this.body,
      notice,
      answer.timerNote ? message('warn', answer.timerNote) : null,
      ...statusLines(setting, answer.timeZone),
      h('div', { class: 'row' }, turnOff),
      researchBlock(setting, answer.timeZone, (next) => this.render(next)),
    );
  }
}

export function newRowsSection(): HTMLElement {
  current = new NewRowsSection();
  return current.element();
}

/** Reads the shown section again after a change made elsewhere. */
export async function reloadNewRows(): Promise<void> {
  await current?.reload();
}
