import { DEPTH_KEY } from '../../../src/search/plan-depth';
import { fingerprint } from '../../../src/shared/fingerprint';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import {
  excludeDomainsFrom,
  panelState,
  previewSearch,
  runAgain,
  sheetColumns,
  writeResults,
  type SearchDeps,
} from '../../../src/search/service';
import { parseSavedSearchNote } from '../../../src/search/results/saved-search';
import { emptyFilterForm, type SearchSpec } from '../../../src/search/spec';
import { FakeBackend, FakeSheets, total } from './fake-sheets';
import { ManualClock, MemoryCache, MemoryLock, MemoryStore } from '../../fakes/ports';

function setup(backend: FakeBackend | null = new FakeBackend(total(5000))) {
  const sheets = new FakeSheets();
  sheets.add('Sheet1', [
    ['Company', 'Website'],
    ['Acme', 'https://acme.io'],
    ['Zeta', 'c3.com'],
  ]);
  const cache = new MemoryCache();
  const userStore = new MemoryStore();
  userStore.set(SETTINGS_KEYS.token, 'sbx_free_token');
  const lock = new MemoryLock();
  let ids = 0;
  const deps: SearchDeps = {
    sheets,
    client: backend,
    cache,
    userStore,
    clock: new ManualClock(Date.parse('2026-11-21T22:00:00Z')),
    lock,
    newId: () => `s${++ids}`,
  };
  return { deps, sheets, cache, userStore, backend, lock: { hold: () => (lock.heldElsewhere = true) } };
}

function spec(overrides: Partial<SearchSpec> = {}): SearchSpec {
  return { mode: 'describe', query: 'fintech', reference: '', filters: emptyFilterForm(), count: 30, ...overrides };
}

describe('panel state and sheet reads', () => {
  it('reports connection, depth, the selected domain and the saved search of the active sheet', () => {
    const { deps, sheets, userStore } = setup();
    sheets.activeValue = 'https://www.Example.org/team';
    expect(panelState(deps)).toMatchObject({
      connected: true,
      depth: 2000,
      selectedDomain: 'example.org',
      savedSearch: null,
      savedFilters: null,
      activeSheet: { name: 'Sheet1' },
    });
    const columns = panelState(deps).columns;
    expect(columns.slice(0, 3)).toEqual([
      { key: 'name', label: 'Company', byDefault: true },
      { key: 'domain', label: 'Domain', byDefault: true },
      { key: 'country', label: 'Country', byDefault: true },
    ]);
    expect(columns.filter((column) => column.byDefault).map((column) => column.key)).toEqual([
      'name',
      'domain',
      'country',
      'city',
      'size',
      'founded',
      'relevance',
      'short_description',
    ]);
    expect(columns.find((column) => column.key === 'full_description')).toEqual({
      key: 'full_description',
      label: 'Full description',
      byDefault: false,
    });
    userStore.set(DEPTH_KEY, `25:${Date.parse('2026-11-21T21:00:00Z')}:${fingerprint('sbx_free_token')}`);
    sheets.activeValue = 'Acme Inc';
    expect(panelState({ ...deps, client: null })).toMatchObject({ connected: false, depth: 25, selectedDomain: null });
    // Learned with another token: this one's plan is not known.
    userStore.set(SETTINGS_KEYS.token, 'sbx_pro_token');
    expect(panelState({ ...deps, client: null })).toMatchObject({ depth: 2000 });
  });

  it('reads headers and exclude domains from a column or from the domain columns of a sheet', () => {
    const { deps, sheets } = setup();
    const id = sheets.listSheets()[0].id;
    expect(sheetColumns(deps, id)).toMatchObject({ headers: ['Company', 'Website'], domainColumn: 1 });
    expect(excludeDomainsFrom(deps, { kind: 'column', sheetId: id, column: 1, skipHeader: true })).toEqual({
      domains: ['acme.io', 'c3.com'],
      invalid: [],
      duplicates: 0,
    });
    expect(excludeDomainsFrom(deps, { kind: 'column', sheetId: id, column: 0, skipHeader: true })).toMatchObject({
      invalid: ['Acme', 'Zeta'],
    });
    expect(excludeDomainsFrom(deps, { kind: 'sheet', sheetId: id })).toMatchObject({ domains: ['acme.io', 'c3.com'] });
    expect(excludeDomainsFrom(deps, { kind: 'sheet', sheetId: 999 })).toEqual({
      ok: false,
      message: 'That sheet no longer exists: pick another one',
      problems: [],
    });
  });
});

describe('preview and write', () => {
  it('previews the first rows, keeps the results for the write, and writes without searching again', () => {
    const { deps, sheets, backend } = setup();
    const answer = previewSearch(deps, spec());
    expect(answer).toMatchObject({ ok: true, searchId: 's1', count: 30, exhausted: false });
    if (!answer.ok) throw new Error('expected ok');
    expect(answer.preview[0]).toEqual({
      name: 'C0',
      domain: 'c0.com',
      country: '',
      size: '',
      founded: null,
      relevance: null,
    });
    expect(backend?.searches).toHaveLength(1);
    const written = writeResults(deps, {
      searchId: answer.searchId,
      spec: spec(),
      columns: ['name', 'domain'],
      target: { kind: 'new' },
    });
    expect(written).toMatchObject({ ok: true, written: 30, skipped: 0, sheet: { name: 'Search: fintech' } });
    expect(backend?.searches).toHaveLength(1);
    const sheet = sheets.sheets[1];
    expect(sheet.grid[1]).toEqual(['C0', 'c0.com']);
    expect(parseSavedSearchNote(sheet.notes.get('1:1') ?? '')?.ranAt).toBe('2026-11-21T22:00:00.000Z');
  });

  it('searches again when the cached results are gone or belong to another spec, and appends skipping domains already there', () => {
    const { deps, sheets, backend, cache } = setup();
    const answer = previewSearch(deps, spec());
    cache.entries.clear();
    const target = sheets.listSheets()[0];
    const written = writeResults(deps, {
      searchId: answer.ok ? answer.searchId : null,
      spec: spec({ count: 5 }),
      columns: ['domain'],
      target: { kind: 'append', sheetId: target.id },
    });
    expect(written).toMatchObject({ ok: true, written: 4, skipped: 1, addedColumns: [] });
    expect(backend?.searches).toHaveLength(2);
    expect(sheets.sheet(target.id).grid.map((row) => row[1])).toEqual([
      'Website',
      'https://acme.io',
      'c3.com',
      'c0.com',
      'c1.com',
      'c2.com',
      'c4.com',
    ]);
  });

  it('refuses an invalid spec before sending, and says so when not connected', () => {
    const { deps, backend } = setup();
    expect(previewSearch(deps, spec({ query: '' }))).toMatchObject({ ok: false, problems: [{ field: 'query' }] });
    expect(backend?.searches).toHaveLength(0);
    expect(previewSearch({ ...deps, client: null }, spec())).toMatchObject({
      ok: false,
      message: 'Set up Sheet Scout: Extensions > Sheet Scout > Settings',
    });
  });

  it('detects the free tier with one lookalike probe when exactly 25 come back, says so for a day, refuses nothing', () => {
    const free = new FakeBackend((offset, limit) => total(25)(offset, limit));
    const { deps, userStore } = setup(free);
    const answer = previewSearch(deps, spec({ count: 100 }));
    expect(answer).toMatchObject({
      ok: true,
      count: 25,
      depth: 25,
      exhausted: false,
      warning: 'The free plan returns up to 25 results per search',
    });
    expect(free.similar).toEqual([{ companyIdentifier: 'c0.com', request: { pagination: { offset: 25, limit: 1 } } }]);
    expect(userStore.get(DEPTH_KEY)).toBe(`25:${Date.parse('2026-11-21T22:00:00Z')}:${fingerprint('sbx_free_token')}`);
    // Asked again for 100: sent (the plan may have changed), and the same answer.
    expect(previewSearch(deps, spec({ count: 100 }))).toMatchObject({
      ok: true,
      count: 25,
      warning: 'The free plan returns up to 25 results per search',
    });
    const nextDay = { ...deps, clock: new ManualClock(Date.parse('2026-11-22T22:00:01Z')) };
    expect(panelState(nextDay).depth).toBe(2000);
  });

  it('takes exactly 25 matches of a paid account as all the matches when the probe finds more', () => {
    const paid = new FakeBackend((offset, limit) =>
      offset >= 25 && limit === 1 ? total(5000)(offset, limit) : total(25)(offset, limit),
    );
    const { deps, userStore } = setup(paid);
    expect(previewSearch(deps, spec({ count: 100 }))).toMatchObject({
      ok: true,
      count: 25,
      depth: 2000,
      exhausted: true,
      warning: null,
    });
    expect(userStore.get(DEPTH_KEY)).toBeNull();
  });

  it('forgets a learned free tier once a search returns more than 25 (the account was upgraded)', () => {
    const { deps, userStore } = setup(new FakeBackend(total(5000)));
    userStore.set(DEPTH_KEY, `25:${Date.parse('2026-11-21T21:00:00Z')}:${fingerprint('sbx_free_token')}`);
    expect(panelState(deps).depth).toBe(25);
    expect(previewSearch(deps, spec({ count: 100 }))).toMatchObject({ ok: true, count: 100, warning: null });
    expect(userStore.get(DEPTH_KEY)).toBeNull();
    expect(panelState(deps).depth).toBe(2000);
  });

  it('does not write while another job holds the document lock', () => {
    const { deps, lock } = setup();
    lock.hold();
    expect(
      writeResults(deps, { searchId: null, spec: spec(), columns: ['domain'], target: { kind: 'new' } }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('try again in a moment') });
  });
});

describe('run again', () => {
  it('repeats the saved search of a sheet it created and appends only new companies', () => {
    const backend = new FakeBackend(total(5000));
    const { deps, sheets } = setup(backend);
    const first = writeResults(deps, {
      searchId: null,
      spec: spec({ count: 10 }),
      columns: ['name', 'domain'],
      target: { kind: 'new' },
    });
    if (!first.ok) throw new Error('expected ok');
    sheets.active = sheets.listSheets().findIndex((sheet) => sheet.id === first.sheet.id);
    expect(panelState(deps)).toMatchObject({ savedSearch: { spec: { query: 'fintech' } }, savedFilters: 'no filters' });
    const grown = new FakeBackend(total(5000));
    const again = runAgain({ ...deps, client: grown }, first.sheet.id);
    expect(again).toMatchObject({ ok: true, written: 0, skipped: 10 });
    expect(grown.searches[0]).toMatchObject({ q: 'fintech', pagination: { offset: 0, limit: 10 } });
    sheets.sheet(first.sheet.id).grid.splice(3, 1); // the user deleted c1.com's row
    expect(runAgain({ ...deps, client: grown }, first.sheet.id)).toMatchObject({ ok: true, written: 1, skipped: 9 });
    expect(runAgain(deps, sheets.listSheets()[0].id)).toMatchObject({
      ok: false,
      message: expect.stringContaining('was not created by a Sheet Scout search'),
    });
  });
});
