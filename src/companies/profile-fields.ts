// The catalogue of company profile fields the add-in can put into a sheet: one key per field (what the enrichment
// panel picks), its column header, the names a formula's field list accepts (`=COMPANY_LOOKUP(A2, "Employees,
// hq_country")`: a key or a header, case and spacing ignored), and how to read it from a lookup profile (`id`, `domain`, `company_name` at the top, the rest inside `context`). A lookup is
// reduced to these fields (ProfileValues) as soon as it arrives: that is all the formulas, the enrichment job and the
// profile cache ever hold.
import leven from 'leven';
import type { CompanyProfile } from '../api/types';

export interface ProfileField {
  key: string;
  /** The column header written and the name the enrichment panel lists. */
  header: string;
  /**
   * Other headers the add-in writes for this field (an earlier version's, Company search's): an existing column under
   * one is this field's column, so enriching a sheet a search made adds no second column for it.
   */
  formerHeaders?: readonly string[];
  read(profile: CompanyProfile): unknown;
}

function fromContext(key: string) {
  return (profile: CompanyProfile): unknown => (profile.context as Record<string, unknown> | undefined)?.[key];
}

function socialProfile(network: string) {
  return (profile: CompanyProfile): unknown => {
    const social = (profile.context as Record<string, unknown> | undefined)?.social_profiles;
    return social && typeof social === 'object' ? (social as Record<string, unknown>)[network] : undefined;
  };
}

export const PROFILE_FIELDS: readonly ProfileField[] = [
  { key: 'company_name', header: 'Company name', formerHeaders: ['Company'], read: (p) => p.company_name },
  { key: 'domain', header: 'Domain', read: (p) => p.domain },
  {
    key: 'short_description',
    header: 'Short description',
    formerHeaders: ['Description'],
    read: fromContext('short_description'),
  },
  { key: 'full_description', header: 'Full description', read: fromContext('full_description') },
  { key: 'products_services', header: 'Products and services', read: fromContext('products_services') },
  { key: 'use_cases', header: 'Use cases', read: fromContext('use_cases') },
  { key: 'target_audience', header: 'Target audience', read: fromContext('target_audience') },
  { key: 'hq_country', header: 'Country', read: fromContext('hq_country') },
  {
    key: 'hq_state_province',
    header: 'State or province',
    formerHeaders: ['State/Province'],
    read: fromContext('hq_state_province'),
  },
  { key: 'hq_city', header: 'City', read: fromContext('hq_city') },
  { key: 'hq_full_address', header: 'HQ address', formerHeaders: ['Address'], read: fromContext('hq_full_address') },
  { key: 'employee_count', header: 'Employees', formerHeaders: ['Size'], read: fromContext('employee_count') },
  { key: 'founding_year', header: 'Founded', read: fromContext('founding_year') },
  { key: 'linkedin', header: 'LinkedIn', read: socialProfile('linkedin') },
  { key: 'twitter', header: 'Twitter', read: socialProfile('twitter') },
  { key: 'id', header: 'Company ID', read: (p) => p.id },
];

/** A profile reduced to the catalogue's fields, by field key (null where the profile has no value). */
export type ProfileValues = Readonly<Record<string, unknown>>;

export function profileValues(profile: CompanyProfile): ProfileValues {
  return Object.fromEntries(PROFILE_FIELDS.map((field) => [field.key, field.read(profile) ?? null]));
}

export const DEFAULT_PROFILE_FIELD_KEYS = [
  'company_name',
  'domain',
  'short_description',
  'hq_country',
  'hq_city',
  'employee_count',
  'founding_year',
];

const FIELDS_BY_KEY = new Map(PROFILE_FIELDS.map((field) => [field.key, field]));

/** A field name as compared: lower case, without spaces, underscores or other punctuation ("HQ country" = hq_country). */
function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Every name a field answers to, compared by nameKey: its key, its header and the headers it had before. */
const FIELDS_BY_NAME = new Map(
  PROFILE_FIELDS.flatMap((field) =>
    [field.key, field.header, ...(field.formerHeaders ?? [])].map((name) => [nameKey(name), field] as const),
  ),
);

/** The header a misspelt name most likely meant: within 2 edits and less than half the name's length, else null. */
function closestHeader(name: string): string | null {
  const typed = nameKey(name);
  let best: { header: string; distance: number } | null = null;
  for (const [known, field] of FIELDS_BY_NAME) {
    const distance = leven(typed, known);
    if (distance <= 2 && distance < typed.length / 2 && (!best || distance < best.distance)) {
      best = { header: field.header, distance };
    }
  }
  return best?.header ?? null;
}

function unknownFieldMessage(name: string): string {
  const meant = closestHeader(name);
  if (meant) return `Unknown field: "${name}". Did you mean "${meant}"?`;
  return `Unknown field: "${name}". Use: ${PROFILE_FIELDS.map((f) => f.header).join(', ')}`;
}

export type FieldListParse = { ok: true; fields: ProfileField[] } | { ok: false; message: string };

/**
 * Parses a comma list of field names, keys or the headers the add-in writes ("Company name, hq_country"; case and
 * spacing ignored; blank: the default fields); names an unknown field, with the header it most likely meant.
 */
export function parseFieldList(list: unknown): FieldListParse {
  const text = list === null || list === undefined ? '' : String(list).trim();
  const names =
    text === ''
      ? DEFAULT_PROFILE_FIELD_KEYS
      : text
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
  const fields: ProfileField[] = [];
  for (const name of names) {
    const field = FIELDS_BY_NAME.get(nameKey(name));
    if (!field) return { ok: false, message: unknownFieldMessage(name) };
    if (!fields.includes(field)) fields.push(field);
  }
  return { ok: true, fields };
}

export function profileFieldByKey(key: string): ProfileField | undefined {
  return FIELDS_BY_KEY.get(key);
}
