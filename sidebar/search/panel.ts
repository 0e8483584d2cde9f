// The company search panel: Describe / Similar to / Similar to a list (list-mode.ts), the filters and how many
// results (search-form.ts), the exclude-domains list with its count (exclude-section.ts), the preview and writing it
// into a new sheet or appending to one (results-section.ts), and "Run again" for a sheet a search created
// (saved-search.ts). Describe and Similar to share their filters; "Similar to a list" has its own (one set carried
// into the other would narrow a run nobody set it for). Problems found by the server (checkSpec) or by the service
// (422 detail) are shown under the control that caused them (problems.ts). Server code is imported for its types only, apart from the contract's
// dependency-free limits.
import { PAID_DEPTH } from '../../src/search/contract';
import type { FilterForm, SearchMode, SearchPanelState, SearchSpec } from '../../src/search/contract';
import { errorText, server } from '../bridge';
import { h, replaceChildren } from '../ui/dom';
import { panelHeader, refreshCredits } from '../ui/credits-badge';
import { listMode, type ListMode } from './list-mode';
import { Problems } from './problems';
import { SearchForm } from './search-form';
import { ExcludeSection } from './exclude-section';
import { ResultsSection } from './results-section';
import { SavedSearchBox } from './saved-search';

class SearchPanel {
  private state: SearchPanelState | null = null;
  private mode: SearchMode = 'describe';
  /** "Similar to a list" is shown (mode keeps the search mode to return to). */
  private listActive = false;
  private lastPreview: { searchId: string; spec: SearchSpec } | null = null;
  private busy = false;
  private readonly problems: Problems;
  private readonly form: SearchForm;
  private readonly exclude: ExcludeSection;
  private readonly results: ResultsSection;
  private readonly saved: SavedSearchBox;
  private readonly list: ListMode;
  private readonly searchButton = h(
    'button',
    { type: 'button', id: 'search-run', class: 'primary', onclick: () => void this.runPreview() },
    'Search',
  );
  private readonly searchControls: HTMLElement;
  /** The filters of the modes not shown: Describe and Similar to's, or the list's (none at first). */
  private otherFilters: FilterForm;

  constructor(private readonly root: HTMLElement) {
    this.problems = new Problems(root);
    const slot = this.problems.slot.bind(this.problems);
    this.form = new SearchForm(slot, (mode) => this.setMode(mode));
    this.exclude = new ExcludeSection({
      showError: (text) => this.problems.showStatus('error', text),
      listActive: () => this.listActive,
      activeSheet: () => this.state?.activeSheet ?? null,
      changed: () => this.list?.refresh(),
    });
    this.problems.setControls({ ...this.form.controls(), excludeDomains: this.exclude.pasted });
    const host = {
      isBusy: () => this.busy,
      setBusy: (busy: boolean) => this.setBusy(busy),
      showProblems: this.problems.show.bind(this.problems),
      lastPreview: () => this.lastPreview,
      afterWrite: () => this.refreshState(),
    };
    this.results = new ResultsSection(host);
    this.saved = new SavedSearchBox(host, (spec) => this.fillForm(spec));
    this.list = this.listModeOf(slot);
    this.searchControls = h('div', {}, ...this.form.countControls(slot), h('div', { class: 'row' }, this.searchButton));
    this.otherFilters = this.form.filters([]);
  }

  private listModeOf(slot: Problems['slot']): ListMode {
    return listMode({
      filters: () => this.form.filters(this.exclude.toSend()),
      excludeSources: () => this.exclude.settledSources(),
      excludedDomains: () => this.exclude.toSend(),
      columns: () => this.results.selectedColumns(),
      depth: () => this.state?.depth ?? PAID_DEPTH,
      slot: slot.bind(this.problems),
      showProblems: (failure) => this.problems.show(failure),
      clearProblems: () => this.problems.clear(),
      setBusy: (next) => this.setBusy(next),
      isBusy: () => this.busy,
      afterWrite: async () => void (await this.refreshState()),
    });
  }

  mount(): void {
    const { form, list, results } = this;
    replaceChildren(
      this.root,
      panelHeader('Company search'),
      this.saved.element,
      this.saved.status,
      form.modeTabs(),
      form.describeBox,
      form.similarBox,
      list.element,
      form.filtersSection(this.problems.slot.bind(this.problems)),
      this.exclude.element(this.problems.slot.bind(this.problems)),
      this.searchControls,
      list.runPart,
      this.problems.slot('form'),
      this.problems.status,
      results.previewBox,
      results.writeBox,
    );
    this.exclude.render();
    // Coming back to the panel after clicking in the grid: pick up the new active sheet and selection.
    window.addEventListener('focus', () => {
      if (!this.busy) this.syncWithSheet().catch((error: unknown) => this.showError(error));
    });
    void this.syncWithSheet()
      .then(() => this.exclude.loadColumns())
      .catch((error: unknown) => this.showError(error));
  }

  private showError(error: unknown): void {
    this.problems.showStatus('error', errorText(error));
  }

  private setMode(next: SearchMode | 'list'): void {
    const wasList = this.listActive;
    this.listActive = next === 'list';
    if (next !== 'list') this.mode = next;
    this.form.showMode(next);
    const { list, results } = this;
    list.element.hidden = next !== 'list';
    list.runPart.hidden = next !== 'list';
    this.searchControls.hidden = next === 'list';
    results.previewBox.hidden = next === 'list';
    results.writeBox.hidden = next === 'list' || this.lastPreview === null;
    (next === 'list' ? list.columnsSlot : results.writeColumnsSlot).append(results.columnChooser);
    if (this.listActive !== wasList) {
      this.exclude.forgetMostRecent();
      const left = this.form.filters([]);
      this.form.setFilters(this.otherFilters);
      this.otherFilters = left;
    }
  }

  private fillForm(spec: SearchSpec): void {
    this.setMode(spec.mode);
    this.form.fill(spec);
    this.exclude.restore(spec.filters.excludeDomains);
  }

  private setBusy(next: boolean, label?: string): void {
    this.busy = next;
    const { results } = this;
    for (const button of [this.searchButton, results.insertButton, results.appendButton, this.list.runButton])
      button.disabled = next;
    if (next && label) this.problems.showNote(label);
  }

  private applyDepth(depth: number): void {
    this.form.applyDepth(depth);
    this.list.refresh();
  }

  private async runPreview(): Promise<void> {
    const state = this.state;
    if (this.busy || !state) return;
    this.problems.clear();
    this.setBusy(true, 'Searching…');
    try {
      await this.exclude.settled();
      const spec = this.form.spec(this.mode, this.exclude.toSend());
      const answer = await server.previewCompanySearch(spec);
      if (!answer.ok) {
        this.lastPreview = null;
        this.results.clear();
        return this.problems.show(answer);
      }
      this.lastPreview = { searchId: answer.searchId, spec };
      void refreshCredits();
      state.depth = answer.depth;
      this.applyDepth(answer.depth);
      this.results.show(answer);
      this.form.setSuggestions(answer.suggestions);
      this.problems.showWarning(answer.warning);
    } catch (error) {
      this.showError(error);
    } finally {
      this.setBusy(false);
    }
  }

  /** The sheets, the plan's depth, the active sheet and its saved search, as the server sees them now. */
  private async refreshState(): Promise<SearchPanelState> {
    const current = await server.getSearchPanelState();
    this.state = current;
    this.applyDepth(current.depth);
    this.results.showColumnChoices(current.columns);
    // Keep what the user picked in the sheet lists while that sheet still exists; default to the active sheet.
    const keep = (select: HTMLSelectElement): number => {
      const picked = select.value === '' ? NaN : Number(select.value);
      return current.sheets.some((sheet) => sheet.id === picked) ? picked : current.activeSheet.id;
    };
    const options = (selected: number) =>
      current.sheets.map((sheet) => h('option', { value: sheet.id, selected: sheet.id === selected }, sheet.name));
    const { appendTarget } = this.results;
    const { columnSheet } = this.exclude;
    const columnSheetBefore = columnSheet.value;
    replaceChildren(appendTarget, ...options(keep(appendTarget)));
    replaceChildren(columnSheet, ...options(keep(columnSheet)));
    if (columnSheet.value !== columnSheetBefore && columnSheetBefore !== '') void this.exclude.loadColumns();
    this.exclude.showActiveSheet(current.activeSheet.name);
    this.saved.show(current);
    if (!current.connected) this.problems.showStatus('warn', 'Set up Sheet Scout: Extensions > Sheet Scout > Settings');
    return current;
  }

  /** The state again, and the reference follows the selected cell until the user types their own. */
  private async syncWithSheet(): Promise<void> {
    const loaded = await this.refreshState();
    this.form.followSelection(loaded.selectedDomain);
  }
}

export function mountSearchPanel(root: HTMLElement): void {
  new SearchPanel(root).mount();
  void refreshCredits();
}
