// "Keep enriching new rows" in the document's properties: one sheet's change writes only that sheet's values (issue 45,
// point 2: every sheet's settings lived in one list rewritten whole, which a full store could no longer take), research's
// terms apart and written only when they change, and the list of earlier versions moved on the first write.
import { MemoryStore } from '../../fakes/ports';
import { writeChunkedList } from '../../../src/shared/storage/chunked-store';
import { readSetting, readSettings, writeSetting, type NewRowsSetting } from '../../../src/new-rows/state';
import type { NewRowsResearch } from '../../../src/new-rows/research';

function setting(sheetId: number, research: NewRowsResearch | null = null): NewRowsSetting {
  return {
    sheetId,
    sheetName: `Sheet ${sheetId}`,
    domainColumn: 1,
    domainHeader: 'Website',
    fields: ['company_name'],
    headers: ['Company'],
    since: 1,
    digest: 'd',
    waiting: 0,
    owed: 0,
    lastFound: null,
    problem: null,
    totals: { added: 0, filled: 0 },
    research,
  };
}

function research(template: string): NewRowsResearch {
  return {
    template,
    depth: 'medium',
    schema: null,
    mapping: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null },
    headers: ['Status', 'Report'],
    creditsPerRow: 10,
    monthlyLimit: 100,
    savedBy: 'ana@example.com',
    confirmedAt: 1,
    timer: 't1',
    lastRun: null,
  };
}

/** The keys a write touched (set or removed), by wrapping the store. */
function touched(store: MemoryStore, act: () => void): string[] {
  const keys: string[] = [];
  const { setAll, remove } = store;
  store.setAll = (values) => (keys.push(...Object.keys(values)), setAll.call(store, values));
  store.remove = (key) => (keys.push(key), remove.call(store, key));
  try {
    act();
  } finally {
    store.setAll = setAll;
    store.remove = remove;
  }
  return keys;
}

describe('new rows settings, one sheet at a time', () => {
  it("writes one sheet's values only, and research's terms only when they change", () => {
    const store = new MemoryStore();
    for (const id of [1, 2, 3])
      writeSetting(store, id, setting(id, research(`Research {Website} ${'x'.repeat(5000)}`)));
    expect(readSettings(store).map((entry) => entry.sheetId)).toEqual([1, 2, 3]);
    const next = { ...setting(2, research(`Research {Website} ${'x'.repeat(5000)}`)), waiting: 3 };
    const keys = touched(store, () => writeSetting(store, 2, next));
    expect(keys.every((key) => key.startsWith('sheetscout.newRows.sheet.2'))).toBe(true);
    expect(readSetting(store, 2)).toEqual(next);
    expect(readSetting(store, 1)?.research?.template).toMatch(/^Research \{Website\}/);
    // Turned off: its values go, the others stay.
    writeSetting(store, 2, null);
    expect(readSettings(store).map((entry) => entry.sheetId)).toEqual([1, 3]);
    expect(store.bytesUnder('sheetscout.newRows.research.2')).toBe(0);
    expect(store.bytesUnder('sheetscout.newRows.sheet.2')).toBe(0);
  });

  it("moves an earlier version's list at the first write, even in a store too full to hold it twice", () => {
    for (const filler of [0, 450_000]) {
      const store = new MemoryStore();
      if (filler > 0) for (let i = 0; i * 8000 < filler; i++) store.set(`other.${i}`, 'x'.repeat(8000));
      const legacy = [1, 2, 3, 4, 5].map((id) => setting(id, research(`Research {Website} ${'y'.repeat(7000)}`)));
      writeChunkedList(store, 'sheetscout.newRows.sheets', legacy);
      expect(readSettings(store)).toEqual(legacy);
      expect(readSetting(store, 4)).toEqual(legacy[3]);
      writeSetting(store, 4, { ...legacy[3], owed: 2 });
      expect(readSettings(store)).toEqual(legacy.map((entry) => (entry.sheetId === 4 ? { ...entry, owed: 2 } : entry)));
      expect(store.get('sheetscout.newRows.sheets')).toBeNull();
    }
  });
});
