// The search panel's "Exclude domains": companies already in the active sheet, a column of any sheet, a pasted list
// (counted a moment after typing stops); the count of distinct domains with duplicates removed, what is over the
// service's limit, and values that are not domains. The counting is the server's (summarizeSearchExcludeDomains), so
// domain parsing and the public-suffix list stay out of the page.
import { EXCLUDE_DOMAIN_LIMIT, columnLetter } from '../../src/search/contract';
import type { SearchField } from '../../src/search/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { EMPTY_SUMMARY, pastedEntry, upsertSource, type ExcludeEntry, type ExcludeSummary } from './exclude-sources';

/** How long the pasted list must stay unchanged before the server recounts it. */
const PASTE_DEBOUNCE_MS = 300;

/** What the exclude section uses of the panel around it. */
export interface ExcludeHost {
  showError(text: string): void;
  /** "Similar to a list" is shown: over the limit, the list run removes the others after the call. */
  listActive(): boolean;
  activeSheet(): { id: number; name: string } | null;
  /** The count changed (the list mode's cost depends on it). */
  changed(): void;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

export class ExcludeSection {
  private sources: ExcludeEntry[] = [];
  private summary: ExcludeSummary = EMPTY_SUMMARY;
  private acceptMostRecent = false;
  private pasteTimer: ReturnType<typeof setTimeout> | undefined;
  private round = 0;
  private done: Promise<void> = Promise.resolve();
  private readonly alreadyHere = h('input', { type: 'checkbox', onchange: () => void this.toggleAlreadyHere() });
  private readonly alreadyHereLabel = h('span', {}, 'Exclude companies already in this sheet');
  readonly columnSheet = h('select', {
    'aria-label': 'Sheet to read domains from',
    onchange: () => void this.loadColumns(),
  });
  private readonly columnPick = h('select', { 'aria-label': 'Column with domains' });
  private readonly skipHeader = h('input', { type: 'checkbox', checked: true });
  readonly pasted = h('textarea', {
    placeholder: 'Paste domains or URLs, one per line',
    'aria-label': 'Pasted domains to exclude',
    class: 'short',
  });
  private readonly summaryBox = h('div', { class: 'exclude-summary' });
  private readonly sourceList = h('div', {});

  constructor(private readonly host: ExcludeHost) {
    this.pasted.addEventListener('input', () => {
      clearTimeout(this.pasteTimer);
      this.pasteTimer = setTimeout(() => void this.applyPasted(), PASTE_DEBOUNCE_MS);
    });
  }

  element(slot: (field: SearchField) => HTMLElement): HTMLElement {
    return h(
      'details',
      {},
      h('summary', {}, 'Exclude domains'),
      h('label', { class: 'check' }, this.alreadyHere, this.alreadyHereLabel),
      h('label', {}, 'From a column'),
      h('div', { class: 'row tight' }, this.columnSheet, this.columnPick),
      h(
        'div',
        { class: 'row tight' },
        h('label', { class: 'check small' }, this.skipHeader, 'First row is a header'),
        h('button', { type: 'button', onclick: () => void this.addColumnSource() }, 'Add'),
      ),
      h('label', {}, 'Pasted list'),
      this.pasted,
      this.sourceList,
      this.summaryBox,
      slot('excludeDomains'),
    );
  }

  /** The sources, oldest first, once a pending paste is counted. */
  async settledSources(): Promise<ExcludeEntry[]> {
    await this.settled();
    return this.sources;
  }

  /** Every distinct domain of the sources as the server counted them (the most recent, over the limit). */
  toSend(): string[] {
    return this.summary.toSend;
  }

  /** Settles the list before a search: a pending paste is counted now, a request in flight is awaited. */
  settled(): Promise<void> {
    return this.pasteTimer !== undefined ? this.applyPasted() : this.done;
  }

  /** The active sheet's name in "Exclude companies already in …". */
  showActiveSheet(name: string): void {
    this.alreadyHereLabel.textContent = `Exclude companies already in “${name}”`;
  }

  /** A saved search's exclude list replaces the sources. */
  restore(domains: string[]): void {
    this.alreadyHere.checked = false;
    this.pasted.value = '';
    this.sources =
      domains.length > 0 ? [{ id: 'saved', label: 'Saved search', list: { domains, invalid: [], duplicates: 0 } }] : [];
    this.acceptMostRecent = false;
    void this.update();
  }

  /** A list run excludes every domain (over 1,000 after the call), so the "most recent" choice does not apply. */
  forgetMostRecent(): void {
    if (!this.acceptMostRecent) return;
    this.acceptMostRecent = false;
    void this.update();
  }

  /** Asks the server for the summary of the current sources; an answer overtaken by a newer request is dropped. */
  private update(): Promise<void> {
    clearTimeout(this.pasteTimer);
    this.pasteTimer = undefined;
    const round = ++this.round;
    if (this.sources.length === 0) {
      this.summary = EMPTY_SUMMARY;
      this.render();
      this.done = Promise.resolve();
      return this.done;
    }
    this.done = server
      .summarizeSearchExcludeDomains({ entries: this.sources, acceptMostRecent: this.acceptMostRecent })
      .then(
        (answer) => {
          if (round !== this.round) return;
          this.summary = answer;
          this.render();
        },
        (error: unknown) => {
          if (round === this.round) this.host.showError(errorText(error));
        },
      );
    return this.done;
  }

  private applyPasted(): Promise<void> {
    this.sources =
      this.pasted.value.trim() === ''
        ? this.sources.filter((source) => source.id !== 'pasted')
        : upsertSource(this.sources, pastedEntry(this.pasted.value));
    return this.update();
  }

  render(): void {
    replaceChildren(
      this.sourceList,
      ...this.summary.sources.map((source) =>
        h(
          'div',
          { class: 'source' },
          h('span', {}, `${source.label}: ${source.count}`),
          h('button', { type: 'button', class: 'link', onclick: () => this.removeSource(source.id) }, 'remove'),
        ),
      ),
    );
    replaceChildren(this.summaryBox, ...this.summaryLines());
    this.host.changed();
  }

  private summaryLines(): Array<HTMLElement> {
    const { summary } = this;
    const limit = EXCLUDE_DOMAIN_LIMIT.toLocaleString('en-US');
    const duplicates =
      summary.duplicates > 0 ? ` (${summary.duplicates} duplicate${summary.duplicates === 1 ? '' : 's'} removed)` : '';
    const parts: HTMLElement[] = [
      h('div', { class: 'count' }, `${plural(summary.count, 'domain')} to exclude${duplicates}`),
    ];
    if (summary.overLimit && this.host.listActive()) {
      parts.push(
        message(
          'warn',
          `Over ${limit}: the references and the most recent domains go to the service as its filter, the others are removed from the answers after the call.`,
        ),
      );
    } else if (summary.overLimit) {
      parts.push(
        message(
          'warn',
          summary.overLimitMessage ??
            `Using the ${limit} most recent of ${summary.count.toLocaleString('en-US')} domains.`,
        ),
      );
      if (summary.overLimitMessage !== null) {
        const accept = () => ((this.acceptMostRecent = true), void this.update());
        parts.push(h('button', { type: 'button', onclick: accept }, `Use the ${limit} most recent`));
      }
    }
    for (const invalid of summary.invalid) {
      const more = invalid.values.length > 10 ? ` and ${invalid.values.length - 10} more` : '';
      parts.push(
        message(
          'warn',
          `Not domains in ${invalid.label} (fix them or they are left out): ${invalid.values.slice(0, 10).join(', ')}${more}`,
        ),
      );
    }
    return parts;
  }

  private removeSource(id: string): void {
    this.sources = this.sources.filter((source) => source.id !== id);
    if (id === 'pasted') this.pasted.value = '';
    if (id.startsWith('sheet:')) this.alreadyHere.checked = false;
    this.acceptMostRecent = false;
    void this.update();
  }

  private async toggleAlreadyHere(): Promise<void> {
    const sheet = this.host.activeSheet();
    if (!sheet) return;
    const id = `sheet:${sheet.id}`;
    if (!this.alreadyHere.checked) return this.removeSource(id);
    try {
      const list = await server.getSearchExcludeDomains({ kind: 'sheet', sheetId: sheet.id });
      if ('ok' in list) {
        this.alreadyHere.checked = false;
        return this.host.showError(list.message);
      }
      this.sources = upsertSource(this.sources, { id, label: `Already in ${sheet.name}`, list });
      await this.update();
    } catch (error) {
      this.alreadyHere.checked = false;
      this.host.showError(errorText(error));
    }
  }

  /** The columns of the sheet chosen under "From a column", the one holding domains preselected. */
  async loadColumns(): Promise<void> {
    const sheetId = Number(this.columnSheet.value);
    replaceChildren(this.columnPick);
    if (!Number.isFinite(sheetId)) return;
    try {
      const columns = await server.getSearchSheetColumns(sheetId);
      if ('ok' in columns) return this.host.showError(columns.message);
      replaceChildren(
        this.columnPick,
        ...columns.headers.map((header, index) =>
          h(
            'option',
            { value: index, selected: index === columns.domainColumn },
            `${columnLetter(index + 1)}${header ? `: ${header}` : ''}`,
          ),
        ),
      );
    } catch (error) {
      this.host.showError(errorText(error));
    }
  }

  private async addColumnSource(): Promise<void> {
    const sheetId = Number(this.columnSheet.value);
    const column = Number(this.columnPick.value);
    if (!Number.isFinite(sheetId) || !Number.isFinite(column) || this.columnPick.value === '') return;
    try {
      const list = await server.getSearchExcludeDomains({
        kind: 'column',
        sheetId,
        column,
        skipHeader: this.skipHeader.checked,
      });
      if ('ok' in list) return this.host.showError(list.message);
      const sheetName = this.columnSheet.selectedOptions[0]?.textContent ?? '';
      this.sources = upsertSource(this.sources, {
        id: `column:${sheetId}:${column}`,
        label: `${sheetName} ${columnLetter(column + 1)}`,
        list,
      });
      this.acceptMostRecent = false;
      await this.update();
    } catch (error) {
      this.host.showError(errorText(error));
    }
  }
}
