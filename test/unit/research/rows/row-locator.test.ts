import {
  keyColumn,
  keyHeaderOf,
  keyString,
  locateRow,
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
      locateRow(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Globex', 'y'],
            ['Acme', 'x'],
          ],
          { a: 3 },
        ),
      ),
    ).toBe(3);
  });

  it('falls back to the one row whose key values match when metadata did not move with a sort', () => {
    expect(
      locateRow(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Globex', 'y'],
          ],
          { a: 3 },
        ),
      ),
    ).toBe(2);
  });

  it('refuses ambiguous, edited or deleted rows and missing key columns', () => {
    expect(
      locateRow(
        identity('a', ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toBeNull();
    expect(locateRow(identity('a', ['Acme', 'x']), view([['Acme Corp', 'x']], { a: 2 }))).toBeNull();
    expect(locateRow(identity('a', ['Acme', 'x'], ['Website']), view([['Acme', 'x']], { a: 2 }))).toBeNull();
  });

  it('finds an untagged record by its key values alone', () => {
    expect(
      locateRow(
        identity(null, ['Acme', 'x']),
        view(
          [
            ['Globex', 'y'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toBe(3);
    expect(
      locateRow(
        identity(null, ['Acme', 'x']),
        view(
          [
            ['Acme', 'x'],
            ['Acme', 'x'],
          ],
          {},
        ),
      ),
    ).toBeNull();
  });

  it('never takes a row tagged for another record with the same key, and ignores tags of other keys', () => {
    // Two records share the key; b's row is tagged: a gets the other one even though a's own tag is gone.
    expect(
      locateRow(
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
    ).toBe(3);
    // Metadata stayed in place during a sort: the tag on row 2 belongs to an Acme record, row 2 now holds Globex.
    expect(
      locateRow(
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
    ).toBe(2);
  });

  it('identifies a keyless record (an imported task) by its row id alone', () => {
    expect(
      locateRow(identity('a', [], []), {
        headers: [],
        rowIds: new Map([['a', 7]]),
        tagOwners: new Map(),
        keyRows: [],
        keyColumns: [],
      }),
    ).toBe(7);
    expect(
      locateRow(identity('a', [], []), {
        headers: [],
        rowIds: new Map(),
        tagOwners: new Map(),
        keyRows: [],
        keyColumns: [],
      }),
    ).toBeNull();
  });

  it('names key columns by header, or by number when the header is blank', () => {
    expect(keyHeaderOf(['Company', ' '], 2)).toBe('#2');
    expect(keyHeaderOf(['Company'], 1)).toBe('Company');
    expect(keyColumn(['A', 'Company'], 'Company')).toBe(2);
    expect(keyColumn(['A'], '#5')).toBe(5);
  });
});
