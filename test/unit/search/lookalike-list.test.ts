// Reciprocal rank fusion of several references' lookalike lists, the split of excluded domains between the service's
// filter and the filtering after the call, the rows written, and the cost plan shown before a run.
import fc from 'fast-check';
import type { CompanySearchResult } from '../../../src/api/types';
import { resolveColumns } from '../../../src/search/results/columns';
import {
  companyKey,
  fusedRows,
  matchScore,
  fuseRankings,
  similarToText,
  splitExclusion,
  type ReferenceResults,
} from '../../../src/search/lookalikes/lookalike-list';
import { describePlan, planLookalikeRun, RRF_K } from '../../../src/search/lookalikes/lookalike-plan';
import { PAGE_SIZE } from '../../../src/search/paging';

function company(domain: string, extra: Partial<CompanySearchResult> = {}): CompanySearchResult {
  return { id: `id-${domain}`, domain, name: domain.split('.')[0].toUpperCase(), ...extra };
}

function list(reference: string, domains: string[]): ReferenceResults {
  return { reference, results: domains.map((domain) => company(domain)) };
}

const score = (...ranks: number[]) => ranks.reduce((sum, rank) => sum + 1 / (RRF_K + rank), 0);

describe('fuseRankings', () => {
  it('scores each company as the sum of 1 / (60 + rank) over the references that list it', () => {
    const fused = fuseRankings(
      [list('a.com', ['x.com', 'y.com', 'z.com']), list('b.com', ['z.com', 'y.com'])],
      new Set(),
    );
    const byDomain = new Map(fused.companies.map((entry) => [entry.domain, entry]));
    expect(byDomain.get('x.com')?.score).toBeCloseTo(score(1), 12);
    expect(byDomain.get('y.com')?.score).toBeCloseTo(score(2, 2), 12);
    expect(byDomain.get('z.com')?.score).toBeCloseTo(score(3, 1), 12);
    expect(fused.companies.map((entry) => entry.domain)).toEqual(['z.com', 'y.com', 'x.com']);
  });

  it('ranks a company similar to many references above one that is first for a single reference', () => {
    const lists = ['r1.com', 'r2.com', 'r3.com'].map((reference, index) =>
      list(reference, [`only-${index}.com`, 'f1.com', 'f2.com', 'f3.com', 'f4.com', 'shared.com']),
    );
    const fused = fuseRankings(lists, new Set());
    const order = fused.companies.map((entry) => entry.domain);
    expect(order.indexOf('shared.com')).toBeLessThan(order.indexOf('only-0.com'));
    expect(
      fused.companies.find((entry) => entry.domain === 'shared.com')?.matches.map((match) => match.reference),
    ).toEqual(['r1.com', 'r2.com', 'r3.com']);
  });

  it('removes the excluded domains before counting ranks, and counts the distinct companies removed', () => {
    const fused = fuseRankings(
      [list('a.com', ['b.com', 'gone.com', 'x.com']), list('b.com', ['a.com', 'x.com', 'gone.com'])],
      new Set(['a.com', 'b.com', 'gone.com']),
    );
    expect(fused.companies).toHaveLength(1);
    expect(fused.companies[0]).toMatchObject({
      domain: 'x.com',
      matches: [
        { reference: 'a.com', rank: 1 },
        { reference: 'b.com', rank: 1 },
      ],
    });
    expect(fused.companies[0].score).toBeCloseTo(score(1, 1), 12);
    expect(fused.removed).toBe(3);
  });

  it('merges spellings of one registered domain and counts a company repeated in a list once', () => {
    const lists: ReferenceResults[] = [
      { reference: 'a.com', results: [company('https://WWW.X.com/about'), company('x.com'), company('y.com')] },
      { reference: 'b.com', results: [company('y.com'), company('x.com')] },
    ];
    const fused = fuseRankings(lists, new Set());
    expect(fused.companies.map((entry) => [entry.domain, entry.matches])).toEqual([
      [
        'x.com',
        [
          { reference: 'a.com', rank: 1 },
          { reference: 'b.com', rank: 2 },
        ],
      ],
      [
        'y.com',
        [
          { reference: 'b.com', rank: 1 },
          { reference: 'a.com', rank: 2 },
        ],
      ],
    ]);
    expect(companyKey(company('Shop.Acme.co.uk'))).toBe('acme.co.uk');
  });

  it('breaks ties by number of references, then best rank, then domain, whatever the order of the lists', () => {
    // p.com and q.com both score 1/61 + 1/63 (ranks 1 and 3), just above m.com and n.com with 1/62 + 1/62 (rank 2
    // twice); y.com and z.com are first once, a.com third once.
    const lists = [
      list('r1.com', ['q.com', 'm.com', 'p.com']),
      list('r2.com', ['p.com', 'n.com', 'q.com']),
      list('r3.com', ['z.com', 'n.com', 'a.com']),
      list('r4.com', ['y.com', 'm.com']),
    ];
    const first = fuseRankings(lists, new Set()).companies.map((entry) => entry.domain);
    const reversed = fuseRankings([...lists].reverse(), new Set()).companies.map((entry) => entry.domain);
    expect(first).toEqual(['p.com', 'q.com', 'm.com', 'n.com', 'y.com', 'z.com', 'a.com']);
    expect(reversed).toEqual(first);
    // Equal score, count and best rank: domain order.
    const single = fuseRankings(
      [list('r1.com', ['b.com', 'c.com']), list('r2.com', ['a.com'])],
      new Set(),
    ).companies.map((entry) => entry.domain);
    expect(single).toEqual(['a.com', 'b.com', 'c.com']);
  });

  it('keeps the company fields of the reference where it ranks best', () => {
    const lists: ReferenceResults[] = [
      { reference: 'a.com', results: [company('o.com'), company('x.com', { relevance_score: 0.5 })] },
      { reference: 'b.com', results: [company('x.com', { relevance_score: 0.9 })] },
    ];
    expect(
      fuseRankings(lists, new Set()).companies.find((entry) => entry.domain === 'x.com')?.result.relevance_score,
    ).toBe(0.9);
  });
});

describe('splitExclusion', () => {
  it('puts the references first into the 1,000-domain filter, then the most recent excluded domains', () => {
    const references = ['r1.com', 'r2.com'];
    const excluded = [...Array.from({ length: 1200 }, (_, i) => `e${i}.com`), 'r1.com'];
    const split = splitExclusion(references, excluded);
    expect(split.filter).toHaveLength(1000);
    expect(split.filter.slice(0, 3)).toEqual(['r1.com', 'r2.com', 'e202.com']);
    expect(split.filter[999]).toBe('e1199.com');
    expect(split.excluded.size).toBe(1202);
    expect(split.excluded.has('e0.com')).toBe(true);
    expect(split.beyondFilter).toBe(202);
  });

  it('sends everything as the filter when it fits', () => {
    expect(splitExclusion(['r.com'], ['a.com', 'b.com', 'a.com'])).toEqual({
      filter: ['r.com', 'a.com', 'b.com'],
      excluded: new Set(['r.com', 'a.com', 'b.com']),
      beyondFilter: 0,
    });
  });
});

describe('rows written', () => {
  it('writes the chosen company columns, score and similar to, every service string as literal text', () => {
    const fused = fuseRankings(
      [
        { reference: 'a.com', results: [company('x.com', { name: '=HYPERLINK("http://evil")', hq_country: 'TRUE' })] },
        list('b.com', ['x.com']),
      ],
      new Set(),
    );
    const rows = fusedRows(fused.companies, resolveColumns(['name', 'domain', 'country']), 2);
    expect(rows[0]).toEqual(['Company', 'Domain', 'Country', 'Match score (0-100)', 'Similar to']);
    // Headers cased like the company columns; the relevance says which reference it is relative to (issue 29).
    expect(fusedRows(fused.companies, resolveColumns(['domain', 'relevance']), 2)[0]).toEqual([
      'Domain',
      'Relevance (to its first reference)',
      'Match score (0-100)',
      'Similar to',
    ]);
    // Both references list it first: the most a company can score.
    expect(rows[1]).toEqual([
      '\'=HYPERLINK("http://evil")',
      "'x.com",
      "'TRUE",
      100,
      "'2 of your 2: a.com (#1), b.com (#1)",
    ]);
    expect(
      similarToText(
        [
          { reference: 'b.com', rank: 2 },
          { reference: 'a.com', rank: 9 },
        ],
        18,
      ),
    ).toBe('2 of your 18: b.com (#2), a.com (#9)');
  });

  it('scores from 0 to 100: the share of the most a company can score, every reference listing it first', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 100 }), (ranks) => {
        const references = ranks.length + 3;
        const value = matchScore(score(...ranks), references);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(100);
        expect(value).toBe(Math.round((100 * score(...ranks) * (RRF_K + 1)) / references));
      }),
      { seed: 48, numRuns: 200 },
    );
    expect(matchScore(score(1, 1, 1), 3)).toBe(100);
    expect(matchScore(score(1), 18)).toBe(6);
  });
});

describe('the plan shown before a run', () => {
  it('counts one request per reference and page, and splits the excluded domains at 1,000', () => {
    const plan = planLookalikeRun(50, 500, 1200, 2000);
    const pages = Math.ceil(500 / PAGE_SIZE);
    expect(plan).toEqual({
      references: 50,
      perReference: 500,
      pagesPerReference: pages,
      requests: 50 * pages,
      depth: 2000,
      excluded: 1250,
      sentAsFilter: 1000,
      filteredAfterCall: 250,
    });
    expect(describePlan(plan)).toEqual([
      `${(50 * pages).toLocaleString('en-US')} requests: 50 references × ${pages} page${pages === 1 ? '' : 's'} (lookalike searches, in parallel)`,
      '500 results per reference; your plan reaches 2,000',
      "Excluded: 1,250 domains (references included): 1,000 sent as the service's filter, 250 removed from the answers after the call",
    ]);
  });

  it('names the free plan depth', () => {
    const lines = describePlan(planLookalikeRun(1, 25, 0, 25));
    expect(lines).toEqual([
      '1 request: 1 reference × 1 page (lookalike searches, in parallel)',
      '25 results per reference; the free plan reaches 25 per reference',
      "Excluded: 1 domain (references included), sent as the service's filter",
    ]);
  });
});
