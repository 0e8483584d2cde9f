import type { CompanySearchResult } from '../../../src/api/types';
import {
  cellRow,
  DEFAULT_COLUMNS,
  previewRow,
  resolveColumns,
  suggestionsFrom,
} from '../../../src/search/results/columns';
import { mergePages, planPages } from '../../../src/search/paging';

function company(domain: string, extra: Partial<CompanySearchResult> = {}): CompanySearchResult {
  return { id: `id-${domain}`, domain, name: domain.split('.')[0], ...extra };
}

describe('planPages', () => {
  it('covers the count with pages of at most 250', () => {
    expect(planPages(25)).toEqual([{ offset: 0, limit: 25 }]);
    expect(planPages(600)).toEqual([
      { offset: 0, limit: 250 },
      { offset: 250, limit: 250 },
      { offset: 500, limit: 100 },
    ]);
    expect(planPages(2000)).toHaveLength(8);
    expect(planPages(2000)[7]).toEqual({ offset: 1750, limit: 250 });
  });
});

describe('mergePages', () => {
  it('concatenates in order, drops repeats across pages and stops at a short page', () => {
    const merged = mergePages(
      [
        { limit: 2, results: [company('a.com'), company('b.com')] },
        { limit: 2, results: [company('b.com'), company('c.com')] },
        { limit: 2, results: [company('d.com')] },
        { limit: 2, results: [company('e.com'), company('f.com')] },
      ],
      10,
    );
    expect(merged.results.map((r) => r.domain)).toEqual(['a.com', 'b.com', 'c.com', 'd.com']);
    expect(merged.exhausted).toBe(true);
  });

  it('cuts to the count and is not exhausted when every page was full', () => {
    const merged = mergePages([{ limit: 3, results: [company('a.com'), company('b.com'), company('c.com')] }], 2);
    expect(merged.results).toHaveLength(2);
    expect(merged.exhausted).toBe(false);
  });
});

describe('result columns', () => {
  const result = company('acme.io', {
    name: '=HYPERLINK("http://evil.example","x")',
    hq_country: 'Germany',
    hq_city: 'Berlin',
    employee_count: '11-50',
    founding_year: 2012,
    relevance_score: 0.87654,
    short_description: '+1 best tool',
    social_profiles: { LinkedIn: 'https://linkedin.com/company/acme', twitter: 'https://x.com/acme' },
    website_authority: { score: 61, percentile: 80, tier: '2', tier_label: 'High' },
  });

  it('always includes Domain and keeps the order given', () => {
    expect(resolveColumns(['name', 'founded', 'bogus', 'name']).map((c) => c.key)).toEqual([
      'name',
      'domain',
      'founded',
    ]);
    expect(resolveColumns(DEFAULT_COLUMNS).map((c) => c.label)).toEqual([
      'Company',
      'Domain',
      'Country',
      'City',
      'Employees',
      'Founded',
      'Relevance',
      'Description',
    ]);
  });

  it('escapes service text, keeps numbers and keeps size buckets as text', () => {
    const row = cellRow(
      result,
      resolveColumns([
        'name',
        'domain',
        'size',
        'founded',
        'relevance',
        'short_description',
        'linkedin',
        'authority_tier',
        'social_profiles',
      ]),
    );
    expect(row).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      "'acme.io",
      "'11-50",
      2012,
      0.877,
      "'+1 best tool",
      "'https://linkedin.com/company/acme",
      "'High",
      "'https://linkedin.com/company/acme\nhttps://x.com/acme",
    ]);
  });

  it('makes preview rows and suggestions', () => {
    expect(previewRow(result)).toEqual({
      name: result.name,
      domain: 'acme.io',
      country: 'Germany',
      size: '11-50',
      founded: 2012,
      relevance: 0.877,
    });
    const suggestions = suggestionsFrom([
      result,
      company('b.com', { hq_country: 'France', hq_city: 'Paris' }),
      company('c.com', { hq_country: 'France' }),
    ]);
    expect(suggestions).toEqual({ countries: ['France', 'Germany'], cities: ['Berlin', 'Paris'] });
  });
});
