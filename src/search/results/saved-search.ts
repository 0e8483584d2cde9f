// The note on the header cell of a sheet a search wrote: a readable summary of the query and filters for people, and a
// JSON line after a marker that lets the panel's "Run again" repeat exactly the same search with the same columns.
import { RESULT_COLUMNS, type ResultColumnKey } from './columns';
import { describeFilters, emptyFilterForm, type FilterForm, type SearchSpec } from '../spec';

export interface SavedSearch {
  spec: SearchSpec;
  columns: ResultColumnKey[];
  /** ISO time of the run that wrote the sheet. */
  ranAt: string;
}

const MARKER = '--- Sheet Scout search (keep this line and the next to use Run again) ---';
const VERSION = 1;

/** The note text for the header cell. */
export function formatSavedSearchNote(saved: SavedSearch): string {
  const { spec } = saved;
  const what = spec.mode === 'describe' ? `Describe: ${spec.query.trim()}` : `Similar to: ${spec.reference.trim()}`;
  const payload = JSON.stringify({ v: VERSION, spec, columns: saved.columns, ranAt: saved.ranAt });
  return [
    'Sheet Scout company search',
    what,
    `Filters: ${describeFilters(spec.filters)}`,
    `Results requested: ${spec.count}`,
    `Run: ${saved.ranAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    MARKER,
    payload,
  ].join('\n');
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function year(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

function readForm(value: unknown): FilterForm {
  const form = emptyFilterForm();
  if (!value || typeof value !== 'object') return form;
  const raw = value as Record<string, unknown>;
  form.sizes = strings(raw.sizes) as FilterForm['sizes'];
  form.sizeMode = raw.sizeMode === 'exclude' ? 'exclude' : 'include';
  form.includeCountries = strings(raw.includeCountries);
  form.excludeCountries = strings(raw.excludeCountries);
  form.includeCities = strings(raw.includeCities);
  form.excludeCities = strings(raw.excludeCities);
  form.foundedFrom = year(raw.foundedFrom);
  form.foundedTo = year(raw.foundedTo);
  form.excludeDomains = strings(raw.excludeDomains);
  return form;
}

/** The saved search of a header-cell note, or null when the note is not one (or was edited beyond use). */
export function parseSavedSearchNote(note: string): SavedSearch | null {
  const at = note.indexOf(MARKER);
  if (at < 0) return null;
  const line = note
    .slice(at + MARKER.length)
    .trim()
    .split('\n')[0];
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const data = raw as Record<string, unknown>;
  const spec = data.spec as Record<string, unknown> | undefined;
  if (data.v !== VERSION || !spec || (spec.mode !== 'describe' && spec.mode !== 'similar')) return null;
  const known = new Set<string>(RESULT_COLUMNS.map((column) => column.key));
  return {
    spec: {
      mode: spec.mode,
      query: typeof spec.query === 'string' ? spec.query : '',
      reference: typeof spec.reference === 'string' ? spec.reference : '',
      filters: readForm(spec.filters),
      count: typeof spec.count === 'number' ? spec.count : 0,
    },
    columns: strings(data.columns).filter((key): key is ResultColumnKey => known.has(key)),
    ranAt: typeof data.ranAt === 'string' ? data.ranAt : '',
  };
}
