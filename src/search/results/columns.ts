// The columns a search can write into a sheet: header label and the cell value of each result. Service strings go
// through toCellValue/safeText (formula-escaped, cut to the cell limit); numbers stay numbers. Also the compact
// preview row the panel shows.
import type { CompanySearchResult } from '../../api/types';
import { toCellValue, type CellValue } from '../../shared/cell-values';

export type ResultColumnKey =
  | 'name'
  | 'domain'
  | 'country'
  | 'state'
  | 'city'
  | 'address'
  | 'size'
  | 'founded'
  | 'relevance'
  | 'short_description'
  | 'full_description'
  | 'products_services'
  | 'use_cases'
  | 'target_audience'
  | 'authority_score'
  | 'authority_tier'
  | 'linkedin'
  | 'social_profiles'
  | 'id';

export interface ResultColumn {
  key: ResultColumnKey;
  label: string;
  value: (result: CompanySearchResult) => unknown;
}

function social(result: CompanySearchResult, network: string): unknown {
  const profiles = result.social_profiles;
  if (!profiles || typeof profiles !== 'object') return '';
  const match = Object.keys(profiles).find((name) => name.toLowerCase() === network);
  return match ? profiles[match] : '';
}

function relevance(result: CompanySearchResult): unknown {
  const score = result.relevance_score;
  return typeof score === 'number' && Number.isFinite(score) ? Math.round(score * 1000) / 1000 : '';
}

export const RESULT_COLUMNS: readonly ResultColumn[] = [
  { key: 'name', label: 'Company', value: (r) => r.name },
  { key: 'domain', label: 'Domain', value: (r) => r.domain },
  { key: 'country', label: 'Country', value: (r) => r.hq_country },
  { key: 'state', label: 'State/Province', value: (r) => r.hq_state_province },
  { key: 'city', label: 'City', value: (r) => r.hq_city },
  { key: 'address', label: 'Address', value: (r) => r.hq_full_address },
  { key: 'size', label: 'Employees', value: (r) => r.employee_count },
  { key: 'founded', label: 'Founded', value: (r) => r.founding_year },
  { key: 'relevance', label: 'Relevance', value: relevance },
  { key: 'short_description', label: 'Description', value: (r) => r.short_description },
  { key: 'full_description', label: 'Full description', value: (r) => r.full_description },
  { key: 'products_services', label: 'Products and services', value: (r) => r.products_services },
  { key: 'use_cases', label: 'Use cases', value: (r) => r.use_cases },
  { key: 'target_audience', label: 'Target audience', value: (r) => r.target_audience },
  { key: 'authority_score', label: 'Website authority', value: (r) => r.website_authority?.score },
  { key: 'authority_tier', label: 'Authority tier', value: (r) => r.website_authority?.tier_label },
  { key: 'linkedin', label: 'LinkedIn', value: (r) => social(r, 'linkedin') },
  {
    key: 'social_profiles',
    label: 'Social profiles',
    value: (r) => (r.social_profiles ? Object.values(r.social_profiles) : ''),
  },
  { key: 'id', label: 'Company ID', value: (r) => r.id },
];

export const DEFAULT_COLUMNS: readonly ResultColumnKey[] = [
  'name',
  'domain',
  'country',
  'city',
  'size',
  'founded',
  'relevance',
  'short_description',
];

/** What =COMPANY_SEARCH and =SIMILAR spill, in this order. */
export const FORMULA_COLUMNS: readonly ResultColumnKey[] = [
  'domain',
  'name',
  'short_description',
  'country',
  'city',
  'size',
  'founded',
  'relevance',
];

const BY_KEY = new Map(RESULT_COLUMNS.map((column) => [column.key, column]));

/** The known columns among `keys`, in the order given, each once; the Domain column is always included. */
export function resolveColumns(keys: readonly string[]): ResultColumn[] {
  const chosen: ResultColumn[] = [];
  for (const key of keys) {
    const column = BY_KEY.get(key as ResultColumnKey);
    if (column && !chosen.includes(column)) chosen.push(column);
  }
  if (!chosen.some((column) => column.key === 'domain'))
    chosen.splice(Math.min(1, chosen.length), 0, BY_KEY.get('domain') as ResultColumn);
  return chosen;
}

export function cellRow(result: CompanySearchResult, columns: readonly ResultColumn[]): CellValue[] {
  return columns.map((column) => toCellValue(column.value(result)));
}

/** What the panel's preview table shows (plain values: the panel sets them as text, never as HTML). */
export interface PreviewRow {
  name: string;
  domain: string;
  country: string;
  size: string;
  founded: number | null;
  relevance: number | null;
}

export function previewRow(result: CompanySearchResult): PreviewRow {
  const score = relevance(result);
  return {
    name: typeof result.name === 'string' ? result.name : '',
    domain: result.domain,
    country: result.hq_country ?? '',
    size: result.employee_count ?? '',
    founded: typeof result.founding_year === 'number' ? result.founding_year : null,
    relevance: typeof score === 'number' ? score : null,
  };
}

/** Countries and cities seen in results, most frequent first, for the panel's filter suggestions. */
export function suggestionsFrom(
  results: readonly CompanySearchResult[],
  limit = 30,
): { countries: string[]; cities: string[] } {
  const tally = (values: Array<string | null | undefined>): string[] => {
    const counts = new Map<string, number>();
    for (const value of values)
      if (typeof value === 'string' && value.trim() !== '') counts.set(value, (counts.get(value) ?? 0) + 1);
    return [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, limit)
      .map(([value]) => value);
  };
  return { countries: tally(results.map((r) => r.hq_country)), cities: tally(results.map((r) => r.hq_city)) };
}
