// "Similar to a list" over fake ports: references from the selection, one lookalike request per reference and page with
// the same filters, unknown and still-enriching references reported, exclusions beyond the 1,000-domain filter removed
// after the call, the new sheet's rows and note, the free tier, and the checks.
import type { Result } from '../../../src/api/errors';
import type { SimilarCall } from '../../../src/api/operations';
import type { LookupOutcome, SimilarResponse } from '../../../src/api/types';
import {
  lookalikeReferences,
  runLookalikeList,
  type LookalikeBackend,
  type LookalikeDeps,
  type LookalikeListRequest,
} from '../../../src/search/lookalikes/lookalike-service';
import { PAGE_SIZE } from '../../../src/search/paging';
import { DEPTH_KEY } from '../../../src/search/plan-depth';
import { emptyFilterForm } from '../../../src/search/spec';
import { FakeSheets } from './fake-sheets';
import { ManualClock, MemoryCache, MemoryLock, MemoryStore } from '../../fakes/ports';

type Lists = Record<string, string[] | 'not_found' | 'unauthorized' | 'accepted'>;

class ListBackend implements LookalikeBackend {
  similar: SimilarCall[] = [];
  lookups: string[] = [];
  constructor(
    private readonly lists: Lists,
    private readonly enriching: string[] = [],
  ) {}
  runSimilar(calls: SimilarCall[]): Result<SimilarResponse>[] {
    this.similar.push(...calls);
    return calls.map((call) => {
      const answer = this.lists[call.companyIdentifier] ?? 'not_found';
      if (answer === 'not_found') return { ok: false, error: { kind: 'not_found' }, retries: 0 };
      if (answer === 'unauthorized') return { ok: false, error: { kind: 'unauthorized' }, retries: 0 };
      if (answer === 'accepted')
        return {
          ok: false,
          error: { kind: 'bad_response', status: 202, reason: 'search response without results' },
          retries: 0,
        };
      const { offset = 0, limit = 25 } = call.request?.pagination ?? {};
      const domains = answer.slice(offset, offset + limit);
      return {
        ok: true,
        status: 200,
        retries: 0,
        value: {
          results: domains.map((domain) => ({ id: domain, domain, name: domain })),
          request: {},
          reference_company: null,
        },
      };
    });
  }
  lookupCompanies(identifiers: string[]): Result<LookupOutcome>[] {
    this.lookups.push(...identifiers);
    return identifiers.map((identifier) =>
      this.enriching.includes(identifier)
        ? { ok: true, status: 202, retries: 0, value: { state: 'enriching', domain: identifier, message: null } }
        : { ok: false, error: { kind: 'not_found' }, retries: 0 },
    );
  }
}

function setup(backend: ListBackend | null) {
  const sheets = new FakeSheets();
  sheets.add('Customers', [['Domain'], ['a.com'], ['b.com']]);
  const userStore = new MemoryStore();
  const deps: LookalikeDeps = {
    sheets,
    client: backend,
    cache: new MemoryCache(),
    userStore,
    clock: new ManualClock(Date.parse('2026-11-23T22:00:00Z')),
    lock: new MemoryLock(),
    newId: () => 'id',
  };
  return { deps, sheets, userStore };
}

function request(overrides: Partial<LookalikeListRequest> = {}): LookalikeListRequest {
  return {
    references: ['a.com', 'b.com'],
    filters: emptyFilterForm(),
    exclude: [],
    perReference: 10,
    top: 100,
    columns: ['name', 'domain'],
    ...overrides,
  };
}

function ok<T extends { ok: boolean }>(answer: T): Extract<T, { ok: true }> {
  if (!answer.ok) throw new Error(`expected ok, got ${JSON.stringify(answer)}`);
  return answer as Extract<T, { ok: true }>;
}

describe('references from the selection', () => {
  it('reads the selected range row by row, drops a header row, normalizes and lists what is not a domain', () => {
    const { deps, sheets } = setup(null);
    sheets.selected = {
      sheet: { id: 100, name: 'Customers' },
      a1: 'A1:B4',
      row: 1,
      values: [
        ['Domain', 'Site'],
        ['https://www.A.com/x', 'b.com'],
        ['a.com', 'Acme Inc'],
        ['', 'c.io'],
      ],
    };
    expect(lookalikeReferences(deps)).toEqual({
      label: 'Customers!A1:B4',
      domains: ['b.com', 'a.com', 'c.io'],
      invalid: ['Acme Inc'],
      duplicates: 1,
      problem: null,
    });
    sheets.selected = { sheet: { id: 100, name: 'Customers' }, a1: 'A5', row: 5, values: [['Domain']] };
    expect(lookalikeReferences(deps)).toMatchObject({
      domains: [],
      invalid: ['Domain'],
      problem: expect.stringContaining('Select the cells'),
    });
    sheets.selected = {
      sheet: { id: 100, name: 'Customers' },
      a1: 'A2:A102',
      row: 2,
      values: Array.from({ length: 101 }, (_, i) => [`c${i}.com`]),
    };
    expect(lookalikeReferences(deps).problem).toBe('101 references: one run takes at most 100; select fewer');
  });
});

describe('runLookalikeList', () => {
  it('sends every reference the same filters, merges by reciprocal rank fusion and writes a new sheet', () => {
    const backend = new ListBackend({ 'a.com': ['x.com', 'b.com', 'y.com'], 'b.com': ['y.com', 'a.com', 'z.com'] });
    const { deps, sheets } = setup(backend);
    const filters = { ...emptyFilterForm(), includeCountries: ['Germany'] };
    const answer = ok(
      runLookalikeList(deps, request({ filters, exclude: [{ id: 'pasted', label: 'Pasted list', text: 'z.com' }] })),
    );
    expect(backend.similar.map((call) => call.companyIdentifier)).toEqual(['a.com', 'b.com']);
    for (const call of backend.similar) {
      expect(call.request).toEqual({
        filters: { include: { country: ['Germany'] }, exclude: { domains: ['a.com', 'b.com', 'z.com'] } },
        pagination: { offset: 0, limit: 10 },
      });
    }
    expect(answer).toMatchObject({
      written: 2,
      candidates: 2,
      requests: 2,
      sentAsFilter: 3,
      removedAfterCall: 3,
      warning: null,
    });
    expect(answer.references).toEqual({
      used: ['a.com', 'b.com'],
      notFound: [],
      enriching: [],
      failed: [],
      partial: [],
    });
    const sheet = sheets.sheet(answer.sheet!.id);
    expect(sheet.name).toBe('Lookalikes: 2 companies');
    // y.com: rank 2 for a.com once b.com is removed, rank 1 for b.com.
    expect(sheet.grid).toEqual([
      ['Company', 'Domain', 'Match score (0-100)', 'Similar to'],
      ['y.com', 'y.com', Math.round((100 * (1 / 61 + 1 / 62) * 61) / 2), '2 of your 2: b.com (#1), a.com (#2)'],
      ['x.com', 'x.com', Math.round((100 * (1 / 61) * 61) / 2), '1 of your 2: a.com (#1)'],
    ]);
    expect(sheet.notes.get('1:1')).toContain('References (2): a.com, b.com');
    expect(sheet.notes.get('1:1')).toContain('1 / (60 + rank)');
    expect(sheets.activeSheet().id).toBe(answer.sheet!.id);
  });

  it('asks every page of every reference in one batch and writes only the top N', () => {
    const long = Array.from({ length: 600 }, (_, i) => `c${i}.com`);
    const backend = new ListBackend({ 'a.com': long, 'b.com': [...long].reverse() });
    const { deps, sheets } = setup(backend);
    const answer = ok(runLookalikeList(deps, request({ perReference: 600, top: 50 })));
    const pages = Math.ceil(600 / PAGE_SIZE);
    expect(backend.similar).toHaveLength(2 * pages);
    expect(answer).toMatchObject({ requests: 2 * pages, written: 50, candidates: 600 });
    expect(sheets.sheet(answer.sheet!.id).grid).toHaveLength(51);
  });

  it('reports unknown and still-enriching references without failing, looking up only the ones the search did not serve', () => {
    const backend = new ListBackend(
      { 'a.com': ['x.com'], 'new.com': 'not_found', 'pending.com': 'not_found', 'building.com': 'accepted' },
      ['pending.com'],
    );
    const { deps } = setup(backend);
    const answer = ok(
      runLookalikeList(deps, request({ references: ['a.com', 'new.com', 'pending.com', 'building.com'] })),
    );
    expect(answer.references).toEqual({
      used: ['a.com'],
      notFound: ['new.com'],
      enriching: ['building.com', 'pending.com'],
      failed: [],
      partial: [],
    });
    expect(backend.lookups).toEqual(['new.com', 'pending.com']);
    expect(answer).toMatchObject({ written: 1, requests: 4 + 2 });
  });

  it('writes nothing and creates no sheet when no reference is in the index', () => {
    const { deps, sheets } = setup(new ListBackend({}));
    const answer = ok(runLookalikeList(deps, request({ references: ['gone.com'] })));
    expect(answer).toMatchObject({ sheet: null, written: 0, references: { notFound: ['gone.com'] } });
    expect(sheets.listSheets()).toHaveLength(1);
  });

  it('fails with the reason when no reference could be searched for a reason the user must fix', () => {
    const { deps } = setup(new ListBackend({ 'a.com': 'unauthorized', 'b.com': 'unauthorized' }));
    const answer = runLookalikeList(deps, request());
    expect(answer.ok).toBe(false);
    expect(answer.ok ? '' : answer.message).toMatch(/token/i);
  });

  it('sends the references and the 1,000 most recent excluded domains as the filter and removes the rest after the call', () => {
    const excluded = Array.from({ length: 1500 }, (_, i) => `e${i}.com`);
    const backend = new ListBackend({ 'a.com': ['e0.com', 'x.com', 'e1499.com', 'e1.com', 'y.com'] });
    const { deps, sheets } = setup(backend);
    const answer = ok(
      runLookalikeList(
        deps,
        request({
          references: ['a.com'],
          exclude: [{ id: 'list', label: 'Old customers', list: { domains: excluded, invalid: [], duplicates: 0 } }],
        }),
      ),
    );
    const sent = backend.similar[0].request?.filters?.exclude?.domains ?? [];
    expect(sent).toHaveLength(1000);
    expect(sent[0]).toBe('a.com');
    expect(sent[1]).toBe('e501.com');
    expect(answer).toMatchObject({ sentAsFilter: 1000, removedAfterCall: 3, written: 2 });
    expect(
      sheets
        .sheet(answer.sheet!.id)
        .grid.slice(1)
        .map((row) => [row[1], row[3]]),
    ).toEqual([
      ['x.com', '1 of your 1: a.com (#1)'],
      ['y.com', '1 of your 1: a.com (#2)'],
    ]);
  });

  it('detects the free tier when every list stops at 25, remembers it to explain, and refuses nothing', () => {
    // The probe asks the first result's lookalikes beyond 25: none on the free tier.
    const backend = new ListBackend({
      'a.com': Array.from({ length: 25 }, (_, i) => `c${i}.com`),
      'b.com': Array.from({ length: 25 }, (_, i) => `d${i}.com`),
      'c0.com': ['a.com'],
    });
    const { deps, userStore } = setup(backend);
    const answer = ok(runLookalikeList(deps, request({ perReference: 100 })));
    expect(answer.warning).toBe('The free plan returns up to 25 results per reference');
    expect(userStore.get(DEPTH_KEY)).toMatch(/^25:/);
    const again = ok(runLookalikeList(deps, request({ perReference: 100 })));
    expect(again.warning).toBe('The free plan returns up to 25 results per reference');
  });

  it('checks the references, the counts and the filters before sending anything', () => {
    const backend = new ListBackend({});
    const { deps } = setup(backend);
    const answer = runLookalikeList(
      deps,
      request({
        references: ['not a domain'],
        top: 0,
        perReference: 2001,
        filters: { ...emptyFilterForm(), foundedFrom: 2020, foundedTo: 2010 },
      }),
    );
    expect(answer.ok ? [] : answer.problems.map((problem) => problem.field)).toEqual([
      'references',
      'references',
      'perReference',
      'foundedTo',
      'top',
    ]);
    const tooMany = runLookalikeList(deps, request({ references: Array.from({ length: 101 }, (_, i) => `r${i}.com`) }));
    expect(tooMany.ok ? '' : tooMany.message).toBe('101 references: one run takes at most 100; select fewer');
    expect(runLookalikeList({ ...deps, client: null }, request())).toMatchObject({
      ok: false,
      message: expect.stringContaining('Settings'),
    });
    expect(backend.similar).toEqual([]);
  });
});
