// Which rows are new (src/new-rows/rows.ts) and the monthly limit of research on new rows (research.ts): pure logic.
import {
  countRows,
  countsFromRecord,
  countsToRecord,
  digestOf,
  domainText,
  excessRows,
  pickNewRows,
} from '../../../src/new-rows/rows';
import { rowRuns } from '../../../src/new-rows/sheet-writes';
import { confirmFigures, limitProblem, rowsLeftThisMonth, spendMore } from '../../../src/new-rows/research';
import type { NewRowsResearch } from '../../../src/new-rows/research';

const grid = (rows: string[][]) => [['Website', 'Company name', 'Employees'], ...rows];

describe('new rows: the list as counted', () => {
  it('counts rows per domain text, trimmed and lower-cased, blank cells left out', () => {
    expect(domainText('  Stripe.COM ')).toBe('stripe.com');
    const counts = countRows(grid([['stripe.com'], ['STRIPE.com'], [''], ['acme.io']]), 1);
    expect([...counts]).toEqual([
      ['stripe.com', 2],
      ['acme.io', 1],
    ]);
    expect(countsFromRecord(countsToRecord(counts))).toEqual(counts);
    expect(countsFromRecord({ 'a.com': 0, 'b.com': 1.5, 'c.com': 'x', 'd.com': 2 })).toEqual(new Map([['d.com', 2]]));
  });

  it('has a digest that a sort keeps and an added, removed or changed row changes', () => {
    const rows = [['a.com'], ['b.com'], ['b.com'], ['c.com']];
    const digest = digestOf(countRows(grid(rows), 1));
    expect(digestOf(countRows(grid([...rows].reverse()), 1))).toBe(digest);
    expect(digestOf(countRows(grid([...rows, ['d.com']]), 1))).not.toBe(digest);
    expect(digestOf(countRows(grid(rows.slice(1)), 1))).not.toBe(digest);
    expect(digestOf(countRows(grid([['a.com'], ['b.com'], ['c.com'], ['c.com']]), 1))).not.toBe(digest);
  });

  it('finds the rows beyond the known count of each text', () => {
    const known = new Map([
      ['a.com', 1],
      ['b.com', 2],
    ]);
    const now = new Map([
      ['a.com', 2],
      ['b.com', 1],
      ['c.com', 1],
    ]);
    expect([...excessRows(now, known)]).toEqual([
      ['a.com', 1],
      ['c.com', 1],
    ]);
  });

  it('picks the new rows of a text: all field cells empty first, then one empty, lowest in the sheet first', () => {
    const values = grid([
      ['a.com', '', ''], // a new row typed above the list
      ['a.com', 'Acme', ''], // the listed row, one cell cleared by the user
      ['a.com', 'Acme', '11-50'], // listed, filled
      ['b.com', '', ''],
      ['b.com', '', ''],
      ['c.com', 'typed', ''],
    ]);
    const picked = pickNewRows(
      values,
      1,
      [2, 3],
      new Map([
        ['a.com', 1],
        ['b.com', 1],
        ['c.com', 1],
      ]),
    );
    expect(picked.get('a.com')).toEqual([1]);
    expect(picked.get('b.com')).toEqual([5]);
    expect(picked.get('c.com')).toEqual([6]);
    expect(pickNewRows(values, 1, [2, 3], new Map([['a.com', 2]])).get('a.com')).toEqual([1, 2]);
  });

  it('writes rows close together in one run', () => {
    expect(rowRuns([40, 3, 4, 12, 100, 101])).toEqual([
      { first: 3, last: 12 },
      { first: 40, last: 40 },
      { first: 100, last: 101 },
    ]);
  });
});

describe('research on new rows: the monthly limit', () => {
  const research = { monthlyLimit: 100, creditsPerRow: 10 } as NewRowsResearch;

  it('holds whole rows at their full reservation, month by month', () => {
    expect(confirmFigures(105, 10)).toEqual({ creditsPerRow: 10, monthlyLimit: 105, rowsPerMonth: 10 });
    expect(rowsLeftThisMonth(research, 0)).toBe(10);
    expect(rowsLeftThisMonth(research, 95)).toBe(0);
    expect(rowsLeftThisMonth(research, 130)).toBe(0);
    const spent = spendMore(null, '2026-11', 30);
    expect(spendMore(spent, '2026-11', 20)).toEqual({ month: '2026-11', reserved: 50 });
    expect(spendMore(spent, '2026-12', 20)).toEqual({ month: '2026-12', reserved: 20 });
  });

  it('refuses a limit that holds no row, or a row no cap could ever let through', () => {
    const noCap = { daily: null, monthly: null };
    expect(limitProblem(100, 10, noCap)).toBeNull();
    expect(limitProblem(0, 10, noCap)).toMatch(/^The monthly limit is a whole number/);
    expect(limitProblem(9, 10, noCap)).toBe(
      'A row reserves up to 10 credits at this depth: a monthly limit of 9 holds none.',
    );
    expect(limitProblem(100, 30, { daily: 20, monthly: null })).toMatch(/spending cap is 20: no new row could ever/);
  });
});
