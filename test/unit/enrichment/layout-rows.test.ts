import { detectDomainColumn, locateColumns, planTargetColumns } from '../../../src/enrichment/sheet/layout';
import { columnLetter } from '../../../src/shared/a1';
import {
  ENRICHING_TEXT,
  FAILED_PREFIX,
  isEmptyOrMark,
  NO_DATA_TEXT,
  NOT_FOUND_TEXT,
  outcomeCells,
  readRows,
} from '../../../src/enrichment/sheet/rows';
import { adjacentRuns } from '../../../src/shared/adjacent-runs';
import { cellWrites, type CellUpdates } from '../../../src/enrichment/sheet/cell-writes';
import { jobRows, prefixFingerprint, rowKeys } from '../../../src/enrichment/sheet/job-view';
import { loadJob, saveJob, JOB_KEY, STOP_KEY, type EnrichJob } from '../../../src/enrichment/job/job-state';
import { filledColumns, filledColumnsValue } from '../../../src/enrichment/job/sheet-choices';
import { PROFILE_FIELDS, profileFieldByKey } from '../../../src/companies/profile-fields';
import { MemoryStore } from '../../fakes/ports';

const field = (key: string) => profileFieldByKey(key) ?? PROFILE_FIELDS[0];
const all = { row: 1, column: 1, numRows: 100, numColumns: 100 };

describe('domain column detection', () => {
  const grid = [
    ['Name', 'Email', 'Website', 'Notes'],
    ['Stripe', 'ana@stripe.com', 'https://www.stripe.com/pricing', 'x'],
    ['Acme', 'bo@acme.io', 'acme.io', ''],
    ['Foo', 'c@foo.com', '', 'y'],
  ];

  it('prefers the column whose header names websites over one with more domains', () => {
    const found = detectDomainColumn(grid, all, 4);
    expect(found).toMatchObject({ ok: true, column: 3, headerRow: 1, header: 'Website' });
    if (found.ok) expect(found.note).toContain('using column C (by its header)');
  });

  it('falls back to the column with most domains, and honours an explicit choice', () => {
    const noNames = grid.map((row, i) => (i === 0 ? ['a', 'b', 'c', 'd'] : row));
    expect(detectDomainColumn(noNames, all, 4)).toMatchObject({ ok: true, column: 2 });
    expect(detectDomainColumn(grid, all, 4, 2)).toMatchObject({ ok: true, column: 2, note: null });
    expect(detectDomainColumn(grid, all, 4, 4)).toEqual({
      ok: false,
      message: 'Column D holds no domains: pick the column with company domains.',
    });
  });

  it('uses only the selected columns and explains an empty choice', () => {
    expect(detectDomainColumn(grid, { row: 1, column: 1, numRows: 4, numColumns: 1 }, 4)).toEqual({
      ok: false,
      message: 'Column A holds no company domains: select the column with domains (e.g. stripe.com).',
    });
    expect(detectDomainColumn([], all, 0)).toMatchObject({ ok: false });
  });

  it('sees data without a header row', () => {
    expect(detectDomainColumn([['stripe.com'], ['acme.io']], all, 1)).toMatchObject({
      ok: true,
      column: 1,
      headerRow: 0,
      header: '',
    });
  });

  it('names columns like Sheets', () => {
    expect([1, 26, 27, 52, 703].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AZ', 'AAA']);
  });
});

describe('field columns', () => {
  it('reuses a column with the same header (case-insensitive), appends the rest, never uses the domain column', () => {
    const header = ['Domain', 'company name', 'Notes'];
    const targets = planTargetColumns(
      header,
      3,
      1,
      'Domain',
      [field('company_name'), field('domain'), field('hq_country')],
      true,
    );
    expect(targets.map((t) => [t.header, t.column, t.isNew])).toEqual([
      ['Company name', 2, false],
      ['Domain (profile)', 4, true],
      ['Country', 5, true],
    ]);
  });

  it('names employee_count "Employees" and still fills a column an earlier version headed "Size"', () => {
    expect(
      planTargetColumns(['Domain'], 1, 1, 'Domain', [field('employee_count')], true).map((t) => [
        t.header,
        t.column,
        t.isNew,
      ]),
    ).toEqual([['Employees', 2, true]]);
    expect(
      planTargetColumns(['Domain', 'size'], 2, 1, 'Domain', [field('employee_count')], true).map((t) => [
        t.header,
        t.column,
        t.isNew,
      ]),
    ).toEqual([['Size', 2, false]]);
  });

  it('fills a sheet Company search made under its own headers, adding no second column (issue 29)', () => {
    const header = ['Company', 'Domain', 'Country', 'City', 'Employees', 'Founded', 'Relevance', 'Description'];
    const fields = ['company_name', 'short_description', 'hq_country', 'employee_count', 'hq_full_address'];
    expect(
      planTargetColumns(header, header.length, 2, 'Domain', fields.map(field), true).map((t) => [
        t.header,
        t.column,
        t.isNew,
      ]),
    ).toEqual([
      ['Company', 1, false],
      ['Description', 8, false],
      ['Country', 3, false],
      ['Employees', 5, false],
      ['HQ address', 9, true],
    ]);
  });

  it('finds the columns again after columns were inserted before them, and reports a removed one', () => {
    const moved = ['New', 'Domain', 'Notes', 'Company name', 'Country'];
    expect(locateColumns(moved, 1, 'Domain', ['Company name', 'Country'])).toEqual({
      ok: true,
      domainColumn: 2,
      targets: [4, 5],
    });
    expect(locateColumns(['Domain', 'Company name'], 1, 'Domain', ['Company name', 'Country'])).toEqual({
      ok: false,
      message: 'The column "Country" was removed or renamed: restore it, or start a new enrichment.',
    });
  });
});

describe('rows', () => {
  it('classifies blank, invalid, emails, URLs, IDN and odd-case duplicates; sorts pending domains', () => {
    const grid = [
      ['Domain', 'Company name'],
      ['STRIPE.com', ''],
      ['https://stripe.com/about', ''],
      ['', ''],
      ['not a domain', ''],
      ['bob@acme.io', ''],
      ['münchen.de', ''],
      ['filled.com', 'Filled Inc'],
      ['   ', ''],
    ];
    const rows = readRows(grid, 1, 1, [2], false);
    expect(rows).toMatchObject({ rows: 8, blank: 2, invalid: 1, alreadyFilled: 1, withDomain: 5 });
    expect(rows.pending).toEqual(['acme.io', 'stripe.com', 'xn--mnchen-3ya.de']);
    expect(rows.pendingRows.get('stripe.com')).toBe(2);
    expect(rows.rowsByDomain.get('filled.com')).toEqual([7]);
    expect(rows.invalidRows).toEqual([{ index: 4, input: 'not a domain' }]);
    expect(readRows(grid, 1, 1, [2], true).alreadyFilled).toBe(0);
  });

  it('counts no row past the data, where formulas filled down show nothing (issue 29)', () => {
    const grid = [
      ['Domain', 'Score'],
      ['a.com', ''],
      ['', 'x'],
      ['b.com', ''],
      ...Array.from({ length: 50 }, () => ['', '']),
    ];
    expect(readRows(grid, 1, 1, [3], false)).toMatchObject({ rows: 3, blank: 1, withDomain: 2 });
  });

  it('tells an enriched row from one not enriched yet: in a settled column an empty cell is a value the profile lacks', () => {
    const grid = [
      ['Website', 'Company name', 'Founded', 'Size'],
      ['a.com', 'A Inc', '', '11-50'],
      ['b.com', '', '', ''],
      ['c.com', NO_DATA_TEXT, '', ''],
      ['d.com', ENRICHING_TEXT, '', ''],
      ['e.com', `${FAILED_PREFIX}Service unavailable`, '', ''],
      ['f.com', 'F Inc', '', ''],
      ['g.com', '', NOT_FOUND_TEXT, ''],
    ];
    // A finished job filled all three columns: only rows not enriched yet and rows marked for retry need a lookup.
    expect(readRows(grid, 1, 1, [2, 3, 4], false, [true, true, true])).toMatchObject({
      pending: ['b.com', 'd.com', 'e.com'],
      alreadyFilled: 4,
    });
    // "Size" was added since: enriched rows without a size need it too.
    expect(readRows(grid, 1, 1, [2, 3, 4], false, [true, true, false]).pending).toEqual([
      'b.com',
      'c.com',
      'd.com',
      'e.com',
      'f.com',
    ]);
    // No finished job on record (an older sheet): any empty cell needs a value, as before.
    expect(readRows(grid, 1, 1, [2, 3, 4], false).pending).toEqual([
      'a.com',
      'b.com',
      'c.com',
      'd.com',
      'e.com',
      'f.com',
    ]);
    expect(readRows(grid, 1, 1, [2, 3, 4], true, [true, true, true]).alreadyFilled).toBe(0);
  });

  it('marks a profile with none of the chosen fields as done, and leaves other empty values empty', () => {
    const fields = [field('linkedin'), field('company_name')];
    expect(outcomeCells({ kind: 'profile', values: { linkedin: null, company_name: null } }, fields)).toEqual([
      NO_DATA_TEXT,
      '',
    ]);
    expect(outcomeCells({ kind: 'profile', values: { linkedin: null, company_name: 'Acme' } }, fields)).toEqual([
      '',
      "'Acme",
    ]);
  });

  it('records the columns finished jobs filled per sheet and domain column, adding to earlier ones', () => {
    const store = new MemoryStore();
    const record = (domainHeader: string, headers: string[]) =>
      store.setAll(filledColumnsValue(store, 7, domainHeader, headers));
    record('website', ['company name']);
    record('website', ['country', 'company name']);
    record('partner site', ['size']);
    expect([...filledColumns(store, 7, 'website')]).toEqual(['company name', 'country']);
    expect([...filledColumns(store, 7, 'partner site')]).toEqual(['size']);
    expect(filledColumns(store, 8, 'website').size).toBe(0);
  });

  it('treats the marks of an earlier run as empty', () => {
    expect(isEmptyOrMark(ENRICHING_TEXT)).toBe(true);
    expect(isEmptyOrMark(`${FAILED_PREFIX}Service unavailable`)).toBe(true);
    expect(isEmptyOrMark('Acme')).toBe(false);
    expect(isEmptyOrMark(0)).toBe(false);
  });

  it('writes only the updated cells: one rectangle per run of adjacent rows and columns that update alike', () => {
    const updates: CellUpdates = new Map([
      [
        1,
        new Map<number, string | number>([
          [2, 'A1'],
          [3, 'B1'],
          [5, 'C1'],
        ]),
      ],
      [
        2,
        new Map<number, string | number>([
          [2, 'A2'],
          [3, 'B2'],
          [5, 'C2'],
        ]),
      ],
      [3, new Map<number, string | number>([[2, 'A3']])],
      [
        5,
        new Map<number, string | number>([
          [2, 'A5'],
          [3, 'B5'],
          [5, 'C5'],
        ]),
      ],
    ]);
    expect(cellWrites(updates)).toEqual([
      {
        row: 2,
        column: 2,
        values: [
          ['A1', 'B1'],
          ['A2', 'B2'],
        ],
      },
      { row: 2, column: 5, values: [['C1'], ['C2']] },
      { row: 4, column: 2, values: [['A3']] },
      { row: 6, column: 2, values: [['A5', 'B5']] },
      { row: 6, column: 5, values: [['C5']] },
    ]);
    expect(adjacentRuns([5, 2, 3])).toEqual([
      { first: 2, count: 2 },
      { first: 5, count: 1 },
    ]);
  });
});

describe("a running job's view of its rows", () => {
  const keys = ['Website', 'a.com', 'b.com', 'not a domain', '', 'a.com', 'c.com'];
  const empty = () => ['', ''];
  const rules = { overwrite: false, settled: [false, false] };
  const none = new Set<string>();

  it('passes the rows from its cursor in sheet order; above it, only the rows of domains waiting for a retry', () => {
    const view = jobRows(rowKeys(keys), empty, rules, {
      cursor: 3,
      retrying: new Set(['b.com']),
      done: none,
      marked: none,
    });
    expect(view.todo).toEqual([3, 5, 6]);
    expect([...view.awaiting]).toEqual([['b.com', [2]]]);
    expect([...view.counted]).toEqual(['a.com']);
  });

  it('tells moved rows by the fingerprint of the domains above the cursor', () => {
    const moved = ['Website', 'b.com', 'a.com', ...keys.slice(3)];
    expect(prefixFingerprint(keys, 3)).not.toBe(prefixFingerprint(moved, 3));
    expect(prefixFingerprint(keys, 3)).toBe(prefixFingerprint([...keys, 'late.com'], 3));
  });

  it('after rows moved, takes them from the top: written rows of a finished domain are done, its empty ones not', () => {
    const cells = (index: number) => (index === 1 ? ['A Inc', 'US'] : ['', '']);
    const view = jobRows(rowKeys(keys), cells, rules, {
      cursor: null,
      retrying: none,
      done: new Set(['a.com']),
      marked: none,
    });
    expect(view.todo).toEqual([2, 3, 5, 6]);
    expect([...view.counted]).toEqual(['a.com']);
  });
});

describe('job record', () => {
  it('is one property value while it fits, and survives a save larger than one value in chunked parts', () => {
    const store = new MemoryStore();
    const small = { v: 2, id: 'j1', retries: [] } as unknown as EnrichJob;
    saveJob(store, small);
    expect(store.data.size).toBe(1);
    expect(loadJob(store)?.id).toBe('j1');
    const retries = Array.from({ length: 400 }, (_, i) => ({ d: `company-number-${i}.example.com`, n: 1, at: 0 }));
    saveJob(store, { ...small, id: 'j2', retries } as unknown as EnrichJob);
    expect(store.data.size).toBeGreaterThan(2);
    expect(loadJob(store)?.retries).toHaveLength(400);
    saveJob(store, small);
    expect(store.data.size).toBe(1);
    expect(loadJob(store)?.id).toBe('j1');
  });

  it('reads a job a panel asked to stop as cancelled, and drops the mark once the job is saved as ended', () => {
    const store = new MemoryStore();
    const running = { v: 2, id: 'j1', status: 'running', retries: [] } as unknown as EnrichJob;
    saveJob(store, running);
    store.set(STOP_KEY, JSON.stringify({ id: 'j1', at: 5 }));
    const stopped = loadJob(store);
    expect(stopped).toMatchObject({ status: 'cancelled', finishedAt: 5 });
    saveJob(store, stopped as EnrichJob);
    expect(store.get(STOP_KEY)).toBeNull();
  });

  it('reads a damaged record as no job', () => {
    const store = new MemoryStore();
    store.set(JOB_KEY, '{"gen":"abc","parts":2}');
    expect(loadJob(store)).toBeNull();
  });
});
