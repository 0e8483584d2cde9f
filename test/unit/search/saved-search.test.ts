import {
  formatSavedSearchNote,
  parseSavedSearchNote,
  type SavedSearch,
} from '../../../src/search/results/saved-search';
import { emptyFilterForm } from '../../../src/search/spec';

const saved: SavedSearch = {
  spec: {
    mode: 'describe',
    query: 'payments APIs "for" marketplaces',
    reference: '',
    filters: {
      ...emptyFilterForm(),
      sizes: ['11-50'],
      includeCountries: ['Germany'],
      foundedFrom: 2010,
      excludeDomains: ['acme.io'],
    },
    count: 300,
  },
  columns: ['name', 'domain', 'country'],
  ranAt: '2026-11-21T22:00:00.000Z',
};

describe('saved search note', () => {
  it('reads back exactly what it wrote, with a readable summary above', () => {
    const note = formatSavedSearchNote(saved);
    expect(note.split('\n').slice(0, 5)).toEqual([
      'Sheet Scout company search',
      'Describe: payments APIs "for" marketplaces',
      'Filters: size 11-50; country Germany; founded 2010–…; 1 domain excluded',
      'Results requested: 300',
      'Run: 2026-11-21 22:00:00 UTC',
    ]);
    expect(parseSavedSearchNote(note)).toEqual(saved);
  });

  it('survives text a user adds above the marker, and rejects notes that are not saved searches', () => {
    expect(parseSavedSearchNote(`My comment\n${formatSavedSearchNote(saved)}`)).toEqual(saved);
    expect(parseSavedSearchNote('just a note')).toBeNull();
    expect(parseSavedSearchNote(formatSavedSearchNote(saved).replace('"v":1', '"v":9'))).toBeNull();
    expect(parseSavedSearchNote(formatSavedSearchNote(saved).replace('{"v"', '{oops'))).toBeNull();
  });

  it('drops unknown columns and malformed filter values', () => {
    const note = formatSavedSearchNote({ ...saved, columns: ['name', 'nope' as never] }).replace(
      '"foundedFrom":2010',
      '"foundedFrom":"x"',
    );
    const parsed = parseSavedSearchNote(note);
    expect(parsed?.columns).toEqual(['name']);
    expect(parsed?.spec.filters.foundedFrom).toBeNull();
  });
});
