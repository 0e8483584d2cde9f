// A company search as the panel describes it (SearchSpec: mode, query or reference company, filter form, how many
// results) and its checks: every problem is reported against the form control that caused it, and a valid spec
// becomes the service's filters object (nested wire form, see src/api/types.ts) with empty parts left out.
// Pure and JSON-only: the same types travel over google.script.run and into the saved-search note.
import { SIZE_BUCKETS, type SearchFilters, type SizeBucket } from '../api/types';
import { isCompanyUuid, parseDomain } from '../shared/domain/domain';
import { normalizeDomainList, overLimitMessage } from './exclude-domains';
import { EXCLUDE_DOMAIN_LIMIT, FREE_DEPTH } from './limits';

export { FREE_DEPTH, PAID_DEPTH } from './limits';

export type SearchMode = 'describe' | 'similar';

/** Form controls a problem can point at (the panel focuses and marks them). */
export type SearchField =
  | 'query'
  | 'reference'
  | 'count'
  | 'sizes'
  | 'includeCountries'
  | 'excludeCountries'
  | 'includeCities'
  | 'excludeCities'
  | 'foundedFrom'
  | 'foundedTo'
  | 'excludeDomains'
  | 'references'
  | 'perReference'
  | 'top'
  | 'form';

export interface FieldProblem {
  field: SearchField;
  message: string;
}

export interface FilterForm {
  /** Size buckets; `sizeMode` says whether they are the only sizes wanted or the ones to leave out. */
  sizes: SizeBucket[];
  sizeMode: 'include' | 'exclude';
  includeCountries: string[];
  excludeCountries: string[];
  includeCities: string[];
  excludeCities: string[];
  foundedFrom: number | null;
  foundedTo: number | null;
  /** Domains to leave out (the panel's exclude summary, normalized on the server; checked again before sending). */
  excludeDomains: string[];
}

export interface SearchSpec {
  mode: SearchMode;
  /** Natural-language description (mode `describe`). */
  query: string;
  /** Reference company domain or UUID (mode `similar`). */
  reference: string;
  filters: FilterForm;
  /** How many results to fetch. */
  count: number;
}

export const QUERY_MAX_LENGTH = 2000;
const EARLIEST_FOUNDED = 1600;

export function emptyFilterForm(): FilterForm {
  return {
    sizes: [],
    sizeMode: 'include',
    includeCountries: [],
    excludeCountries: [],
    includeCities: [],
    excludeCities: [],
    foundedFrom: null,
    foundedTo: null,
    excludeDomains: [],
  };
}

/** Trims, drops blanks and case-insensitive repeats (first spelling wins). */
export function cleanValues(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of values) {
    const value = String(raw).trim().replace(/\s+/g, ' ');
    const key = value.toLowerCase();
    if (value === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(value);
  }
  return kept;
}

function checkYear(
  value: number | null,
  field: SearchField,
  label: string,
  thisYear: number,
  problems: FieldProblem[],
): void {
  if (value === null) return;
  if (!Number.isInteger(value) || value < EARLIEST_FOUNDED || value > thisYear) {
    problems.push({ field, message: `${label} must be a year between ${EARLIEST_FOUNDED} and ${thisYear}` });
  }
}

function overlap(a: readonly string[], b: readonly string[]): string[] {
  const lower = new Set(a.map((value) => value.toLowerCase()));
  return b.filter((value) => lower.has(value.toLowerCase()));
}

/** Every problem of a spec against the account's search depth, each pointed at its control; empty when valid. */
export function checkSpec(spec: SearchSpec, depth: number, thisYear: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (spec.mode === 'describe') {
    const query = spec.query.trim();
    if (query === '') problems.push({ field: 'query', message: 'Describe the companies you are looking for' });
    else if (query.length > QUERY_MAX_LENGTH)
      problems.push({ field: 'query', message: `Keep the description under ${QUERY_MAX_LENGTH} characters` });
  } else {
    const reference = spec.reference.trim();
    if (reference === '') problems.push({ field: 'reference', message: 'Enter the domain of a reference company' });
    else if (!isCompanyUuid(reference) && parseDomain(reference).kind !== 'domain') {
      problems.push({ field: 'reference', message: `"${reference}" is not a company domain (e.g. stripe.com)` });
    }
  }
  if (!Number.isInteger(spec.count) || spec.count < 1 || spec.count > depth) {
    problems.push({
      field: 'count',
      message:
        depth === FREE_DEPTH
          ? `The free plan returns up to ${FREE_DEPTH} results per search`
          : `Choose between 1 and ${depth.toLocaleString('en-US')} results`,
    });
  }
  const form = spec.filters;
  const unknownSizes = form.sizes.filter((size) => !SIZE_BUCKETS.includes(size));
  if (unknownSizes.length > 0) problems.push({ field: 'sizes', message: `Unknown size: ${unknownSizes.join(', ')}` });
  checkYear(form.foundedFrom, 'foundedFrom', 'Founded from', thisYear, problems);
  checkYear(form.foundedTo, 'foundedTo', 'Founded to', thisYear, problems);
  if (form.foundedFrom !== null && form.foundedTo !== null && form.foundedFrom > form.foundedTo) {
    problems.push({ field: 'foundedTo', message: '"Founded to" is before "Founded from"' });
  }
  const bothCountries = overlap(cleanValues(form.includeCountries), cleanValues(form.excludeCountries));
  if (bothCountries.length > 0)
    problems.push({ field: 'excludeCountries', message: `Both included and excluded: ${bothCountries.join(', ')}` });
  const bothCities = overlap(cleanValues(form.includeCities), cleanValues(form.excludeCities));
  if (bothCities.length > 0)
    problems.push({ field: 'excludeCities', message: `Both included and excluded: ${bothCities.join(', ')}` });
  const domains = normalizeDomainList(form.excludeDomains);
  if (domains.invalid.length > 0) {
    problems.push({
      field: 'excludeDomains',
      message: `Not domains: ${domains.invalid.slice(0, 5).join(', ')}${domains.invalid.length > 5 ? ` and ${domains.invalid.length - 5} more` : ''}`,
    });
  }
  if (domains.domains.length > EXCLUDE_DOMAIN_LIMIT)
    problems.push({ field: 'excludeDomains', message: overLimitMessage(domains.domains.length) });
  return problems;
}

/** The service's filters object for a form (call after checkSpec); undefined when no filter is set. */
export function toServiceFilters(form: FilterForm): SearchFilters | undefined {
  const filters: SearchFilters = {};
  const include: NonNullable<SearchFilters['include']> = {};
  const exclude: NonNullable<SearchFilters['exclude']> = {};
  const sizes = SIZE_BUCKETS.filter((size) => form.sizes.includes(size));
  if (sizes.length > 0) (form.sizeMode === 'exclude' ? exclude : include).size = sizes;
  const includeCountries = cleanValues(form.includeCountries);
  if (includeCountries.length > 0) include.country = includeCountries;
  const includeCities = cleanValues(form.includeCities);
  if (includeCities.length > 0) include.city = includeCities;
  const excludeCountries = cleanValues(form.excludeCountries);
  if (excludeCountries.length > 0) exclude.country = excludeCountries;
  const excludeCities = cleanValues(form.excludeCities);
  if (excludeCities.length > 0) exclude.city = excludeCities;
  const domains = normalizeDomainList(form.excludeDomains).domains;
  if (domains.length > 0) exclude.domains = domains;
  if (Object.keys(include).length > 0) filters.include = include;
  if (Object.keys(exclude).length > 0) filters.exclude = exclude;
  if (form.foundedFrom !== null || form.foundedTo !== null) {
    const founded: { min?: number; max?: number } = {};
    if (form.foundedFrom !== null) founded.min = form.foundedFrom;
    if (form.foundedTo !== null) founded.max = form.foundedTo;
    filters.range = { founded };
  }
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** The reference company as sent in the lookalike path: a registered domain, or a UUID as given. */
export function referenceIdentifier(reference: string): string {
  const text = reference.trim();
  if (isCompanyUuid(text)) return text.toLowerCase();
  const parsed = parseDomain(text);
  return parsed.kind === 'domain' ? parsed.domain : text;
}

/** A one-line human summary of the filters ("size 11-50, 51-200; country Germany; founded 2010-2020; ..."). */
export function describeFilters(form: FilterForm): string {
  const parts: string[] = [];
  const sizes = SIZE_BUCKETS.filter((size) => form.sizes.includes(size));
  if (sizes.length > 0) parts.push(`${form.sizeMode === 'exclude' ? 'not size' : 'size'} ${sizes.join(', ')}`);
  const list = (label: string, values: string[]): void => {
    const cleaned = cleanValues(values);
    if (cleaned.length > 0) parts.push(`${label} ${cleaned.join(', ')}`);
  };
  list('country', form.includeCountries);
  list('not country', form.excludeCountries);
  list('city', form.includeCities);
  list('not city', form.excludeCities);
  if (form.foundedFrom !== null || form.foundedTo !== null) {
    parts.push(`founded ${form.foundedFrom ?? '…'}–${form.foundedTo ?? '…'}`);
  }
  const domains = normalizeDomainList(form.excludeDomains).domains.length;
  if (domains > 0) parts.push(`${domains} domain${domains === 1 ? '' : 's'} excluded`);
  return parts.length > 0 ? parts.join('; ') : 'no filters';
}

/** A stable key of a spec: JSON with object keys sorted, so the same spec built in another order matches. */
export function specKeyOf(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
