import { loadResults, specKeyOf, storeResults } from '../../../src/search/result-store';
import { fieldOfLocation, runSearch } from '../../../src/search/run-search';
import { emptyFilterForm, type SearchSpec } from '../../../src/search/spec';
import { FakeBackend, results, total } from './fake-sheets';
import { MemoryCache } from '../../fakes/ports';

function spec(overrides: Partial<SearchSpec> = {}): SearchSpec {
  return { mode: 'describe', query: ' fintech ', reference: '', filters: emptyFilterForm(), count: 600, ...overrides };
}

describe('runSearch', () => {
  it('sends every page at once with the query and filters, and merges them in order', () => {
    const backend = new FakeBackend(total(10_000));
    const run = runSearch(backend, spec({ filters: { ...emptyFilterForm(), includeCountries: ['Germany'] } }));
    expect(backend.searches).toEqual(
      [0, 250, 500].map((offset) => ({
        q: 'fintech',
        filters: { include: { country: ['Germany'] } },
        pagination: { offset, limit: offset === 500 ? 100 : 250 },
      })),
    );
    expect(run).toMatchObject({ ok: true, exhausted: false, warning: null });
    if (run.ok)
      expect(run.results.map((r) => r.domain).slice(248, 252)).toEqual([
        'c248.com',
        'c249.com',
        'c250.com',
        'c251.com',
      ]);
  });

  it('stops at the end of the index', () => {
    const run = runSearch(new FakeBackend(total(300)), spec());
    expect(run).toMatchObject({ ok: true, exhausted: true });
    if (run.ok) expect(run.results).toHaveLength(300);
  });

  it('runs lookalike on the registered domain of the reference and returns the reference company', () => {
    const backend = new FakeBackend(total(40));
    const run = runSearch(backend, spec({ mode: 'similar', reference: 'https://www.Ref.com/', count: 25 }));
    expect(backend.similar).toEqual([
      { companyIdentifier: 'ref.com', request: { pagination: { offset: 0, limit: 25 } } },
    ]);
    expect(run).toMatchObject({ ok: true, reference: { domain: 'ref.com' } });
  });

  it('maps a lookalike 404 to "not in the company index" on the reference control', () => {
    const run = runSearch(
      new FakeBackend(() => ({ ok: false, retries: 0, error: { kind: 'not_found' } })),
      spec({ mode: 'similar', reference: 'ghost.io' }),
    );
    expect(run).toMatchObject({
      ok: false,
      message: 'ghost.io is not in the company index; try Describe',
      problems: [{ field: 'reference' }],
    });
  });

  it('maps 422 detail to the controls by loc', () => {
    const detail = [
      { loc: ['body', 'filters', 'exclude', 'domains', 3], msg: 'Invalid domain', type: 'value_error' },
      { loc: ['body', 'filters', 'range', 'founded', 'max'], msg: 'Input should be a valid integer', type: 'int_type' },
    ];
    const run = runSearch(
      new FakeBackend(() => ({ ok: false, retries: 0, error: { kind: 'validation', detail } })),
      spec(),
    );
    expect(run).toMatchObject({
      ok: false,
      problems: [
        { field: 'excludeDomains', message: 'Invalid domain' },
        { field: 'foundedTo', message: 'Input should be a valid integer' },
      ],
    });
  });

  it('keeps the pages fetched before a failing page and says why the rest is missing', () => {
    const run = runSearch(
      new FakeBackend((offset, limit) =>
        offset >= 500 ? { ok: false, retries: 2, error: { kind: 'rate_limited' } } : total(5000)(offset, limit),
      ),
      spec(),
    );
    expect(run).toMatchObject({
      ok: true,
      warning: 'Only the first 500 results could be fetched: Rate limited, retry later',
    });
  });

  it('gives the short user message for other failures', () => {
    expect(
      runSearch(new FakeBackend(() => ({ ok: false, retries: 0, error: { kind: 'unauthorized' } })), spec()),
    ).toMatchObject({ ok: false, message: 'Token rejected: check it in Settings', problems: [] });
  });

  it('reads the control of every filter loc', () => {
    expect(fieldOfLocation(['body', 'filters', 'include', 'size', 0])).toBe('sizes');
    expect(fieldOfLocation(['body', 'filters', 'include.country', 1])).toBe('includeCountries');
    expect(fieldOfLocation(['body', 'filters', 'exclude', 'city'])).toBe('excludeCities');
    expect(fieldOfLocation(['body', 'filters', 'range', 'founded'])).toBe('foundedFrom');
    expect(fieldOfLocation(['body', 'q'])).toBe('query');
    expect(fieldOfLocation(['body', 'pagination', 'limit'])).toBe('count');
    expect(fieldOfLocation(['body'])).toBe('form');
  });
});

describe('result store', () => {
  const big = results(0, 2000).map((r) => ({ ...r, full_description: 'x'.repeat(300) }));
  it('stores results in chunks under 100 KB and loads them back for the same spec only', () => {
    const cache = new MemoryCache();
    const key = specKeyOf(spec());
    expect(storeResults(cache, 's1', { specKey: key, results: big, exhausted: false })).toBe(true);
    expect(Math.max(...[...cache.entries.values()].map((entry) => entry.value.length))).toBeLessThanOrEqual(30_000);
    expect(cache.entries.size).toBeGreaterThan(5);
    expect(loadResults(cache, 's1', key)?.results).toEqual(big);
    expect(loadResults(cache, 's1', specKeyOf(spec({ count: 5 })))).toBeNull();
    cache.entries.delete('search:v1:s1:2');
    expect(loadResults(cache, 's1', key)).toBeNull();
    expect(loadResults(cache, 'other', key)).toBeNull();
  });

  it('reports a refused store, and keys specs independent of property order', () => {
    const cache = new MemoryCache();
    cache.failPuts = true;
    expect(storeResults(cache, 's1', { specKey: 'k', results: big, exhausted: false })).toBe(false);
    expect(specKeyOf({ a: 1, b: { d: 2, c: [3] } })).toBe(specKeyOf({ b: { c: [3], d: 2 }, a: 1 }));
  });
});
