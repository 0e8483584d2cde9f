import {
  CHUNK_BYTES,
  readChunked,
  removeChunked,
  splitUtf8,
  utf8Bytes,
  writeChunked,
} from '../../../src/shared/storage/chunked-store';
import {
  clearPending,
  loadHistory,
  loadMapping,
  loadPending,
  markPending,
  saveHistory,
  saveMapping,
  type KnownTable,
} from '../../../src/tables/store';
import { agent, draft } from './helpers';
import { MemoryStore } from '../../fakes/ports';
import { memoryRecordStores } from '../../fakes/table';
import { RECORD_VALUES_KEY, SheetRecordStore } from '../../../src/shared/storage/record-sheet';

describe('chunked store', () => {
  it('counts UTF-8 bytes and never splits a character', () => {
    expect(utf8Bytes('aé€😀')).toBe(1 + 2 + 3 + 4);
    const parts = splitUtf8('😀'.repeat(5), 8);
    expect(parts).toEqual(['😀😀', '😀😀', '😀']);
    expect(splitUtf8('', 8)).toEqual(['']);
  });

  it('stores text larger than one property value and replaces it, removing the old chunks', () => {
    const store = new MemoryStore();
    const big = 'é'.repeat(CHUNK_BYTES * 2);
    writeChunked(store, 'doc', big);
    expect(readChunked(store, 'doc')).toBe(big);
    expect(store.data.size).toBe(1 + 4);
    writeChunked(store, 'doc', 'small');
    expect(readChunked(store, 'doc')).toBe('small');
    const keys = [...store.data.keys()].sort();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe('doc');
    expect(keys[1]).toMatch(/^doc\.[a-z0-9]+\.0$/);
  });

  it('keeps the previous text readable when a write stops before the head is written', () => {
    const store = new MemoryStore();
    writeChunked(store, 'doc', 'first version');
    const failing = Object.assign(Object.create(store) as MemoryStore, {
      set(key: string, value: string) {
        if (key === 'doc') throw new Error('Exceeded maximum execution time');
        store.set(key, value);
      },
    });
    expect(() => writeChunked(failing, 'doc', 'second version')).toThrow();
    expect(readChunked(store, 'doc')).toBe('first version');
    writeChunked(store, 'doc', 'third');
    expect(readChunked(store, 'doc')).toBe('third');
  });

  it('reads nothing when the head is absent, garbled, or a chunk is missing', () => {
    const store = new MemoryStore();
    expect(readChunked(store, 'doc')).toBeNull();
    store.set('doc', 'not json');
    expect(readChunked(store, 'doc')).toBeNull();
    store.set('doc', JSON.stringify({ gen: 1, chunks: 2 }));
    store.set('doc.1.0', 'half');
    expect(readChunked(store, 'doc')).toBeNull();
  });

  it('removes the text, its head first, and leaves other values alone', () => {
    const store = new MemoryStore();
    writeChunked(store, 'doc', 'é'.repeat(CHUNK_BYTES));
    store.set('other', 'kept');
    removeChunked(store, 'doc');
    expect(readChunked(store, 'doc')).toBeNull();
    expect([...store.data.keys()]).toEqual(['other']);
    removeChunked(store, 'doc');
    expect([...store.data.keys()]).toEqual(['other']);
  });
});

describe('mapping storage', () => {
  it('saves and reloads drafts per sheet, including long prompts over 9 KB', () => {
    const store = memoryRecordStores();
    const long = `Research {input} ${'in depth, '.repeat(2000)}`;
    const drafts = [draft('Domain'), agent('Research', long), draft('Skipped', { include: false })];
    expect(saveMapping(store, 7, drafts)).toEqual({ ok: true, bytes: expect.any(Number) });
    expect(loadMapping(store, 7)).toEqual(drafts);
    expect(loadMapping(store, 8)).toBeNull();
    const writes = store.table.writes;
    saveMapping(store, 7, drafts);
    expect(store.table.writes).toBe(writes);
    // The properties keep only the fingerprint of each record's current value (a replayed older copy is not read).
    expect([...store.properties.data.keys()]).toEqual([RECORD_VALUES_KEY]);
  });

  it('refuses a mapping too large for the document store, keeping the previous one', () => {
    const store = memoryRecordStores();
    saveMapping(store, 1, [draft('A')]);
    const outcome = saveMapping(store, 1, [agent('R', 'x'.repeat(130000))]);
    expect(outcome).toEqual({ ok: false, message: expect.stringMatching(/too large.*shorten prompts/) });
    expect(loadMapping(store, 1)).toEqual([draft('A')]);
  });

  it('keeps the most recent tables and templates in the history', () => {
    const store = memoryRecordStores();
    expect(loadHistory(store)).toEqual({ tables: [], templates: [] });
    const tables: KnownTable[] = Array.from({ length: 25 }, (_, i) => ({
      id: `t${i}`,
      columns: [],
      pushes: [],
      updatedAt: i,
    }));
    saveHistory(store, { tables, templates: [{ id: 'tpl', name: 'N', columns: 2, savedAt: 1 }] });
    const loaded = loadHistory(store);
    expect(loaded.tables).toHaveLength(20);
    expect(loaded.tables[0].id).toBe('t24');
    expect(loaded.templates).toEqual([{ id: 'tpl', name: 'N', columns: 2, savedAt: 1 }]);
  });

  it('keeps one marker per table and columns, newest first, and clears them one by one', () => {
    const store = memoryRecordStores();
    expect(loadPending(store)).toEqual([]);
    markPending(store, { tableId: 't', fingerprint: 'f', startedAt: 1, state: 'sending' });
    markPending(store, { tableId: 'u', fingerprint: 'f', startedAt: 2, state: 'sending' });
    markPending(store, { tableId: 't', fingerprint: 'f', startedAt: 3, state: 'ambiguous' });
    expect(loadPending(store)).toEqual([
      { tableId: 't', fingerprint: 'f', startedAt: 3, state: 'ambiguous' },
      { tableId: 'u', fingerprint: 'f', startedAt: 2, state: 'sending' },
    ]);
    clearPending(store, { tableId: 't', fingerprint: 'f' });
    expect(loadPending(store).map((item) => item.tableId)).toEqual(['u']);
    clearPending(store, { tableId: 'u', fingerprint: 'f' });
    expect(store.records.get('sheetscout.tables.pending')).toBeNull();
    expect(store.table.rows).toEqual([]);
  });

  it('reads what an older version kept in DocumentProperties, and moves it to the records sheet on the next save', () => {
    const store = memoryRecordStores();
    const legacy = [draft('Domain'), agent('Research', `Research {input} ${'deeply, '.repeat(3000)}`)];
    writeChunked(store.properties, 'sheetscout.tables.mapping.7', JSON.stringify({ v: 1, drafts: legacy }));
    writeChunked(store.properties, 'sheetscout.tables.history', JSON.stringify({ v: 1, tables: [], templates: [] }));
    store.properties.set(
      'sheetscout.tables.pending',
      JSON.stringify([{ tableId: 't', fingerprint: 'f', startedAt: 1, state: 'sending' }]),
    );
    store.properties.set('sheetscout.formulaToken', 'kept');
    expect(loadMapping(store, 7)).toEqual(legacy);
    expect(loadPending(store).map((item) => item.tableId)).toEqual(['t']);
    expect(store.table.rows).toEqual([]);

    saveMapping(store, 7, legacy);
    clearPending(store, { tableId: 't', fingerprint: 'f' });
    saveHistory(store, loadHistory(store));
    expect([...store.properties.data.keys()]).toEqual(['sheetscout.formulaToken', RECORD_VALUES_KEY]);
    expect(loadMapping(store, 7)).toEqual(legacy);
    expect(store.table.rows.map((row) => row[0])).toEqual(['sheetscout.tables.mapping.7', 'sheetscout.tables.history']);
  });

  it('keeps each record in one row of the records sheet, its value in parts that fit a cell, read once', () => {
    const store = memoryRecordStores();
    const formulaLike = '=IMPORTXML("http://x")' + 'y'.repeat(100000);
    store.records.set('a', formulaLike);
    store.records.set('b', '+1');
    store.records.set('c', '');
    expect(store.table.rows[0][1]).toBe(3);
    expect(store.table.rows.every((row) => row.every((cell) => String(cell).length < 50000))).toBe(true);
    store.records.remove('a');
    store.records.set('b', '-2');
    store.records.set('d', '@d');
    const reads = store.table.reads;
    const reader = new SheetRecordStore(store.table, store.properties);
    expect([reader.get('a'), reader.get('b'), reader.get('c'), reader.get('d')]).toEqual([null, '-2', '', '@d']);
    expect(store.table.reads).toBe(reads + 1);
    // Another execution's write is read once asked for fresh; a row no execution of the add-in wrote is not.
    new SheetRecordStore(store.table, store.properties).set('e', 'late');
    store.table.rows.push(['f', 1, '~typed by hand']);
    expect(reader.get('e')).toBeNull();
    expect(reader.fresh('e')).toBe('late');
    expect(reader.get('f')).toBeNull();
    expect(reader.changedOutside()).toEqual([]);
  });
});
