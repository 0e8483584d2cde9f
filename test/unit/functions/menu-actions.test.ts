import {
  freezeMessage,
  freezeSelection,
  refreshMessage,
  refreshPending,
  type FormulaBook,
  type FormulaSheet,
  type Rect,
} from '../../../src/functions/menu-actions';
import { parseSheetScoutCall, callsSheetScout, withRefreshMark } from '../../../src/functions/formula-parse';
import { CELL_TEXT } from '../../../src/functions/cell-text';
import type { CellValue } from '../../../src/shared/cell-values';
import { harness } from './fakes';

/** A grid sheet: cells hold a value and optionally the formula that produced it (spilled cells have no formula). */
class GridSheet implements FormulaSheet {
  formulas: string[][];
  values: unknown[][];
  readonly writes: Array<{ row: number; column: number; values: CellValue[][] }> = [];
  readonly reentered: string[] = [];
  constructor(rows: number, columns: number) {
    this.formulas = Array.from({ length: rows }, () => new Array<string>(columns).fill(''));
    this.values = Array.from({ length: rows }, () => new Array<unknown>(columns).fill(''));
  }
  set(row: number, column: number, values: unknown[][], formula?: string): void {
    values.forEach((line, r) => line.forEach((value, c) => (this.values[row - 1 + r][column - 1 + c] = value)));
    if (formula) this.formulas[row - 1][column - 1] = formula;
  }
  readGrid() {
    return { formulas: this.formulas.map((l) => [...l]), values: this.values.map((l) => [...l]) };
  }
  readReference(a1: string): unknown {
    const m = /^([A-Z])(\d+)(?::([A-Z])(\d+))?$/.exec(a1)!;
    const c1 = m[1].charCodeAt(0) - 64;
    const r1 = Number(m[2]);
    if (!m[3]) return this.values[r1 - 1][c1 - 1];
    const c2 = m[3].charCodeAt(0) - 64;
    const r2 = Number(m[4]);
    return this.values.slice(r1 - 1, r2).map((line) => line.slice(c1 - 1, c2));
  }
  writeValues(row: number, column: number, values: CellValue[][]): void {
    this.writes.push({ row, column, values });
    values.forEach((line, r) =>
      line.forEach((value, c) => {
        this.values[row - 1 + r][column - 1 + c] = value;
        this.formulas[row - 1 + r][column - 1 + c] = '';
      }),
    );
  }
  reenterFormulas(cells: Array<{ area: Rect; formula: string }>): void {
    for (const { area, formula } of cells)
      this.reentered.push(`${area.row},${area.column} ${area.rows}x${area.columns}:${formula}`);
  }
}

function book(sheet: GridSheet, selection: Rect[]): FormulaBook {
  return { activeSheet: () => sheet, selection: () => selection, sheets: () => [sheet] };
}

describe('formula parsing', () => {
  it('marks a formula to enter again with a refresh count, keeping its own arguments', () => {
    expect(withRefreshMark('=COMPANY_LOOKUP(A2:A9)')).toBe('=COMPANY_LOOKUP(A2:A9, , , "refresh 1")');
    expect(withRefreshMark('=COMPANY_LOOKUP(A2:A9, "domain", , "refresh 1")')).toBe(
      '=COMPANY_LOOKUP(A2:A9, "domain", , "refresh 2")',
    );
    expect(withRefreshMark('=SIMILAR("stripe.com", 50, E2:F4)')).toBe('=SIMILAR("stripe.com", 50, E2:F4, "refresh 1")');
    // A formula that is not one plain call, or whose last argument is the user's own, is entered again as it is.
    expect(withRefreshMark('=IFERROR(COMPANY_LOOKUP(A2), "")')).toBe('=IFERROR(COMPANY_LOOKUP(A2), "")');
    expect(withRefreshMark('=COMPANY_SEARCH("q", 10, , B1)')).toBe('=COMPANY_SEARCH("q", 10, , B1)');
  });

  it('reads plain calls with literal and reference arguments, and spots nested calls', () => {
    expect(parseSheetScoutCall('=company_lookup(A2:A50, "domain,company_name", TRUE)')).toEqual({
      name: 'COMPANY_LOOKUP',
      args: [
        { kind: 'ref', a1: 'A2:A50' },
        { kind: 'literal', value: 'domain,company_name' },
        { kind: 'literal', value: true },
      ],
      texts: ['A2:A50', '"domain,company_name"', 'TRUE'],
    });
    expect(parseSheetScoutCall('=SIMILAR(\'My sheet\'!B2, 25, "{""include.country"": [""US""]}")')?.args).toEqual([
      { kind: 'ref', a1: "'My sheet'!B2" },
      { kind: 'literal', value: 25 },
      { kind: 'literal', value: '{"include.country": ["US"]}' },
    ]);
    expect(parseSheetScoutCall('=IFERROR(COMPANY_LOOKUP(A2), "")')).toBeNull();
    expect(callsSheetScout('=IFERROR(COMPANY_LOOKUP(A2), "")')).toBe(true);
    expect(callsSheetScout('=MY_COMPANY_LOOKUP(A2)')).toBe(false);
    expect(callsSheetScout('=SUM(A1:A3)')).toBe(false);
  });
});

describe('Freeze formulas to values', () => {
  it('replaces a lookup formula and its whole spill (blank rows included) with escaped values', () => {
    const sheet = new GridSheet(6, 4);
    sheet.set(1, 1, [['stripe.com'], [''], ['evil.com']]);
    sheet.set(
      1,
      2,
      [
        ['Stripe', '1-10'],
        ['', ''],
        ['=cmd|"/c calc"!A1', '11-50'],
      ],
      '=COMPANY_LOOKUP(A1:A3, "company_name,employee_count")',
    );
    sheet.set(5, 4, [['user data']]);
    const summary = freezeSelection(book(sheet, [{ row: 1, column: 2, rows: 1, columns: 1 }]));
    expect(summary).toEqual({ formulas: 1, cells: 6, skipped: 0, unfinishedCells: 0 });
    expect(sheet.writes).toEqual([
      {
        row: 1,
        column: 2,
        values: [
          ["'Stripe", "'1-10"],
          ['', ''],
          ['\'=cmd|"/c calc"!A1', "'11-50"],
        ],
      },
    ]);
    expect(sheet.values[4][3]).toBe('user data');
    expect(freezeMessage(summary)).toBe('Froze 1 formula (6 cells) to values');
  });

  it('freezes a search result by its header row and filled first column, and skips error cells', () => {
    const sheet = new GridSheet(6, 10);
    sheet.set(
      1,
      1,
      [
        ['Domain', 'Company name'],
        ['a.com', 'A'],
        ['b.com', CELL_TEXT.pending],
      ],
      '=COMPANY_SEARCH("crm", 2)',
    );
    sheet.set(1, 5, [['#REF!']], '=SIMILAR("x.com")');
    sheet.set(5, 1, [['=SUM(1)']], '=SUM(1)');
    const summary = freezeSelection(book(sheet, [{ row: 1, column: 1, rows: 6, columns: 10 }]));
    expect(summary).toEqual({ formulas: 1, cells: 6, skipped: 1, unfinishedCells: 1 });
    expect(sheet.formulas[4][0]).toBe('=SUM(1)');
    expect(sheet.formulas[0][4]).toBe('=SIMILAR("x.com")');
  });

  it('says what to select when the selection holds no Sheet Scout formula', () => {
    const sheet = new GridSheet(2, 2);
    const summary = freezeSelection(book(sheet, [{ row: 1, column: 1, rows: 2, columns: 2 }]));
    expect(freezeMessage(summary)).toMatch(/^No Sheet Scout formulas in the selection/);
    expect(sheet.writes).toHaveLength(0);
  });
});

describe('Refresh pending lookups', () => {
  it('prefetches the pending lookups into the cache and re-enters only the pending formulas', () => {
    const h = harness();
    const sheet = new GridSheet(4, 6);
    sheet.set(1, 1, [['a.com'], ['b.com'], ['c.com']]);
    sheet.set(1, 2, [['a.com'], [CELL_TEXT.pending], [CELL_TEXT.enriching]], '=COMPANY_LOOKUP(A1:A3, "domain")');
    sheet.set(1, 4, [['a.com']], '=COMPANY_LOOKUP(A1, "domain")');
    const env = h.env({ limits: { stopFetchingAfterMs: 240_000, deadlineMs: 300_000 } });
    const summary = refreshPending(book(sheet, []), env);
    // Entered again with a refresh mark, so Sheets runs it even if it reuses results of identical calls.
    expect(sheet.reentered).toEqual(['1,2 3x1:=COMPANY_LOOKUP(A1:A3, "domain", , "refresh 1")']);
    expect(h.service.lookups().sort()).toEqual(['a.com', 'b.com', 'c.com']);
    expect(summary).toEqual({ formulas: 1, prefetched: 3, stillPending: 0 });
    expect(refreshMessage(summary)).toBe('Refreshed 1 formula (3 lookups fetched)');
  });

  it('reports when nothing is pending', () => {
    const h = harness();
    const sheet = new GridSheet(2, 2);
    sheet.set(1, 1, [['ok.com']], '=COMPANY_LOOKUP("ok.com", "domain")');
    const summary = refreshPending(book(sheet, []), h.env());
    expect(refreshMessage(summary)).toBe('No pending Sheet Scout formulas');
    expect(h.service.requests).toHaveLength(0);
  });
});
