// The seal of the add-in's hidden tables (src/shared/storage/seal.ts, sealed-table.ts), as a class: any change of any
// cell of a sealed row, any row copied into another table, any row written by hand, is refused (read as blank and
// listed); an unchanged row, and a byte-identical copy of one, reads back as written; a document's tables of an
// earlier version are read as they are until its first sealed write seals them, and never after; the key is made
// once. fast-check drives the class with random rows and edits (fixed seed).
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { FakeTable, sealedFakeTable, testMac, testSealer } from '../../fakes/table';
import { MemoryStore } from '../../fakes/ports';
import { SealedTable } from '../../../src/shared/storage/sealed-table';
import { SEAL_KEY, Sealer } from '../../../src/shared/storage/seal';
import { base64Url } from '../../../src/platform/sealing';

const HEADERS = ['id', 'state', 'value'];
const cell = fc.oneof(fc.string({ maxLength: 40 }), fc.integer({ min: -1e12, max: 1e12 }), fc.constant(''));
const row = fc.array(cell, { minLength: 1, maxLength: 6 });

describe('sealed tables', () => {
  it('reads back every row as written, and refuses any row with any cell changed', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        cell,
        (rows, pick, column, value) => {
          const { table, grid } = sealedFakeTable('T', HEADERS);
          table.appendRows(rows);
          const written = table.readAll().rows;
          expect(table.refused()).toEqual([]);
          const at = pick % rows.length;
          const target = 1 + (column % rows[at].length);
          const before = grid.rows[at][target];
          grid.rows[at][target] = value;
          const changed = String(before) !== String(value) || typeof before !== typeof value;
          const read = table.readAll();
          expect(read.rows[at]).toEqual(changed ? [] : written[at]);
          expect(table.refused().map((refused) => refused.index)).toEqual(changed ? [at] : []);
          read.rows.forEach((cells, index) => index !== at && expect(cells).toEqual(written[index]));
        },
      ),
      { seed: 45, numRuns: 300 },
    );
  });

  it('refuses a row copied into another table of the document, or written by hand with any seal', () => {
    const sealer = testSealer();
    const ledger = sealedFakeTable('Ledger', HEADERS, sealer);
    const outbox = sealedFakeTable('Outbox', HEADERS, sealer);
    ledger.table.appendRows([['r1', 'queued', 10]]);
    outbox.table.appendRows([['o1', 'new', 1]]);
    outbox.grid.rows.push([...ledger.grid.rows[0]]);
    outbox.grid.rows.push([outbox.grid.rows[0][0], 'r2', 'queued', 10]);
    expect(outbox.table.readAll().rows).toEqual([['o1', 'new', 1], [], []]);
    expect(outbox.table.refused().map((refused) => refused.cells[0])).toEqual(['r1', 'r2']);
    // A byte-identical copy within the table reads back (a replay: each store makes it harmless).
    ledger.grid.rows.push([...ledger.grid.rows[0]]);
    expect(ledger.table.readAll().rows).toEqual([
      ['r1', 'queued', 10],
      ['r1', 'queued', 10],
    ]);
  });

  it('reads the index columns as hints and whole rows checked, the seal column never shown', () => {
    const { table } = sealedFakeTable('T', HEADERS);
    table.writeHeader(HEADERS);
    table.appendRows([
      ['a', 'open', 1],
      ['b', 'done', 2],
    ]);
    expect(table.readColumns(2, 1)).toEqual({ header: ['state'], rows: [['open'], ['done']] });
    expect(table.readKeys()).toEqual(['a', 'b']);
    expect(table.readRows([1, 0])).toEqual([
      ['b', 'done', 2],
      ['a', 'open', 1],
    ]);
  });

  it('gives from one read of the grid what readAll and readColumns give, sealed, trusted or made by hand', () => {
    const layouts = ['sealed', 'trusted', 'by hand'] as const;
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 8 }),
        fc.constantFrom(...layouts),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat(),
        cell,
        (rows, layout, first, count, pick, value) => {
          // Sealed: written by the add-in, one cell then changed; trusted: an earlier version's, in a document with
          // no key; by hand: no seal column in a document with its key.
          const sealer = testSealer();
          let grid = new FakeTable(HEADERS);
          if (layout === 'sealed') {
            const sealed = sealedFakeTable('T', HEADERS, sealer);
            sealed.table.appendRows(rows);
            grid = sealed.grid;
            if (rows.length > 0) grid.rows[pick % rows.length][1] = value;
          } else {
            if (layout === 'by hand') sealer.ensure();
            grid.rows = rows.map((cells) => [...cells]);
          }
          const table = () => new SealedTable(grid, 'T', sealer, HEADERS);
          const once = table();
          const reads = grid.reads;
          const { index, ...whole } = once.readIndexed(first, count);
          expect(grid.reads - reads).toBe(1);
          const apart = table();
          expect(whole).toEqual(apart.readAll());
          expect(once.refused()).toEqual(apart.refused());
          expect(index).toEqual(table().readColumns(first, count));
        },
      ),
      { seed: 47, numRuns: 300 },
    );
  });

  it("trusts an earlier version's table until the first sealed write seals it, and a table made by hand never", () => {
    const store = new MemoryStore();
    const legacy = new FakeTable(HEADERS);
    legacy.rows.push(['old', 'queued', 3]);
    const tables = new Map<string, FakeTable>([['Ledger', legacy]]);
    let keys = 0;
    const sealer = new Sealer({
      store,
      mac: testMac,
      newSecret: () => `secret-${++keys}`,
      existingTables: () => [...tables.keys()],
      adoptLegacy: (name, sealRow) => {
        const grid = tables.get(name) as FakeTable;
        grid.header = SealedTable.sealedHeaders(grid.header.map(String));
        grid.rows = grid.rows.map((cells) => [sealRow(cells), ...cells]);
      },
    });
    const table = new SealedTable(legacy, 'Ledger', sealer, HEADERS);
    expect(table.readAll().rows).toEqual([['old', 'queued', 3]]);
    table.appendRows([['new', 'queued', 4]]);
    expect(keys).toBe(1);
    expect(table.readAll().rows).toEqual([
      ['old', 'queued', 3],
      ['new', 'queued', 4],
    ]);
    // A sheet of that name made again by hand, without the seal column: every row refused; ours are sealed.
    const forged = new FakeTable(HEADERS);
    forged.rows.push(['forged', 'queued', 9]);
    const again = new SealedTable(forged, 'Ledger', sealer, HEADERS);
    expect(again.readAll().rows).toEqual([[]]);
    again.appendRows([['ours', 'queued', 1]]);
    expect(again.readAll().rows).toEqual([[], ['ours', 'queued', 1]]);
    expect(keys).toBe(1);
    expect(JSON.parse(store.data.get(SEAL_KEY) as string)).toEqual({ key: 'secret-1', legacy: [] });
  });

  it('encodes the MAC as Node does (base64url, 16 bytes, from Apps Script signed bytes)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), (bytes) => {
        const signed = [...bytes].map((byte) => (byte > 127 ? byte - 256 : byte));
        expect(base64Url(signed)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
      { seed: 45 },
    );
    const digest = createHmac('sha256', 'k').update('m').digest();
    expect(testMac('k', 'm')).toBe(digest.subarray(0, 16).toString('base64url'));
  });
});
