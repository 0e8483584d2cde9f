// The search panel's results: the preview as cards (name and domain, then country, size, founding year, relevance),
// the columns to write, and writing them into a new sheet or appending to one (companies already there skipped);
// what a write did, said where the user is looking.
import type { ColumnChoice, PreviewAnswer, PreviewRow, ResultColumnKey, WriteAnswer } from '../../src/search/contract';
import type { SearchSpec } from '../../src/search/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import type { FailureShown } from './problems';

export type WriteTarget = { kind: 'new' } | { kind: 'append'; sheetId: number };

/** What the results section uses of the panel around it. */
export interface ResultsHost {
  /** The search last previewed, which a write writes; null when none. */
  lastPreview(): { searchId: string; spec: SearchSpec } | null;
  isBusy(): boolean;
  setBusy(busy: boolean): void;
  showProblems(failure: FailureShown): void;
  /** After a write: the panel reloads its sheet lists. */
  afterWrite(): Promise<unknown>;
}

/** What a write (or "Run again") did, in `where`; problems with the form go under their controls. */
export function reportWrite(answer: WriteAnswer, where: HTMLElement, showProblems: (failure: FailureShown) => void) {
  if (!answer.ok) {
    if (answer.problems.length > 0) return showProblems(answer);
    return replaceChildren(where, message('error', answer.message));
  }
  const parts = [
    `${answer.written.toLocaleString('en-US')} compan${answer.written === 1 ? 'y' : 'ies'} written to "${answer.sheet.name}"`,
  ];
  if (answer.skipped > 0) parts.push(`${answer.skipped} already there, skipped`);
  if (answer.addedColumns.length > 0) parts.push(`columns added: ${answer.addedColumns.join(', ')}`);
  replaceChildren(
    where,
    message('ok', `${parts.join('; ')}.`),
    answer.warning ? message('warn', answer.warning) : null,
  );
  where.scrollIntoView({ block: 'nearest' });
}

/** One result as a card: name and domain, then country, size, founding year and relevance (all wrap at 300 px). */
function resultCard(row: PreviewRow): HTMLElement {
  const facts = [
    row.country ? h('span', { 'data-col': 'country' }, row.country) : null,
    row.size ? h('span', { 'data-col': 'size' }, `${row.size} employees`) : null,
    row.founded !== null ? h('span', { 'data-col': 'founded' }, `founded ${row.founded}`) : null,
    row.relevance !== null ? h('span', { 'data-col': 'relevance' }, `relevance ${row.relevance}`) : null,
  ].filter((fact): fact is HTMLSpanElement => fact !== null);
  return h(
    'li',
    { class: 'result' },
    h(
      'div',
      { class: 'result-title' },
      h('strong', { 'data-col': 'name' }, row.name || row.domain),
      ' ',
      h('span', { class: 'muted', 'data-col': 'domain' }, row.domain),
    ),
    h(
      'div',
      { class: 'result-facts muted' },
      ...facts.flatMap((fact, index) => (index === 0 ? [fact] : [' · ', fact])),
    ),
  );
}

export class ResultsSection {
  readonly previewBox = h('div', { id: 'search-preview' });
  private readonly columnBoxes = new Map<ResultColumnKey, HTMLInputElement>();
  /** The column checkboxes: under the write box, or in the list mode while it is shown. */
  readonly columnChooser = h('div', { class: 'columns-grid' });
  readonly writeColumnsSlot = h('div', {}, this.columnChooser);
  readonly appendTarget = h('select', { 'aria-label': 'Sheet to append to' });
  private readonly writeStatus = h('div', { id: 'search-write-status' });
  readonly insertButton = h(
    'button',
    { type: 'button', id: 'search-insert', class: 'primary', onclick: () => void this.write({ kind: 'new' }) },
    'Insert into new sheet',
  );
  readonly appendButton = h(
    'button',
    {
      type: 'button',
      id: 'search-append',
      onclick: () => void this.write({ kind: 'append', sheetId: Number(this.appendTarget.value) }),
    },
    'Append',
  );
  readonly writeBox = h(
    'div',
    { hidden: true, class: 'write' },
    h('h2', {}, 'Write to the spreadsheet'),
    h('div', { class: 'muted' }, 'Values only, with a header row. The search is saved in the header cell’s note.'),
    this.writeColumnsSlot,
    h('div', { class: 'row' }, this.insertButton),
    h('label', {}, 'Or append to (companies already there are skipped)'),
    h('div', { class: 'row' }, this.appendTarget, this.appendButton),
    this.writeStatus,
  );

  constructor(private readonly host: ResultsHost) {}

  /** The column checkboxes, built once from the server's catalogue. */
  showColumnChoices(columns: readonly ColumnChoice[]): void {
    if (this.columnBoxes.size > 0) return;
    for (const column of columns) {
      const box = h('input', {
        type: 'checkbox',
        value: column.key,
        checked: column.byDefault,
        disabled: column.key === 'domain',
      });
      this.columnBoxes.set(column.key, box);
      this.columnChooser.append(h('label', { class: 'check small' }, box, column.label));
    }
  }

  selectedColumns(): ResultColumnKey[] {
    return [...this.columnBoxes].filter(([, box]) => box.checked).map(([key]) => key);
  }

  clear(): void {
    this.writeBox.hidden = true;
    replaceChildren(this.previewBox);
  }

  show(answer: Extract<PreviewAnswer, { ok: true }>): void {
    const { count } = answer;
    replaceChildren(
      this.previewBox,
      h(
        'h2',
        {},
        `${count.toLocaleString('en-US')} result${count === 1 ? '' : 's'}${answer.exhausted ? ' (all matches)' : ''}`,
      ),
      answer.reference
        ? h('div', { class: 'muted' }, `Similar to ${answer.reference.name || answer.reference.domain}`)
        : null,
      count > answer.preview.length ? h('div', { class: 'muted' }, `Showing the first ${answer.preview.length}`) : null,
      h('ol', { class: 'results', 'aria-label': 'Search results' }, ...answer.preview.map(resultCard)),
    );
    this.writeBox.hidden = count === 0;
  }

  private async write(target: WriteTarget): Promise<void> {
    const preview = this.host.lastPreview();
    if (this.host.isBusy() || !preview) return;
    this.host.setBusy(true);
    replaceChildren(this.writeStatus, h('div', { class: 'muted' }, 'Writing…'));
    try {
      const answer = await server.writeCompanySearch({
        searchId: preview.searchId,
        spec: preview.spec,
        columns: this.selectedColumns(),
        target,
      });
      reportWrite(answer, this.writeStatus, (failure) => this.host.showProblems(failure));
      if (answer.ok) await this.host.afterWrite();
    } catch (error) {
      replaceChildren(this.writeStatus, message('error', errorText(error)));
    } finally {
      this.host.setBusy(false);
    }
  }
}
