// The company search panel: Describe / Similar to / Similar to a list (list-mode.ts), filters as form controls, the
// exclude-domains list with its count, how many results, the preview table, and writing into a new sheet or appending
// to one; "Run again" for a sheet a search created. Problems found by the server (checkSpec) or by the service (422 detail) are shown under the
// control that caused them. The exclude-domains count comes from the server (summarizeSearchExcludeDomains) so domain
// parsing and the public-suffix list stay out of the page; server code is imported for its types only, apart from the
// dependency-free limits and the service's size buckets.
import { SIZE_BUCKETS, type SizeBucket } from '../../src/api/types';
import type { PreviewRow, ResultColumnKey } from '../../src/search/contract';
import { EXCLUDE_DOMAIN_LIMIT, FREE_DEPTH, PAID_DEPTH } from '../../src/search/contract';
import type { ColumnChoice, Failure, PreviewAnswer, SearchPanelState, WriteAnswer } from '../../src/search/contract';
import type { SavedSearch } from '../../src/search/contract';
import type { SearchField, SearchMode, SearchSpec } from '../../src/search/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { panelHeader, refreshCredits } from '../ui/credits-badge';
import { chipInput } from './chips';
import { listMode } from './list-mode';
import { EMPTY_SUMMARY, pastedEntry, upsertSource, type ExcludeEntry, type ExcludeSummary } from './exclude-sources';
import { columnLetter } from '../../src/search/contract';

const DEFAULT_COUNT = 100;
/** How long the pasted list must stay unchanged before the server recounts it. */
const PASTE_DEBOUNCE_MS = 300;

function yearValue(input: HTMLInputElement): number | null {
  const text = input.value.trim();
  return text === '' ? null : Number(text);
}

export function mountSearchPanel(root: HTMLElement): void {
  let state: SearchPanelState | null = null;
  let mode: SearchMode = 'describe';
  /** "Similar to a list" is shown (mode keeps the search mode to return to). */
  let listActive = false;
  let sources: ExcludeEntry[] = [];
  let summary: ExcludeSummary = EMPTY_SUMMARY;
  let acceptMostRecent = false;
  let lastPreview: { searchId: string; spec: SearchSpec } | null = null;
  let busy = false;

  const errorSlots = new Map<SearchField, HTMLElement>();
  const slot = (field: SearchField): HTMLElement => {
    const element = h('div', { class: 'field-error', 'data-field': field, role: 'alert' });
    errorSlots.set(field, element);
    return element;
  };

  // --- Run again (a sheet a search created) ---
  const savedBox = h('div', { class: 'saved' });
  // Outside savedBox, which is re-rendered whenever the panel regains focus.
  const rerunStatus = h('div', { id: 'search-rerun-status' });

  // --- Mode ---
  const describeTab = h(
    'button',
    {
      type: 'button',
      id: 'mode-describe',
      class: 'tab active',
      'aria-pressed': 'true',
      onclick: () => setMode('describe'),
    },
    'Describe',
  );
  const similarTab = h(
    'button',
    { type: 'button', id: 'mode-similar', class: 'tab', 'aria-pressed': 'false', onclick: () => setMode('similar') },
    'Similar to',
  );
  const listTab = h(
    'button',
    { type: 'button', id: 'mode-list', class: 'tab', 'aria-pressed': 'false', onclick: () => setMode('list') },
    'Similar to a list',
  );
  const query = h('textarea', {
    id: 'search-query',
    placeholder: 'e.g. B2B payments APIs for marketplaces',
    'aria-label': 'Describe the companies',
  });
  const reference = h('input', {
    type: 'text',
    id: 'search-reference',
    placeholder: 'stripe.com',
    'aria-label': 'Reference company domain',
  });
  const referenceHint = h('div', { class: 'muted' });
  const describeBox = h(
    'div',
    {},
    h('label', { for: 'search-query' }, 'Describe the companies you want'),
    query,
    slot('query'),
  );
  const similarBox = h(
    'div',
    { hidden: true },
    h('label', { for: 'search-reference' }, 'Companies similar to'),
    reference,
    referenceHint,
    slot('reference'),
  );

  const setMode = (next: SearchMode | 'list'): void => {
    const wasList = listActive;
    listActive = next === 'list';
    if (next !== 'list') mode = next;
    for (const [tab, tabMode] of [
      [describeTab, 'describe'],
      [similarTab, 'similar'],
      [listTab, 'list'],
    ] as const) {
      tab.classList.toggle('active', next === tabMode);
      tab.setAttribute('aria-pressed', String(next === tabMode));
    }
    describeBox.hidden = next !== 'describe';
    similarBox.hidden = next !== 'similar';
    list.element.hidden = next !== 'list';
    list.runPart.hidden = next !== 'list';
    searchControls.hidden = next === 'list';
    previewBox.hidden = next === 'list';
    writeBox.hidden = next === 'list' || lastPreview === null;
    (next === 'list' ? list.columnsSlot : writeColumnsSlot).append(columnChooser);
    // A list run excludes every domain (over 1,000 after the call), so the "most recent" choice does not apply.
    if (listActive !== wasList && acceptMostRecent) {
      acceptMostRecent = false;
      void updateExclude();
    }
  };

  // --- Filters ---
  const sizeMode = h(
    'select',
    { 'aria-label': 'Size filter mode' },
    h('option', { value: 'include' }, 'Only these sizes'),
    h('option', { value: 'exclude' }, 'All sizes except'),
  );
  const sizeBoxes = new Map<SizeBucket, HTMLInputElement>();
  const sizeGrid = h(
    'div',
    { class: 'size-grid' },
    ...SIZE_BUCKETS.map((bucket) => {
      const box = h('input', { type: 'checkbox', value: bucket, 'aria-label': `${bucket} employees` });
      sizeBoxes.set(bucket, box);
      return h('label', { class: 'size' }, box, bucket);
    }),
  );
  const includeCountries = chipInput('Countries to include', 'Include country', () => undefined);
  const excludeCountries = chipInput('Countries to exclude', 'Exclude country', () => undefined);
  const includeCities = chipInput('Cities to include', 'Include city', () => undefined);
  const excludeCities = chipInput('Cities to exclude', 'Exclude city', () => undefined);
  const foundedFrom = h('input', {
    type: 'number',
    min: 1600,
    step: 1,
    placeholder: 'from',
    'aria-label': 'Founded from',
  });
  const foundedTo = h('input', { type: 'number', min: 1600, step: 1, placeholder: 'to', 'aria-label': 'Founded to' });

  // --- Exclude domains ---
  const alreadyHere = h('input', { type: 'checkbox', onchange: () => void toggleAlreadyHere() });
  const alreadyHereLabel = h('span', {}, 'Exclude companies already in this sheet');
  const columnSheet = h('select', { 'aria-label': 'Sheet to read domains from', onchange: () => void loadColumns() });
  const columnPick = h('select', { 'aria-label': 'Column with domains' });
  const skipHeader = h('input', { type: 'checkbox', checked: true });
  const pasted = h('textarea', {
    placeholder: 'Paste domains or URLs, one per line',
    'aria-label': 'Pasted domains to exclude',
    class: 'short',
  });
  const excludeSummary = h('div', { class: 'exclude-summary' });
  const sourceList = h('div', {});
  let pasteTimer: ReturnType<typeof setTimeout> | undefined;
  let summaryRound = 0;
  let summaryDone: Promise<void> = Promise.resolve();

  /** Asks the server for the summary of the current sources; an answer overtaken by a newer request is dropped. */
  const updateExclude = (): Promise<void> => {
    clearTimeout(pasteTimer);
    pasteTimer = undefined;
    const round = ++summaryRound;
    if (sources.length === 0) {
      summary = EMPTY_SUMMARY;
      renderExclude();
      summaryDone = Promise.resolve();
    } else {
      summaryDone = server.summarizeSearchExcludeDomains({ entries: sources, acceptMostRecent }).then(
        (answer) => {
          if (round !== summaryRound) return;
          summary = answer;
          renderExclude();
        },
        (error: unknown) => {
          if (round === summaryRound) showStatus('error', errorText(error));
        },
      );
    }
    return summaryDone;
  };

  const applyPasted = (): Promise<void> => {
    sources =
      pasted.value.trim() === ''
        ? sources.filter((source) => source.id !== 'pasted')
        : upsertSource(sources, pastedEntry(pasted.value));
    return updateExclude();
  };
  pasted.addEventListener('input', () => {
    clearTimeout(pasteTimer);
    pasteTimer = setTimeout(() => void applyPasted(), PASTE_DEBOUNCE_MS);
  });
  /** Settles the exclude list before a search: a pending paste is counted now, a request in flight is awaited. */
  const excludeSettled = (): Promise<void> => (pasteTimer !== undefined ? applyPasted() : summaryDone);

  const renderExclude = (): void => {
    replaceChildren(
      sourceList,
      ...summary.sources.map((source) =>
        h(
          'div',
          { class: 'source' },
          h('span', {}, `${source.label}: ${source.count}`),
          h('button', { type: 'button', class: 'link', onclick: () => removeSource(source.id) }, 'remove'),
        ),
      ),
    );
    const parts: Array<HTMLElement | string> = [];
    parts.push(
      h(
        'div',
        { class: 'count' },
        `${summary.count.toLocaleString('en-US')} domain${summary.count === 1 ? '' : 's'} to exclude${summary.duplicates > 0 ? ` (${summary.duplicates} duplicate${summary.duplicates === 1 ? '' : 's'} removed)` : ''}`,
      ),
    );
    if (summary.overLimit && listActive) {
      parts.push(
        message(
          'warn',
          `Over ${EXCLUDE_DOMAIN_LIMIT.toLocaleString('en-US')}: the references and the most recent domains go to the service as its filter, the others are removed from the answers after the call.`,
        ),
      );
    } else if (summary.overLimit) {
      parts.push(
        message(
          'warn',
          summary.overLimitMessage ??
            `Using the ${EXCLUDE_DOMAIN_LIMIT.toLocaleString('en-US')} most recent of ${summary.count.toLocaleString('en-US')} domains.`,
        ),
      );
      if (summary.overLimitMessage !== null) {
        parts.push(
          h(
            'button',
            { type: 'button', onclick: () => ((acceptMostRecent = true), void updateExclude()) },
            `Use the ${EXCLUDE_DOMAIN_LIMIT.toLocaleString('en-US')} most recent`,
          ),
        );
      }
    }
    for (const invalid of summary.invalid) {
      parts.push(
        message(
          'warn',
          `Not domains in ${invalid.label} (fix them or they are left out): ${invalid.values.slice(0, 10).join(', ')}${invalid.values.length > 10 ? ` and ${invalid.values.length - 10} more` : ''}`,
        ),
      );
    }
    replaceChildren(excludeSummary, ...parts);
    list.refresh();
  };

  const removeSource = (id: string): void => {
    sources = sources.filter((source) => source.id !== id);
    if (id === 'pasted') pasted.value = '';
    if (id.startsWith('sheet:')) alreadyHere.checked = false;
    acceptMostRecent = false;
    void updateExclude();
  };

  const toggleAlreadyHere = async (): Promise<void> => {
    if (!state) return;
    const id = `sheet:${state.activeSheet.id}`;
    if (!alreadyHere.checked) return removeSource(id);
    try {
      const list = await server.getSearchExcludeDomains({ kind: 'sheet', sheetId: state.activeSheet.id });
      sources = upsertSource(sources, { id, label: `Already in ${state.activeSheet.name}`, list });
      await updateExclude();
    } catch (error) {
      alreadyHere.checked = false;
      showStatus('error', errorText(error));
    }
  };

  const loadColumns = async (): Promise<void> => {
    const sheetId = Number(columnSheet.value);
    replaceChildren(columnPick);
    if (!Number.isFinite(sheetId)) return;
    try {
      const columns = await server.getSearchSheetColumns(sheetId);
      replaceChildren(
        columnPick,
        ...columns.headers.map((header, index) =>
          h(
            'option',
            { value: index, selected: index === columns.domainColumn },
            `${columnLetter(index + 1)}${header ? `: ${header}` : ''}`,
          ),
        ),
      );
    } catch (error) {
      showStatus('error', errorText(error));
    }
  };

  const addColumnSource = async (): Promise<void> => {
    const sheetId = Number(columnSheet.value);
    const column = Number(columnPick.value);
    if (!Number.isFinite(sheetId) || !Number.isFinite(column) || columnPick.value === '') return;
    try {
      const list = await server.getSearchExcludeDomains({
        kind: 'column',
        sheetId,
        column,
        skipHeader: skipHeader.checked,
      });
      const sheetName = columnSheet.selectedOptions[0]?.textContent ?? '';
      sources = upsertSource(sources, {
        id: `column:${sheetId}:${column}`,
        label: `${sheetName} ${columnLetter(column + 1)}`,
        list,
      });
      acceptMostRecent = false;
      await updateExclude();
    } catch (error) {
      showStatus('error', errorText(error));
    }
  };

  // --- How many, search ---
  const count = h('input', {
    type: 'number',
    id: 'search-count',
    min: 1,
    step: 1,
    value: DEFAULT_COUNT,
    'aria-label': 'How many results',
  });
  const countHint = h('span', { class: 'muted' });
  const searchButton = h(
    'button',
    { type: 'button', id: 'search-run', class: 'primary', onclick: () => void runPreview() },
    'Search',
  );
  const searchControls = h(
    'div',
    {},
    h('label', { for: 'search-count' }, 'How many results'),
    h('div', { class: 'row tight' }, count, countHint),
    slot('count'),
    h('div', { class: 'row' }, searchButton),
  );
  const status = h('div', { id: 'search-status' });
  const showStatus = (kind: 'error' | 'ok' | 'warn', text: string): void =>
    replaceChildren(status, message(kind, text));

  // --- Preview and write ---
  const previewBox = h('div', { id: 'search-preview' });
  const columnBoxes = new Map<ResultColumnKey, HTMLInputElement>();
  const columnChooser = h('div', { class: 'columns-grid' });
  /** The column checkboxes, built once from the server's catalogue. */
  const renderColumnChooser = (columns: readonly ColumnChoice[]): void => {
    if (columnBoxes.size > 0) return;
    for (const column of columns) {
      const box = h('input', {
        type: 'checkbox',
        value: column.key,
        checked: column.byDefault,
        disabled: column.key === 'domain',
      });
      columnBoxes.set(column.key, box);
      columnChooser.append(h('label', { class: 'check small' }, box, column.label));
    }
  };
  const writeColumnsSlot = h('div', {}, columnChooser);
  const appendTarget = h('select', { 'aria-label': 'Sheet to append to' });
  const writeStatus = h('div', { id: 'search-write-status' });
  const insertButton = h(
    'button',
    { type: 'button', id: 'search-insert', class: 'primary', onclick: () => void write({ kind: 'new' }) },
    'Insert into new sheet',
  );
  const appendButton = h(
    'button',
    {
      type: 'button',
      id: 'search-append',
      onclick: () => void write({ kind: 'append', sheetId: Number(appendTarget.value) }),
    },
    'Append',
  );
  const writeBox = h(
    'div',
    { hidden: true, class: 'write' },
    h('h2', {}, 'Write to the spreadsheet'),
    h('div', { class: 'muted' }, 'Values only, with a header row. The search is saved in the header cell’s note.'),
    writeColumnsSlot,
    h('div', { class: 'row' }, insertButton),
    h('label', {}, 'Or append to (companies already there are skipped)'),
    h('div', { class: 'row' }, appendTarget, appendButton),
    writeStatus,
  );

  const currentSpec = (): SearchSpec => ({
    mode,
    query: query.value,
    reference: reference.value,
    count: Number(count.value),
    filters: {
      sizes: SIZE_BUCKETS.filter((bucket) => sizeBoxes.get(bucket)?.checked),
      sizeMode: sizeMode.value === 'exclude' ? 'exclude' : 'include',
      includeCountries: includeCountries.values(),
      excludeCountries: excludeCountries.values(),
      includeCities: includeCities.values(),
      excludeCities: excludeCities.values(),
      foundedFrom: yearValue(foundedFrom),
      foundedTo: yearValue(foundedTo),
      excludeDomains: summary.toSend,
    },
  });

  const fillForm = (spec: SearchSpec): void => {
    setMode(spec.mode);
    query.value = spec.query;
    reference.value = spec.reference;
    count.value = String(spec.count);
    sizeMode.value = spec.filters.sizeMode;
    for (const [bucket, box] of sizeBoxes) box.checked = spec.filters.sizes.includes(bucket);
    includeCountries.setValues(spec.filters.includeCountries);
    excludeCountries.setValues(spec.filters.excludeCountries);
    includeCities.setValues(spec.filters.includeCities);
    excludeCities.setValues(spec.filters.excludeCities);
    foundedFrom.value = spec.filters.foundedFrom === null ? '' : String(spec.filters.foundedFrom);
    foundedTo.value = spec.filters.foundedTo === null ? '' : String(spec.filters.foundedTo);
    alreadyHere.checked = false;
    pasted.value = '';
    sources =
      spec.filters.excludeDomains.length > 0
        ? [
            {
              id: 'saved',
              label: 'Saved search',
              list: { domains: spec.filters.excludeDomains, invalid: [], duplicates: 0 },
            },
          ]
        : [];
    acceptMostRecent = false;
    void updateExclude();
  };

  const clearProblems = (): void => {
    for (const element of errorSlots.values()) element.textContent = '';
    root.querySelectorAll('.invalid').forEach((element) => element.classList.remove('invalid'));
  };

  const controlOf: Partial<Record<SearchField, HTMLElement>> = {
    query,
    reference,
    count,
    sizes: sizeGrid,
    includeCountries: includeCountries.input,
    excludeCountries: excludeCountries.input,
    includeCities: includeCities.input,
    excludeCities: excludeCities.input,
    foundedFrom,
    foundedTo,
    excludeDomains: pasted,
  };

  const showProblems = (failure: Pick<Failure, 'message' | 'problems'>): void => {
    clearProblems();
    let focused = false;
    for (const problem of failure.problems) {
      const target = errorSlots.get(problem.field);
      if (!target || problem.field === 'form') continue;
      target.textContent = target.textContent ? `${target.textContent}; ${problem.message}` : problem.message;
      const control = controlOf[problem.field];
      control?.classList.add('invalid');
      if (!focused && control && 'focus' in control) {
        control.focus();
        focused = true;
      }
    }
    showStatus('error', failure.message);
  };

  const setBusy = (next: boolean, label?: string): void => {
    busy = next;
    for (const button of [searchButton, insertButton, appendButton, list.runButton]) button.disabled = next;
    if (next && label) replaceChildren(status, h('div', { class: 'muted' }, label));
  };

  /** One result as a card: name and domain, then country, size, founding year and relevance (all wrap at 300 px). */
  const resultCard = (row: PreviewRow): HTMLElement => {
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
  };

  const renderPreview = (answer: Extract<PreviewAnswer, { ok: true }>): void => {
    replaceChildren(
      previewBox,
      h(
        'h2',
        {},
        `${answer.count.toLocaleString('en-US')} result${answer.count === 1 ? '' : 's'}${answer.exhausted ? ' (all matches)' : ''}`,
      ),
      answer.reference
        ? h('div', { class: 'muted' }, `Similar to ${answer.reference.name || answer.reference.domain}`)
        : null,
      answer.count > answer.preview.length
        ? h('div', { class: 'muted' }, `Showing the first ${answer.preview.length}`)
        : null,
      h('ol', { class: 'results', 'aria-label': 'Search results' }, ...answer.preview.map(resultCard)),
    );
    writeBox.hidden = answer.count === 0;
    includeCountries.setSuggestions(answer.suggestions.countries);
    excludeCountries.setSuggestions(answer.suggestions.countries);
    includeCities.setSuggestions(answer.suggestions.cities);
    excludeCities.setSuggestions(answer.suggestions.cities);
  };

  const applyDepth = (depth: number): void => {
    count.max = String(depth);
    countHint.textContent =
      depth === FREE_DEPTH ? `up to ${FREE_DEPTH} on the free plan` : `up to ${depth.toLocaleString('en-US')}`;
    list.refresh();
  };

  const runPreview = async (): Promise<void> => {
    if (busy || !state) return;
    clearProblems();
    setBusy(true, 'Searching…');
    try {
      await excludeSettled();
      const spec = currentSpec();
      const answer = await server.previewCompanySearch(spec);
      if (!answer.ok) {
        lastPreview = null;
        writeBox.hidden = true;
        replaceChildren(previewBox);
        return showProblems(answer);
      }
      lastPreview = { searchId: answer.searchId, spec };
      void refreshCredits();
      state.depth = answer.depth;
      applyDepth(answer.depth);
      renderPreview(answer);
      replaceChildren(status, answer.warning ? message('warn', answer.warning) : null);
    } catch (error) {
      showStatus('error', errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const reportWrite = (answer: WriteAnswer, where: HTMLElement): void => {
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
  };

  const write = async (target: { kind: 'new' } | { kind: 'append'; sheetId: number }): Promise<void> => {
    if (busy || !lastPreview) return;
    const columns = [...columnBoxes].filter(([, box]) => box.checked).map(([key]) => key);
    setBusy(true);
    replaceChildren(writeStatus, h('div', { class: 'muted' }, 'Writing…'));
    try {
      const answer = await server.writeCompanySearch({
        searchId: lastPreview.searchId,
        spec: lastPreview.spec,
        columns,
        target,
      });
      reportWrite(answer, writeStatus);
      if (answer.ok) await refreshState();
    } catch (error) {
      replaceChildren(writeStatus, message('error', errorText(error)));
    } finally {
      setBusy(false);
    }
  };

  const renderSaved = (saved: SavedSearch | null): void => {
    if (!saved || !state) {
      replaceChildren(rerunStatus);
      return replaceChildren(savedBox);
    }
    const sheet = state.activeSheet;
    const what = saved.spec.mode === 'describe' ? `“${saved.spec.query}”` : `similar to ${saved.spec.reference}`;
    replaceChildren(
      savedBox,
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
            { type: 'button', id: 'search-rerun', class: 'primary', onclick: () => void rerun(sheet.id, rerunStatus) },
            'Run again',
          ),
          h('button', { type: 'button', onclick: () => fillForm(saved.spec) }, 'Edit as new search'),
        ),
        h('div', { class: 'muted' }, 'Run again adds the companies that are not in the sheet yet.'),
      ),
    );
  };

  const rerun = async (sheetId: number, where: HTMLElement): Promise<void> => {
    if (busy) return;
    setBusy(true);
    replaceChildren(where, h('div', { class: 'muted' }, 'Running the search again…'));
    try {
      reportWrite(await server.runCompanySearchAgain(sheetId), where);
      void refreshCredits();
    } catch (error) {
      replaceChildren(where, message('error', errorText(error)));
    } finally {
      setBusy(false);
    }
  };

  const refreshState = async (): Promise<SearchPanelState> => {
    const current = await server.getSearchPanelState();
    state = current;
    applyDepth(current.depth);
    renderColumnChooser(current.columns);
    // Keep what the user picked in the sheet lists while that sheet still exists; default to the active sheet.
    const keep = (select: HTMLSelectElement): number => {
      const picked = select.value === '' ? NaN : Number(select.value);
      return current.sheets.some((sheet) => sheet.id === picked) ? picked : current.activeSheet.id;
    };
    const options = (selected: number) =>
      current.sheets.map((sheet) => h('option', { value: sheet.id, selected: sheet.id === selected }, sheet.name));
    const columnSheetBefore = columnSheet.value;
    replaceChildren(appendTarget, ...options(keep(appendTarget)));
    replaceChildren(columnSheet, ...options(keep(columnSheet)));
    if (columnSheet.value !== columnSheetBefore && columnSheetBefore !== '') void loadColumns();
    alreadyHereLabel.textContent = `Exclude companies already in “${current.activeSheet.name}”`;
    renderSaved(current.savedSearch);
    if (!current.connected) showStatus('warn', 'Set up Sheet Scout: Extensions > Sheet Scout > Settings');
    return current;
  };

  const list = listMode({
    filters: () => currentSpec().filters,
    excludeSources: async () => {
      await excludeSettled();
      return sources;
    },
    excludedDomains: () => summary.toSend,
    columns: () => [...columnBoxes].filter(([, box]) => box.checked).map(([key]) => key),
    depth: () => state?.depth ?? PAID_DEPTH,
    slot,
    showProblems,
    clearProblems,
    setBusy: (next) => setBusy(next),
    isBusy: () => busy,
    afterWrite: async () => void (await refreshState()),
  });

  replaceChildren(
    root,
    panelHeader('Company search'),
    savedBox,
    rerunStatus,
    h('div', { class: 'tabs', role: 'group', 'aria-label': 'Search mode' }, describeTab, similarTab, listTab),
    describeBox,
    similarBox,
    list.element,
    h(
      'details',
      { open: true },
      h('summary', {}, 'Filters'),
      h('label', {}, 'Company size (employees)'),
      sizeMode,
      sizeGrid,
      slot('sizes'),
      h('label', {}, 'Countries'),
      includeCountries.element,
      slot('includeCountries'),
      excludeCountries.element,
      slot('excludeCountries'),
      h('label', {}, 'Cities'),
      includeCities.element,
      slot('includeCities'),
      excludeCities.element,
      slot('excludeCities'),
      h('label', {}, 'Founded'),
      h('div', { class: 'row tight' }, foundedFrom, h('span', {}, '–'), foundedTo),
      slot('foundedFrom'),
      slot('foundedTo'),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Exclude domains'),
      h('label', { class: 'check' }, alreadyHere, alreadyHereLabel),
      h('label', {}, 'From a column'),
      h('div', { class: 'row tight' }, columnSheet, columnPick),
      h(
        'div',
        { class: 'row tight' },
        h('label', { class: 'check small' }, skipHeader, 'First row is a header'),
        h('button', { type: 'button', onclick: () => void addColumnSource() }, 'Add'),
      ),
      h('label', {}, 'Pasted list'),
      pasted,
      sourceList,
      excludeSummary,
      slot('excludeDomains'),
    ),
    searchControls,
    list.runPart,
    slot('form'),
    status,
    previewBox,
    writeBox,
  );
  renderExclude();

  // The reference domain follows the selected cell until the user types their own.
  let prefilled = '';
  const syncWithSheet = async (): Promise<void> => {
    const loaded = await refreshState();
    if (loaded.selectedDomain && (reference.value.trim() === '' || reference.value === prefilled)) {
      reference.value = loaded.selectedDomain;
      prefilled = loaded.selectedDomain;
      referenceHint.textContent = 'From the selected cell';
    }
  };
  reference.addEventListener('input', () => (referenceHint.textContent = ''));
  // Coming back to the panel after clicking in the grid: pick up the new active sheet and selection.
  window.addEventListener('focus', () => {
    if (!busy) syncWithSheet().catch((error: unknown) => showStatus('error', errorText(error)));
  });

  void (async () => {
    try {
      await syncWithSheet();
      await loadColumns();
    } catch (error) {
      showStatus('error', errorText(error));
    }
  })();
}
