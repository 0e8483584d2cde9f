// The search panel's form: the mode tabs with the description or the reference company, the filters (sizes,
// countries and cities as chips, founding years) and how many results; the spec they stand for, and the form filled
// back from a saved search.
import { SIZE_BUCKETS, type SizeBucket } from '../../src/api/types';
import { FREE_DEPTH, PAID_DEPTH } from '../../src/search/contract';
import type { FilterForm, SearchField, SearchMode, SearchSpec } from '../../src/search/contract';
import { h } from '../ui/dom';
import { chipInput } from './chips';

const DEFAULT_COUNT = 100;

function yearValue(input: HTMLInputElement): number | null {
  const text = input.value.trim();
  return text === '' ? null : Number(text);
}

function tab(id: string, label: string, active: boolean, onclick: () => void): HTMLElement {
  return h(
    'button',
    { type: 'button', id, class: active ? 'tab active' : 'tab', 'aria-pressed': String(active), onclick },
    label,
  );
}

export class SearchForm {
  readonly query = h('textarea', {
    id: 'search-query',
    placeholder: 'e.g. B2B payments APIs for marketplaces',
    'aria-label': 'Describe the companies',
  });
  readonly reference = h('input', {
    type: 'text',
    id: 'search-reference',
    placeholder: 'stripe.com',
    'aria-label': 'Reference company domain',
  });
  private readonly referenceHint = h('div', { class: 'muted' });
  /** The reference the selected cell gave, replaced by the next selection until the user types their own. */
  private prefilled = '';
  private readonly sizeMode = h(
    'select',
    { 'aria-label': 'Size filter mode' },
    h('option', { value: 'include' }, 'Only these sizes'),
    h('option', { value: 'exclude' }, 'All sizes except'),
  );
  private readonly sizeBoxes = new Map<SizeBucket, HTMLInputElement>(
    SIZE_BUCKETS.map((bucket) => [
      bucket,
      h('input', { type: 'checkbox', value: bucket, 'aria-label': `${bucket} employees` }),
    ]),
  );
  private readonly sizeGrid = h(
    'div',
    { class: 'size-grid' },
    ...[...this.sizeBoxes].map(([bucket, box]) => h('label', { class: 'size' }, box, bucket)),
  );
  private readonly includeCountries = chipInput('Countries to include', 'Include country', () => undefined);
  private readonly excludeCountries = chipInput('Countries to exclude', 'Exclude country', () => undefined);
  private readonly includeCities = chipInput('Cities to include', 'Include city', () => undefined);
  private readonly excludeCities = chipInput('Cities to exclude', 'Exclude city', () => undefined);
  private readonly foundedFrom = h('input', {
    type: 'number',
    min: 1600,
    step: 1,
    placeholder: 'from',
    'aria-label': 'Founded from',
  });
  private readonly foundedTo = h('input', {
    type: 'number',
    min: 1600,
    step: 1,
    placeholder: 'to',
    'aria-label': 'Founded to',
  });
  readonly count = h('input', {
    type: 'number',
    id: 'search-count',
    min: 1,
    step: 1,
    value: DEFAULT_COUNT,
    'aria-label': 'How many results',
  });
  private readonly countHint = h('span', { class: 'muted' });
  private readonly tabs: Array<[HTMLElement, SearchMode | 'list']>;
  readonly describeBox: HTMLElement;
  readonly similarBox: HTMLElement;

  constructor(slot: (field: SearchField) => HTMLElement, selectMode: (mode: SearchMode | 'list') => void) {
    this.tabs = [
      [tab('mode-describe', 'Describe', true, () => selectMode('describe')), 'describe'],
      [tab('mode-similar', 'Similar to', false, () => selectMode('similar')), 'similar'],
      [tab('mode-list', 'Similar to a list', false, () => selectMode('list')), 'list'],
    ];
    this.describeBox = h(
      'div',
      {},
      h('label', { for: 'search-query' }, 'Describe the companies you want'),
      this.query,
      slot('query'),
    );
    this.similarBox = h(
      'div',
      { hidden: true },
      h('label', { for: 'search-reference' }, 'Companies similar to'),
      this.reference,
      this.referenceHint,
      slot('reference'),
    );
    this.reference.addEventListener('input', () => (this.referenceHint.textContent = ''));
  }

  modeTabs(): HTMLElement {
    return h(
      'div',
      { class: 'tabs', role: 'group', 'aria-label': 'Search mode' },
      ...this.tabs.map(([element]) => element),
    );
  }

  /** Marks the mode's tab and shows its box. */
  showMode(next: SearchMode | 'list'): void {
    for (const [element, tabMode] of this.tabs) {
      element.classList.toggle('active', next === tabMode);
      element.setAttribute('aria-pressed', String(next === tabMode));
    }
    this.describeBox.hidden = next !== 'describe';
    this.similarBox.hidden = next !== 'similar';
  }

  filtersSection(slot: (field: SearchField) => HTMLElement): HTMLElement {
    return h(
      'details',
      { open: true },
      h('summary', {}, 'Filters'),
      h('label', {}, 'Company size (employees)'),
      this.sizeMode,
      this.sizeGrid,
      slot('sizes'),
      h('label', {}, 'Countries'),
      this.includeCountries.element,
      slot('includeCountries'),
      this.excludeCountries.element,
      slot('excludeCountries'),
      h('label', {}, 'Cities'),
      this.includeCities.element,
      slot('includeCities'),
      this.excludeCities.element,
      slot('excludeCities'),
      h('label', {}, 'Founded'),
      h('div', { class: 'row tight' }, this.foundedFrom, h('span', {}, '–'), this.foundedTo),
      slot('foundedFrom'),
      slot('foundedTo'),
    );
  }

  countControls(slot: (field: SearchField) => HTMLElement): HTMLElement[] {
    return [
      h('label', { for: 'search-count' }, 'How many results'),
      h('div', { class: 'row tight' }, this.count, this.countHint),
      slot('count'),
    ];
  }

  filters(excludeDomains: string[]): FilterForm {
    return {
      sizes: SIZE_BUCKETS.filter((bucket) => this.sizeBoxes.get(bucket)?.checked),
      sizeMode: this.sizeMode.value === 'exclude' ? 'exclude' : 'include',
      includeCountries: this.includeCountries.values(),
      excludeCountries: this.excludeCountries.values(),
      includeCities: this.includeCities.values(),
      excludeCities: this.excludeCities.values(),
      foundedFrom: yearValue(this.foundedFrom),
      foundedTo: yearValue(this.foundedTo),
      excludeDomains,
    };
  }

  spec(mode: SearchMode, excludeDomains: string[]): SearchSpec {
    return {
      mode,
      query: this.query.value,
      reference: this.reference.value,
      count: Number(this.count.value),
      filters: this.filters(excludeDomains),
    };
  }

  /** Fills the form from a saved search (its exclude list is the panel's own). */
  fill(spec: SearchSpec): void {
    this.query.value = spec.query;
    this.reference.value = spec.reference;
    this.count.value = String(spec.count);
    this.setFilters(spec.filters);
  }

  /** Puts filters into the form (the exclude list is the panel's own). */
  setFilters(filters: FilterForm): void {
    this.sizeMode.value = filters.sizeMode;
    for (const [bucket, box] of this.sizeBoxes) box.checked = filters.sizes.includes(bucket);
    this.includeCountries.setValues(filters.includeCountries);
    this.excludeCountries.setValues(filters.excludeCountries);
    this.includeCities.setValues(filters.includeCities);
    this.excludeCities.setValues(filters.excludeCities);
    this.foundedFrom.value = filters.foundedFrom === null ? '' : String(filters.foundedFrom);
    this.foundedTo.value = filters.foundedTo === null ? '' : String(filters.foundedTo);
  }

  /** The control of each field of the form, for the problems to mark. */
  controls(): Partial<Record<SearchField, HTMLElement>> {
    return {
      query: this.query,
      reference: this.reference,
      count: this.count,
      sizes: this.sizeGrid,
      includeCountries: this.includeCountries.input,
      excludeCountries: this.excludeCountries.input,
      includeCities: this.includeCities.input,
      excludeCities: this.excludeCities.input,
      foundedFrom: this.foundedFrom,
      foundedTo: this.foundedTo,
    };
  }

  setSuggestions(suggestions: { countries: string[]; cities: string[] }): void {
    this.includeCountries.setSuggestions(suggestions.countries);
    this.excludeCountries.setSuggestions(suggestions.countries);
    this.includeCities.setSuggestions(suggestions.cities);
    this.excludeCities.setSuggestions(suggestions.cities);
  }

  /** How many results the plan allows. */
  /** The count's limit is the service's; a free plan learned for this token is said, not enforced (plans change). */
  applyDepth(depth: number): void {
    this.count.max = String(PAID_DEPTH);
    this.countHint.textContent =
      depth === FREE_DEPTH
        ? `up to ${PAID_DEPTH.toLocaleString('en-US')}; your plan returned ${FREE_DEPTH} last time`
        : `up to ${PAID_DEPTH.toLocaleString('en-US')}`;
  }

  /** The reference follows the selected cell until the user types their own. */
  followSelection(selectedDomain: string | null): void {
    const current = this.reference.value;
    if (!selectedDomain || (current.trim() !== '' && current !== this.prefilled)) return;
    this.reference.value = selectedDomain;
    this.prefilled = selectedDomain;
    this.referenceHint.textContent = 'From the selected cell';
  }
}
