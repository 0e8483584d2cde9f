// Unit tests for search filter parsing (nested and dotted forms, precise locs), the filter predicate, and domain
// normalization.
import type { Company } from '../../../dev/sandbox/companies/company-index';
import { registeredDomain, isUuid } from '../../../dev/sandbox/companies/domains';
import { filterPredicate, parseFilters, parseFiltersQuery } from '../../../dev/sandbox/companies/filters';

const BASE = ['body', 'filters'];

describe('registeredDomain', () => {
  test.each([
    ['acme.com', 'acme.com'],
    ['HTTPS://WWW.Acme.COM/about?x=1', 'acme.com'],
    ['blog.acme.co.uk', 'acme.co.uk'],
    ['acme.com.', 'acme.com'],
    ['http://acme.com:8080', 'acme.com'],
  ])('%s -> %s', (input, expected) => expect(registeredDomain(input)).toBe(expected));

  test.each(['', 'acme', 'localhost', '10.0.0.1', 'a b.com', 'me@acme.com', 'acme.invalid', 'acme.notatld'])(
    '%p is not a domain',
    (input) => {
      expect(registeredDomain(input)).toBeNull();
    },
  );

  test('isUuid accepts any case and rejects other strings', () => {
    expect(isUuid('F735D4BB-6AE3-4A9F-81D7-87D40265C0F7')).toBe(true);
    expect(isUuid('f735d4bb6ae34a9f81d787d40265c0f7')).toBe(false);
  });
});

describe('parseFilters', () => {
  test('nested and dotted forms normalize to the same nested object', () => {
    const nested = parseFilters(
      {
        include: { country: ['Germany'], size: ['1-10'] },
        exclude: { domains: ['https://www.a.com/x'] },
        range: { founded: { min: 2000, max: 2010 } },
      },
      BASE,
    );
    const dotted = parseFilters(
      {
        'include.country': ['Germany'],
        'include.size': ['1-10'],
        'exclude.domains': ['a.com'],
        'range.founded.min': 2000,
        'range.founded.max': 2010,
      },
      BASE,
    );
    expect(nested.issues).toEqual([]);
    expect(dotted.issues).toEqual([]);
    expect(dotted.filters).toEqual(nested.filters);
    expect(nested.filters).toEqual({
      include: { country: ['Germany'], size: ['1-10'] },
      exclude: { domains: ['a.com'] },
      range: { founded: { min: 2000, max: 2010 } },
    });
  });

  test('mixed forms merge, and lists are de-duplicated', () => {
    const { filters } = parseFilters(
      { include: { country: ['Spain'] }, 'include.country': ['Spain', 'France'], 'range.founded': { min: 1999 } },
      BASE,
    );
    expect(filters).toEqual({ include: { country: ['Spain', 'France'] }, range: { founded: { min: 1999 } } });
  });

  test('unsupported keys are reported at their exact location', () => {
    const { issues } = parseFilters(
      { include: { industry: ['x'] }, 'exclude.founded': [1], range: { founded: { after: 1 } }, other: 1 },
      BASE,
    );
    expect(issues.map((entry) => entry.loc)).toEqual([
      [...BASE, 'include', 'industry'],
      [...BASE, 'exclude.founded'],
      [...BASE, 'range', 'founded', 'after'],
      [...BASE, 'other'],
    ]);
    expect(issues.every((entry) => entry.type === 'extra_forbidden')).toBe(true);
  });

  test('size buckets are exactly the eight strings', () => {
    expect(parseFilters({ include: { size: ['10001+'] } }, BASE).issues).toEqual([]);
    expect(parseFilters({ include: { size: ['10000+'] } }, BASE).issues[0]).toMatchObject({
      loc: [...BASE, 'include', 'size', 0],
      type: 'literal_error',
    });
  });

  test('exclude.domains: invalid entries located by index; more than 1000 after de-duplication is too_long', () => {
    expect(parseFilters({ exclude: { domains: ['a.com', 'nope'] } }, BASE).issues[0].loc).toEqual([
      ...BASE,
      'exclude',
      'domains',
      1,
    ]);
    const many = Array.from({ length: 1001 }, (_, index) => `d${index}.com`);
    expect(parseFilters({ exclude: { domains: many } }, BASE).issues[0]).toMatchObject({
      loc: [...BASE, 'exclude', 'domains'],
      type: 'too_long',
    });
    expect(
      parseFilters({ exclude: { domains: [...many.slice(0, 1000), 'D0.COM', 'www.d1.com'] } }, BASE).issues,
    ).toEqual([]);
  });

  test('founded bounds must be integers with min <= max', () => {
    expect(parseFilters({ range: { founded: { min: 2000.5 } } }, BASE).issues[0].loc).toEqual([
      ...BASE,
      'range',
      'founded',
      'min',
    ]);
    expect(parseFilters({ 'range.founded.max': '2000' }, BASE).issues[0].loc).toEqual([...BASE, 'range.founded.max']);
    expect(parseFilters({ range: { founded: { min: 2010, max: 2000 } } }, BASE).issues[0].loc).toEqual([
      ...BASE,
      'range',
      'founded',
    ]);
  });

  test('GET filters: malformed JSON is json_invalid at ["query","filters"]; empty means none', () => {
    expect(parseFiltersQuery('{"include":').issues[0]).toMatchObject({
      loc: ['query', 'filters'],
      type: 'json_invalid',
    });
    expect(parseFiltersQuery('[1]').issues[0]).toMatchObject({ loc: ['query', 'filters'], type: 'dict_type' });
    expect(parseFiltersQuery(undefined)).toEqual({ filters: {}, issues: [] });
  });
});

describe('filterPredicate', () => {
  const company = {
    employee_count: '51-200',
    hq_country: 'Germany',
    hq_city: 'Berlin',
    domain: 'acme.de',
    founding_year: 2012,
  } as Company;

  test.each([
    [{}, true],
    [{ include: { country: ['germany'] } }, true],
    [{ include: { country: ['France'] } }, false],
    [{ include: { country: [] } }, true],
    [{ include: { city: ['Munich'] } }, false],
    [{ include: { size: ['51-200', '1-10'] } }, true],
    [{ exclude: { size: ['51-200'] } }, false],
    [{ exclude: { city: ['BERLIN'] } }, false],
    [{ exclude: { domains: ['acme.de'] } }, false],
    [{ range: { founded: { min: 2012, max: 2012 } } }, true],
    [{ range: { founded: { min: 2013 } } }, false],
    [{ range: { founded: { max: 2011 } } }, false],
  ])('%j -> %s', (filters, expected) => expect(filterPredicate(filters)(company)).toBe(expected));
});
