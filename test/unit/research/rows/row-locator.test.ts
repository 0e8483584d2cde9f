import {
  keyColumn,
  keyHeaderOf,
  keyString,
  locateRows,
  type SheetView,
} from '../../../../src/research/rows/row-locator';

function view(rows: string[][], rowIds: Record<string, number>, tagOwners: Record<string, string[]> = {}): SheetView {
  const owners = new Map(Object.entries(tagOwners).map(([tag, key]) => [tag, keyString(key)]));
  return {
    headers: ['Company', '', 'Status'],
    rowIds: new Map(Object.entries(rowIds)),
    tagOwners: owners,
    keyRows: rows,
    keyColumns: [1, 2],
  };
}

const identity = (rowId: string | null, values: string[], keyHeaders = ['Company', '#2']) => ({
  sheetId: 1,
  rowId,
  rowHint: 2,
  keyHeaders,
  keyValues: values,
});

describe('row locator', () => {
  it('trusts the metadata row when its key values still match', () => {
    expect(
      locateRows(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Globex', 'y'],
            ['Acme', 'x'],
          ],
          { a: 3 },
        ),
      ),
    ).toEqual([3]);
  });

  it('falls back to the one row whose key values match when metadata did not move with a sort', () => {
    expect(
      locateRows(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Globex', 'y'],
          ],
          { a: 3 },
        ),
      ),
    ).toEqual([2]);
  });

  it("refuses a tagged record's rows when its tag is gone and several rows hold its key, edited rows, missing columns", () => {
    expect(
      locateRows(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toEqual([]);
    expect(locateRows(identity('a', ['Acme', 'x']), view([['Acme Corp', 'x']], { a: 2 }))).toEqual([]);
    expect(locateRows(identity('a', ['Acme', 'x'], ['Website']), view([['Acme', 'x']], { a: 2 }))).toEqual([]);
  });

  it('finds an untagged record by its key values alone: every row holding them asks its question', () => {
    expect(
      locateRows(
        identity(null, ['Acme', 'x']),
        view(
          [
            ['Globex', 'y'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toEqual([3]);
    expect(
      locateRows(
        identity(null, ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toEqual([2, 3]);
    // A record whose rows wrote the same domain two ways at launch (one question): both rows.
    expect(
      locateRows(
        { ...identity(null, ['Acme', 'x']), groupKeys: [['Acme', 'x.com']] },
        view(
          [
            ['Acme', 'x.com'],
            ['Globex', 'y'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toEqual([2, 4]);
  });

  it("a group's tagged rows (others held its key at launch) while they hold it, and not the untagged ones", () => {
    expect(
      locateRows(
        { ...identity(null, ['Acme', 'x']), rowIds: ['a', 'b'] },
        view(
          [
            ['Acme', 'x'],
            ['Acme', 'x'],
            ['Acme', 'x'],
          ],
          { a: 2, b: 4 },
        ),
      ),
    ).toEqual([2, 4]);
  });

  it('never takes a row tagged for another record with the same key, and ignores tags of other keys', () => {
    // Two records share the key; b's row is tagged: a gets the other one even though a's own tag is gone.
    expect(
      locateRows(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Acme', 'x'],
          ],
          { b: 2 },
          { b: ['Acme', 'x'] },
        ),
      ),
    ).toEqual([3]);
    // Metadata stayed in place during a sort: the tag on row 2 belongs to an Acme record, row 2 now holds Globex.
    expect(
      locateRows(
        identity(null, ['Globex', 'y']),
        view(
          [
            ['Globex', 'y'],
            ['Acme', 'x'],
          ],
          { b: 2 },
          { b: ['Acme', 'x'] },
        ),
      ),
    ).toEqual([2]);
  });

  it('identifies a keyless record (an imported task) by its row id alone', () => {
    expect(
      locateRows(identity('a', [], []), {
        headers: [],
        rowIds: new Map([['a', 7]]),
        tagOwners: new Map(),
        keyRows: [],
        keyColumns: [],
      }),
    ).toEqual([7]);
    expect(
      locateRows(identity('a', [], []), {
        headers: [],
        rowIds: new Map(),
        tagOwners: new Map(),
        keyRows: [],
        keyColumns: [],
      }),
    ).toEqual([]);
  });

  it('names key columns by header, or by number when the header is blank', () => {
    expect(keyHeaderOf(['Company', ' '], 2)).toBe('#2');
    expect(keyHeaderOf(['Company'], 1)).toBe('Company');
    expect(keyColumn(['A', 'Company'], 'Company')).toBe(2);
    expect(keyColumn(['A'], '#5')).toBe(5);
  });
});
