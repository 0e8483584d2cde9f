import { fieldOfLocation, runSearch } from '../../../src/search/run-search';
import { emptyFilterForm, specKeyOf, type SearchSpec } from '../../../src/search/spec';
import { FakeBackend, total } from './fake-sheets';

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

describe('spec key', () => {
  it('keys specs independent of property order', () => {
    expect(specKeyOf({ a: 1, b: { d: 2, c: [3] } })).toBe(specKeyOf({ b: { c: [3], d: 2 }, a: 1 }));
    expect(specKeyOf(spec())).not.toBe(specKeyOf(spec({ count: 5 })));
  });
});
