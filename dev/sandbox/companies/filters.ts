// Search filters of spec 2.10: parsing the nested form ({include: {country: [...]}, range: {founded: {min}}}) and
// the flat dotted form ({"include.country": [...]}) into one normalized nested object, with FastAPI-style issues
// for unsupported keys and bad values, and the predicate that applies the filters to a company.
import type { Company } from './company-index';
import { SIZE_BUCKETS } from './company-vocabulary';
import { registeredDomain } from './domains';
import { issue, isPlainObject, type Loc, type ValidationIssue } from '../http/validation';

export const MAX_EXCLUDED_DOMAINS = 1000;

type ListKey = 'size' | 'country' | 'city' | 'domains';

export interface SearchFilters {
  include?: { size?: string[]; country?: string[]; city?: string[] };
  exclude?: { size?: string[]; country?: string[]; city?: string[]; domains?: string[] };
  range?: { founded?: { min?: number; max?: number } };
}

const INCLUDE_KEYS: ListKey[] = ['size', 'country', 'city'];
const EXCLUDE_KEYS: ListKey[] = ['size', 'country', 'city', 'domains'];
const SUPPORTED_KEYS_TEXT =
  'include.size, include.country, include.city, exclude.size, exclude.country, exclude.city, exclude.domains, range.founded.min, range.founded.max';

function unsupported(loc: Loc): ValidationIssue {
  return issue(loc, `Unsupported filter key. Supported keys only: ${SUPPORTED_KEYS_TEXT}`, 'extra_forbidden');
}

class FilterParser {
  readonly issues: ValidationIssue[] = [];
  private readonly lists: Record<'include' | 'exclude', Map<ListKey, string[]>> = {
    include: new Map(),
    exclude: new Map(),
  };
  /** Raw domain entries with where they came from, checked once all forms are merged. */
  private readonly domainEntries: { value: unknown; loc: Loc }[] = [];
  private readonly founded: { min?: number; max?: number } = {};
  private foundedLoc: Loc = [];

  constructor(private readonly base: Loc) {}

  parse(raw: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(raw)) {
      const loc = [...this.base, key];
      const parts = key.split('.');
      if (parts.length === 1) this.group(parts[0], value, loc);
      else this.dotted(parts, value, loc);
    }
  }

  private group(name: string, value: unknown, loc: Loc): void {
    if (name === 'include' || name === 'exclude') {
      if (!isPlainObject(value)) {
        this.issues.push(issue(loc, 'Input should be a valid dictionary', 'dict_type'));
        return;
      }
      for (const [key, list] of Object.entries(value)) this.list(name, key, list, [...loc, key]);
    } else if (name === 'range') {
      if (!isPlainObject(value)) {
        this.issues.push(issue(loc, 'Input should be a valid dictionary', 'dict_type'));
        return;
      }
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'founded') this.foundedObject(inner, [...loc, key]);
        else this.issues.push(unsupported([...loc, key]));
      }
    } else {
      this.issues.push(unsupported(loc));
    }
  }

  private dotted(parts: string[], value: unknown, loc: Loc): void {
    const [head, second, third] = parts;
    if ((head === 'include' || head === 'exclude') && parts.length === 2) this.list(head, second, value, loc);
    else if (head === 'range' && second === 'founded' && parts.length === 2) this.foundedObject(value, loc);
    else if (head === 'range' && second === 'founded' && parts.length === 3 && (third === 'min' || third === 'max'))
      this.foundedBound(third, value, loc);
    else this.issues.push(unsupported(loc));
  }

  private list(group: 'include' | 'exclude', key: string, value: unknown, loc: Loc): void {
    const allowed = group === 'include' ? INCLUDE_KEYS : EXCLUDE_KEYS;
    if (!(allowed as string[]).includes(key)) {
      this.issues.push(unsupported(loc));
      return;
    }
    if (!Array.isArray(value)) {
      this.issues.push(issue(loc, 'Input should be a valid list', 'list_type'));
      return;
    }
    const listKey = key as ListKey;
    if (listKey === 'domains') {
      value.forEach((entry, index) => this.domainEntries.push({ value: entry, loc: [...loc, index] }));
      return;
    }
    const collected = this.lists[group].get(listKey) ?? [];
    value.forEach((entry, index) => {
      const entryLoc = [...loc, index];
      if (typeof entry !== 'string') {
        this.issues.push(issue(entryLoc, 'Input should be a valid string', 'string_type'));
      } else if (listKey === 'size' && !(SIZE_BUCKETS as readonly string[]).includes(entry)) {
        this.issues.push(
          issue(entryLoc, `Input should be ${SIZE_BUCKETS.map((bucket) => `'${bucket}'`).join(', ')}`, 'literal_error'),
        );
      } else if (entry.trim() === '') {
        this.issues.push(issue(entryLoc, 'String should have at least 1 character', 'string_too_short'));
      } else if (!collected.includes(entry)) {
        collected.push(entry);
      }
    });
    this.lists[group].set(listKey, collected);
  }

  private foundedObject(value: unknown, loc: Loc): void {
    if (!isPlainObject(value)) {
      this.issues.push(issue(loc, 'Input should be a valid dictionary', 'dict_type'));
      return;
    }
    for (const [key, bound] of Object.entries(value)) {
      if (key === 'min' || key === 'max') this.foundedBound(key, bound, [...loc, key]);
      else this.issues.push(unsupported([...loc, key]));
    }
  }

  private foundedBound(which: 'min' | 'max', value: unknown, loc: Loc): void {
    this.foundedLoc = loc.slice(0, -1);
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.issues.push(issue(loc, 'Input should be a valid integer', 'int_type'));
      return;
    }
    this.founded[which] = value;
  }

  result(): SearchFilters {
    const filters: SearchFilters = {};
    for (const group of ['include', 'exclude'] as const) {
      const entries = [...this.lists[group].entries()];
      if (entries.length > 0) filters[group] = Object.fromEntries(entries);
    }
    if (this.domainEntries.length > 0) {
      const domains: string[] = [];
      for (const { value, loc } of this.domainEntries) {
        const domain = typeof value === 'string' ? registeredDomain(value) : null;
        if (domain === null)
          this.issues.push(
            issue(loc, `Invalid domain: ${JSON.stringify(value)} is not a valid domain or URL`, 'value_error'),
          );
        else if (!domains.includes(domain)) domains.push(domain);
      }
      if (domains.length > MAX_EXCLUDED_DOMAINS) {
        const listLoc = this.domainEntries[0].loc.slice(0, -1);
        this.issues.push(
          issue(
            listLoc,
            `At most ${MAX_EXCLUDED_DOMAINS} domains are allowed after de-duplication, got ${domains.length}`,
            'too_long',
          ),
        );
      }
      filters.exclude = { ...filters.exclude, domains };
    }
    if (this.founded.min !== undefined || this.founded.max !== undefined) {
      if (this.founded.min !== undefined && this.founded.max !== undefined && this.founded.min > this.founded.max) {
        this.issues.push(
          issue(this.foundedLoc, 'range.founded.min must be less than or equal to range.founded.max', 'value_error'),
        );
      }
      filters.range = { founded: { ...this.founded } };
    }
    return filters;
  }
}

/**
 * Parses filters given as a JSON value (already decoded). `base` is the loc of the filters themselves,
 * e.g. ['body', 'filters'] or ['query', 'filters']. Returns the normalized filters or the issues found.
 */
export function parseFilters(raw: unknown, base: Loc): { filters: SearchFilters; issues: ValidationIssue[] } {
  if (raw === undefined || raw === null) return { filters: {}, issues: [] };
  if (!isPlainObject(raw))
    return { filters: {}, issues: [issue(base, 'Input should be a valid dictionary', 'dict_type')] };
  const parser = new FilterParser(base);
  parser.parse(raw);
  const filters = parser.result();
  return { filters, issues: parser.issues };
}

/** Decodes the GET variants' `filters` query parameter (a JSON string) and parses it. */
export function parseFiltersQuery(raw: string | undefined): { filters: SearchFilters; issues: ValidationIssue[] } {
  if (raw === undefined || raw.trim() === '') return { filters: {}, issues: [] };
  let decoded: unknown;
  try {
    decoded = JSON.parse(raw);
  } catch (error) {
    return {
      filters: {},
      issues: [issue(['query', 'filters'], `Invalid JSON: ${(error as Error).message}`, 'json_invalid')],
    };
  }
  return parseFilters(decoded, ['query', 'filters']);
}

function lowerSet(values: string[] | undefined): Set<string> | undefined {
  return values && values.length > 0 ? new Set(values.map((value) => value.toLowerCase())) : undefined;
}

/** A predicate applying normalized filters (empty lists restrict nothing; text matches ignore case). */
export function filterPredicate(filters: SearchFilters): (company: Company) => boolean {
  const includeSize = lowerSet(filters.include?.size);
  const includeCountry = lowerSet(filters.include?.country);
  const includeCity = lowerSet(filters.include?.city);
  const excludeSize = lowerSet(filters.exclude?.size);
  const excludeCountry = lowerSet(filters.exclude?.country);
  const excludeCity = lowerSet(filters.exclude?.city);
  const excludeDomains = lowerSet(filters.exclude?.domains);
  const min = filters.range?.founded?.min;
  const max = filters.range?.founded?.max;
  return (company) => {
    const size = company.employee_count.toLowerCase();
    const country = company.hq_country.toLowerCase();
    const city = company.hq_city.toLowerCase();
    if (includeSize && !includeSize.has(size)) return false;
    if (includeCountry && !includeCountry.has(country)) return false;
    if (includeCity && !includeCity.has(city)) return false;
    if (excludeSize?.has(size) || excludeCountry?.has(country) || excludeCity?.has(city)) return false;
    if (excludeDomains?.has(company.domain)) return false;
    if (min !== undefined && company.founding_year < min) return false;
    if (max !== undefined && company.founding_year > max) return false;
    return true;
  };
}
