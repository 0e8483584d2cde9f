// The `filters` argument of SIMILAR and COMPANY_SEARCH: a JSON object string (dotted keys `{"include.country":
// ["United States"]}` or the nested wire form `{"include": {"country": [...]}}`) or a two-column range of
// `key | value` rows. Validated against the interface's supported keys (2.10) with a message naming the bad key or
// value, and turned into the client's nested SearchFilters.
import type { SearchFilters, SizeBucket } from '../api/types';
import { SIZE_BUCKETS } from '../api/types';
import { parseDomain } from '../shared/domain/domain';
import { isBlank, type ArgRead } from './arguments';

export const FILTER_KEYS = [
  'include.size',
  'include.country',
  'include.city',
  'exclude.size',
  'exclude.country',
  'exclude.city',
  'exclude.domains',
  'range.founded.min',
  'range.founded.max',
] as const;

type FilterKey = (typeof FILTER_KEYS)[number];

/** The interface's cap on `exclude.domains` after de-duplication. */
const MAX_EXCLUDED_DOMAINS = 1000;

function isFilterKey(key: string): key is FilterKey {
  return (FILTER_KEYS as readonly string[]).includes(key);
}

function unknownKey(key: string): string {
  return `Invalid filters: unknown key "${key}". Use ${FILTER_KEYS.join(', ')}`;
}

/** Flattens a nested JSON object into dotted keys (`{include: {country: x}}` -> `include.country: x`). */
function flattenObject(value: Record<string, unknown>, prefix: string, into: Array<[string, unknown]>): void {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && !isFilterKey(path))
      flattenObject(item as Record<string, unknown>, path, into);
    else into.push([path, item]);
  }
}

/** `key | value` pairs from the argument, or a message. */
function pairsOf(arg: unknown): ArgRead<Array<[string, unknown]>> {
  if (Array.isArray(arg) && !(arg.length === 1 && Array.isArray(arg[0]) && arg[0].length === 1)) {
    const pairs: Array<[string, unknown]> = [];
    for (const row of arg as unknown[][]) {
      if (!Array.isArray(row) || row.length < 2)
        return { ok: false, message: 'Invalid filters: use a two-column range of key | value rows' };
      const [key, value] = row;
      if (isBlank(key) && isBlank(value)) continue;
      const name = String(key).trim().toLowerCase();
      // A header row ("key | value") is allowed on top.
      if (pairs.length === 0 && name === 'key') continue;
      pairs.push([name, value]);
    }
    return { ok: true, value: pairs };
  }
  const cell = Array.isArray(arg) ? (arg[0] as unknown[])[0] : arg;
  if (isBlank(cell)) return { ok: true, value: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(cell));
  } catch {
    return { ok: false, message: 'Invalid filters: not valid JSON, e.g. {"include.country": ["United States"]}' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      ok: false,
      message: 'Invalid filters: expected a JSON object, e.g. {"include.country": ["United States"]}',
    };
  }
  const pairs: Array<[string, unknown]> = [];
  flattenObject(parsed as Record<string, unknown>, '', pairs);
  return { ok: true, value: pairs };
}

/**
 * List values: a JSON array of texts, or text with comma-separated items (a range cell "United States, Germany").
 * An array holding anything but texts (`[null]`, `[1, 2]`) is refused rather than read as "null" or "1".
 */
function listItems(key: string, value: unknown): ArgRead<string[]> {
  if (Array.isArray(value)) {
    const odd = value.find((item) => typeof item !== 'string');
    if (odd !== undefined)
      return {
        ok: false,
        message: `Invalid filters: ${key} must be a list of texts; ${JSON.stringify(odd)} is not a text`,
      };
    return { ok: true, value: value.map((item: string) => item.trim()).filter((item) => item !== '') };
  }
  if (value !== null && typeof value === 'object')
    return { ok: false, message: `Invalid filters: ${key} must be a list of texts` };
  return {
    ok: true,
    value: String(value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  };
}

function readYear(key: string, value: unknown): ArgRead<number> {
  const year = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(year) || year < 1000 || year > 9999)
    return { ok: false, message: `Invalid filters: ${key} must be a year, e.g. 2010` };
  return { ok: true, value: year };
}

function push<T>(list: T[] | undefined, items: T[]): T[] {
  const merged = list ?? [];
  for (const item of items) if (!merged.includes(item)) merged.push(item);
  return merged;
}

/** Parses and validates a filters argument. Blank gives no filters (undefined). */
export function readFilters(arg: unknown): ArgRead<SearchFilters | undefined> {
  const pairs = pairsOf(arg);
  if (!pairs.ok) return pairs;
  if (pairs.value.length === 0) return { ok: true, value: undefined };
  const filters: SearchFilters = {};
  for (const [rawKey, value] of pairs.value) {
    const key = rawKey.trim().toLowerCase();
    if (!isFilterKey(key)) return { ok: false, message: unknownKey(rawKey) };
    if (key === 'range.founded.min' || key === 'range.founded.max') {
      const year = readYear(key, value);
      if (!year.ok) return year;
      const founded = { ...filters.range?.founded, [key === 'range.founded.min' ? 'min' : 'max']: year.value };
      filters.range = { founded };
      continue;
    }
    const read = listItems(key, value);
    if (!read.ok) return read;
    const items = read.value;
    // An empty JSON list restricts nothing (the service reads it so); a key written with no value is a slip.
    if (items.length === 0 && Array.isArray(value)) continue;
    if (items.length === 0) return { ok: false, message: `Invalid filters: ${key} has no value` };
    const [group, field] = key.split('.') as ['include' | 'exclude', 'size' | 'country' | 'city' | 'domains'];
    if (field === 'size') {
      const bad = items.find((item) => !(SIZE_BUCKETS as readonly string[]).includes(item));
      if (bad !== undefined)
        return { ok: false, message: `Invalid filters: ${key} "${bad}" is not a size. Use ${SIZE_BUCKETS.join(', ')}` };
      const target = (filters[group] ??= {});
      target.size = push(target.size, items as SizeBucket[]);
    } else if (field === 'domains') {
      const domains: string[] = [];
      for (const item of items) {
        const parsed = parseDomain(item);
        if (parsed.kind !== 'domain')
          return { ok: false, message: `Invalid filters: exclude.domains "${item}" is not a domain` };
        domains.push(parsed.domain);
      }
      const target = (filters.exclude ??= {});
      target.domains = push(target.domains, domains);
      if (target.domains.length > MAX_EXCLUDED_DOMAINS) {
        return { ok: false, message: `Invalid filters: exclude.domains takes at most ${MAX_EXCLUDED_DOMAINS} domains` };
      }
    } else {
      const target = (filters[group] ??= {});
      target[field] = push(target[field], items);
    }
  }
  const founded = filters.range?.founded;
  if (founded?.min !== undefined && founded.max !== undefined && founded.min > founded.max) {
    return { ok: false, message: 'Invalid filters: range.founded.min is after range.founded.max' };
  }
  return { ok: true, value: filters };
}
