import {
  checkSpec,
  describeFilters,
  emptyFilterForm,
  FREE_DEPTH,
  PAID_DEPTH,
  referenceIdentifier,
  toServiceFilters,
  type SearchSpec,
} from '../../../src/search/spec';

function spec(overrides: Partial<SearchSpec> = {}): SearchSpec {
  return {
    mode: 'describe',
    query: 'fintech startups',
    reference: '',
    filters: emptyFilterForm(),
    count: 100,
    ...overrides,
  };
}

describe('checkSpec', () => {
  it('accepts a plain describe search', () => {
    expect(checkSpec(spec(), PAID_DEPTH, 2026)).toEqual([]);
  });

  it('points each problem at its control', () => {
    const filters = {
      ...emptyFilterForm(),
      foundedFrom: 2020,
      foundedTo: 2010,
      includeCountries: ['Germany'],
      excludeCountries: ['germany'],
      excludeDomains: ['ok.com', 'nope nope'],
    };
    const problems = checkSpec(spec({ query: '  ', count: 0, filters }), PAID_DEPTH, 2026);
    expect(problems.map((p) => p.field)).toEqual(['query', 'count', 'foundedTo', 'excludeCountries', 'excludeDomains']);
    expect(problems.find((p) => p.field === 'excludeDomains')?.message).toBe('Not domains: nope nope');
  });

  it('caps the count at the plan depth and names the free plan limit', () => {
    expect(checkSpec(spec({ count: 2000 }), PAID_DEPTH, 2026)).toEqual([]);
    expect(checkSpec(spec({ count: 2001 }), PAID_DEPTH, 2026)[0].field).toBe('count');
    expect(checkSpec(spec({ count: 26 }), FREE_DEPTH, 2026)[0].message).toBe(
      'The free plan returns up to 25 results per search',
    );
  });

  it('needs a domain or UUID for lookalike', () => {
    expect(checkSpec(spec({ mode: 'similar', reference: '' }), PAID_DEPTH, 2026)[0].field).toBe('reference');
    expect(checkSpec(spec({ mode: 'similar', reference: 'acme' }), PAID_DEPTH, 2026)[0].message).toContain(
      '"acme" is not a company domain',
    );
    expect(checkSpec(spec({ mode: 'similar', reference: 'https://www.acme.io/about' }), PAID_DEPTH, 2026)).toEqual([]);
    expect(
      checkSpec(spec({ mode: 'similar', reference: '123e4567-e89b-12d3-a456-426614174000' }), PAID_DEPTH, 2026),
    ).toEqual([]);
  });

  it('rejects years outside 1600..this year and more than 1,000 domains', () => {
    const many = Array.from({ length: 1001 }, (_, i) => `d${i}.com`);
    const problems = checkSpec(
      spec({ filters: { ...emptyFilterForm(), foundedFrom: 1200, foundedTo: 2030, excludeDomains: many } }),
      PAID_DEPTH,
      2026,
    );
    expect(problems.map((p) => p.field)).toEqual(['foundedFrom', 'foundedTo', 'excludeDomains']);
    expect(problems[2].message).toContain('1,001 domains');
  });
});

describe('toServiceFilters', () => {
  it('leaves filters out when nothing is set', () => {
    expect(toServiceFilters(emptyFilterForm())).toBeUndefined();
  });

  it('builds the nested wire form with every kind of filter', () => {
    const form = {
      ...emptyFilterForm(),
      sizes: ['51-200' as const, '11-50' as const],
      includeCountries: [' United States ', 'united states', 'Germany'],
      excludeCountries: ['France'],
      includeCities: ['Berlin'],
      excludeCities: ['Paris'],
      foundedFrom: 2000,
      foundedTo: 2015,
      excludeDomains: ['https://www.Acme.io', 'acme.io', 'zeta.dev'],
    };
    expect(toServiceFilters(form)).toEqual({
      include: { size: ['11-50', '51-200'], country: ['United States', 'Germany'], city: ['Berlin'] },
      exclude: { country: ['France'], city: ['Paris'], domains: ['acme.io', 'zeta.dev'] },
      range: { founded: { min: 2000, max: 2015 } },
    });
    expect(toServiceFilters({ ...emptyFilterForm(), sizes: ['10001+'], sizeMode: 'exclude', foundedTo: 1990 })).toEqual(
      {
        exclude: { size: ['10001+'] },
        range: { founded: { max: 1990 } },
      },
    );
  });

  it('describes filters in one line', () => {
    expect(
      describeFilters({
        ...emptyFilterForm(),
        sizes: ['1-10'],
        includeCountries: ['Germany'],
        foundedFrom: 2010,
        excludeDomains: ['a.com'],
      }),
    ).toBe('size 1-10; country Germany; founded 2010–…; 1 domain excluded');
    expect(describeFilters(emptyFilterForm())).toBe('no filters');
  });

  it('sends a reference domain as its registered domain', () => {
    expect(referenceIdentifier(' https://WWW.Acme.io/x ')).toBe('acme.io');
  });
});
