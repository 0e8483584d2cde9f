// "Run again" for a sheet a search created: what the search was, its filters, "Run again" (adds the companies not in
// the sheet yet) and "Edit as new search" (fills the form from it).
import type { SavedSearch, SearchPanelState, SearchSpec } from '../../src/search/contract';
import { errorText, server } from '../bridge';
import { refreshCredits } from '../ui/credits-badge';
import { h, message, replaceChildren } from '../ui/dom';
import { reportWrite, type ResultsHost } from './results-section';

export class SavedSearchBox {
  readonly element = h('div', { class: 'saved' });
  /** Outside the box, which is drawn again whenever the panel regains focus. */
  readonly status = h('div', { id: 'search-rerun-status' });

  constructor(
    private readonly host: Pick<ResultsHost, 'isBusy' | 'setBusy' | 'showProblems'>,
    private readonly edit: (spec: SearchSpec) => void,
  ) {}

  show(state: SearchPanelState): void {
    const saved: SavedSearch | null = state.savedSearch;
    if (!saved) {
      replaceChildren(this.status);
      return replaceChildren(this.element);
    }
    const sheet = state.activeSheet;
    const what = saved.spec.mode === 'describe' ? `“${saved.spec.query}”` : `similar to ${saved.spec.reference}`;
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'saved-box' },
        h('div', {}, `“${sheet.name}” came from a search: ${what}`),
        h('div', { class: 'muted' }, state.savedFilters ?? ''),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            { type: 'button', id: 'search-rerun', class: 'primary', onclick: () => void this.rerun(sheet.id) },
            'Run again',
          ),
          h('button', { type: 'button', onclick: () => this.edit(saved.spec) }, 'Edit as new search'),
        ),
        h('div', { class: 'muted' }, 'Run again adds the companies that are not in the sheet yet.'),
      ),
    );
  }

  private async rerun(sheetId: number): Promise<void> {
    const { host, status } = this;
    if (host.isBusy()) return;
    host.setBusy(true);
    replaceChildren(status, h('div', { class: 'muted' }, 'Running the search again…'));
    try {
      reportWrite(await server.runCompanySearchAgain(sheetId), status, (failure) => host.showProblems(failure));
      void refreshCredits();
    } catch (error) {
      replaceChildren(status, message('error', errorText(error)));
    } finally {
      host.setBusy(false);
    }
  }
}
