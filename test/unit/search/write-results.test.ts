import type { CompanySearchResult } from '../../../src/api/types';
import { resolveColumns } from '../../../src/search/results/columns';
import { parseSavedSearchNote, type SavedSearch } from '../../../src/search/results/saved-search';
import { columnValues, domainColumns, domainsInGrid } from '../../../src/search/sheet-domains';
import { emptyFilterForm } from '../../../src/search/spec';
import { appendToSheet, insertIntoNewSheet, sheetNameFor } from '../../../src/search/results/write-results';
import { FakeSheets } from './fake-sheets';

function company(domain: string, name = domain.split('.')[0]): CompanySearchResult {
  return { id: `id-${domain}`, domain, name, hq_country: 'Germany', employee_count: '11-50', founding_year: 2015 };
}

const saved: SavedSearch = {
  spec: {
    mode: 'describe',
    query: 'robotics: warehouse/logistics',
    reference: '',
    filters: emptyFilterForm(),
    count: 50,
  },
  columns: ['name', 'domain', 'size'],
  ranAt: '2026-11-21T22:00:00.000Z',
};
const columns = resolveColumns(saved.columns);

describe('sheet domains', () => {
  it('finds the column headed Domain/Website, else the columns that are mostly domains', () => {
    expect(
      domainColumns([
        ['Name', 'Website'],
        ['Acme', 'https://acme.io'],
      ]),
    ).toEqual([1]);
    expect(
      domainColumns([
        ['Acme', 'acme.io', 'x'],
        ['Zeta', 'zeta.dev', 'y'],
      ]),
    ).toEqual([1]);
    expect(domainColumns([])).toEqual([]);
    expect([
      ...domainsInGrid([
        ['Company', 'Domain'],
        ['A', 'www.acme.io'],
        ['B', ''],
        ['C', 'not a domain'],
      ]),
    ]).toEqual(['acme.io']);
    expect(columnValues([['Domain'], ['a.com'], ['b.com']], 0, true)).toEqual(['a.com', 'b.com']);
  });
});

describe('sheetNameFor', () => {
  it('names the sheet after the search without characters Sheets dislikes, and avoids taken names', () => {
    expect(sheetNameFor(saved, [])).toBe('Search: robotics warehouse logistics');
    expect(sheetNameFor(saved, ['search: robotics warehouse logistics'])).toBe(
      'Search: robotics warehouse logistics (2)',
    );
    expect(sheetNameFor({ ...saved, spec: { ...saved.spec, mode: 'similar', reference: 'acme.io' } }, [])).toBe(
      'Search: similar to acme.io',
    );
  });
});

describe('insertIntoNewSheet', () => {
  it('writes the header and escaped values in one write, notes the search on the header cell, and activates the sheet', () => {
    const sheets = new FakeSheets();
    sheets.add('Sheet1');
    const summary = insertIntoNewSheet(
      sheets,
      [company('acme.io', '=cmd()'), company('zeta.dev'), company('ACME.io')],
      columns,
      saved,
    );
    expect(summary).toMatchObject({ written: 2, skipped: 1, sheet: { name: 'Search: robotics warehouse logistics' } });
    const sheet = sheets.sheet(summary.sheet.id);
    expect(sheet.grid).toEqual([
      ['Company', 'Domain', 'Employees'],
      ['=cmd()', 'acme.io', '11-50'],
      ['zeta', 'zeta.dev', '11-50'],
    ]);
    // Every service string reaches its cell as text, whatever it looks like.
    expect(sheets.raw.get(`${summary.sheet.id}:2:1`)).toBe("'=cmd()");
    expect(sheets.raw.get(`${summary.sheet.id}:2:3`)).toBe("'11-50");
    expect(sheets.writes).toBe(1);
    expect(parseSavedSearchNote(sheet.notes.get('1:1') ?? '')).toEqual(saved);
    expect(sheet.frozen).toBe(true);
    expect(sheets.activeSheet().id).toBe(summary.sheet.id);
  });
});

describe('appendToSheet', () => {
  it('skips domains already there, matches columns by header label and adds missing ones at the right', () => {
    const sheets = new FakeSheets();
    const target = sheets.add('Leads', [
      ['domain', 'Owner', 'Company'],
      ['https://www.acme.io', 'me', 'Acme'],
    ]);
    const summary = appendToSheet(
      sheets,
      target,
      [company('acme.io'), company('zeta.dev'), company('new.co'), company('zeta.dev')],
      columns,
      saved,
    );
    expect(summary).toMatchObject({ written: 2, skipped: 2, addedColumns: ['Employees'] });
    expect(sheets.sheet(target.id).grid).toEqual([
      ['domain', 'Owner', 'Company', 'Employees'],
      ['https://www.acme.io', 'me', 'Acme'],
      ['zeta.dev', '', 'zeta', '11-50'],
      ['new.co', '', 'new', '11-50'],
    ]);
    expect(sheets.reads).toBe(1);
    expect(sheets.sheet(target.id).notes.size).toBe(0);
  });

  it('writes nothing when every result is already there, and treats an empty sheet like a new one', () => {
    const sheets = new FakeSheets();
    const full = sheets.add('Full', [['Domain'], ['acme.io']]);
    expect(appendToSheet(sheets, full, [company('acme.io')], columns, saved)).toMatchObject({ written: 0, skipped: 1 });
    expect(sheets.writes).toBe(1); // only the added header cells
    const empty = sheets.add('Empty', [['', '']]);
    expect(appendToSheet(sheets, empty, [company('a.com')], columns, saved)).toMatchObject({ written: 1, skipped: 0 });
    expect(sheets.sheet(empty.id).grid[0]).toEqual(['Company', 'Domain', 'Employees']);
    expect(sheets.sheet(empty.id).notes.get('1:1')).toContain('Sheet Scout company search');
  });
});
