// "Refresh data older than N days" over the in-memory ports: dates recorded by the job, the preview, a chunk that
// writes only the changed cells with a note, the summary per column, resuming, and what it refuses.
import { previewRefresh, refreshChanges, runRefreshChunk } from '../../../src/enrichment/refresh/refresh';
import {
  cellChanges,
  changeNote,
  changeWrites,
  sameCell,
  writtenFingerprint,
} from '../../../src/enrichment/sheet/refresh-changes';
import { toCellValue } from '../../../src/shared/cell-values';
import { startEnrichment } from '../../../src/enrichment/job/service';
import { runChunk } from '../../../src/enrichment/job/run';
import type { RefreshChunkResult } from '../../../src/enrichment/contract';
import { profileFor, world, type World } from './fakes';
import { ChangeLog, CHANGE_LOG_HEADERS } from '../../../src/enrichment/refresh/change-log';
import { FakeTable } from '../../fakes/table';

const DAY = 86_400_000;
const FIELDS = ['company_name', 'employee_count'];

function enriched(list: string[]): World {
  const w = world([['Website'], ...list.map((domain) => [domain])]);
  const started = startEnrichment(w.deps, { fields: FIELDS });
  if (!started.ok) throw new Error(started.message);
  for (let step = 0; step < 20; step++) {
    const progress = runChunk(w.deps, 'sidebar');
    if (!progress || progress.nextStepInMs < 0) return w;
  }
  throw new Error('job did not finish');
}

const changeLogs = new WeakMap<World, ChangeLog>();
const refreshContext = (w: World) => {
  if (!changeLogs.has(w)) changeLogs.set(w, new ChangeLog(new FakeTable(CHANGE_LOG_HEADERS)));
  return { ...w.deps, today: () => '2026-11-24', changes: changeLogs.get(w) as ChangeLog };
};

function refreshed(w: World, days = 30, skip: string[] = []): Extract<RefreshChunkResult, { ok: true }> {
  const result = runRefreshChunk(refreshContext(w), { days, skip }, 60_000);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('refresh of enriched data', () => {
  it('dates every enriched domain and finds none older than 30 days at first', () => {
    const w = enriched(['a.com', 'b.com', 'c.com']);
    expect([...w.dates.read(7).keys()].sort()).toEqual(['a.com', 'b.com', 'c.com']);
    expect(previewRefresh(refreshContext(w), { days: 30 })).toMatchObject({
      ok: true,
      staleRows: 0,
      domains: 0,
      requests: 0,
    });
  });

  it('rewrites only the cells that changed, with a note of the old value, and sums the changes per column', () => {
    const w = enriched(['a.com', 'b.com', 'c.com', 'b.com']);
    w.clock.advance(31 * DAY);
    expect(previewRefresh(refreshContext(w), { days: 30 })).toMatchObject({
      ok: true,
      staleRows: 4,
      domains: 3,
      requests: 3,
      credits: 0,
    });
    const grown = profileFor('b.com');
    w.client.profiles.set('b.com', { ...grown, context: { ...grown.context, employee_count: '201-500' } });
    const writesBefore = w.sheet.writes;
    const calls = w.client.calls.length;
    const result = refreshed(w);
    expect(w.client.calls.slice(calls).flat().sort()).toEqual(['a.com', 'b.com', 'c.com']);
    expect(result).toMatchObject({
      checked: 3,
      changedRows: 2,
      changedCells: 2,
      changedByField: [{ header: 'Employees', rows: 2 }],
      remaining: 0,
    });
    const values = w.sheet.readValues();
    expect(values[2][2]).toBe('201-500');
    expect(values[4][2]).toBe('201-500');
    expect(values[1][2]).toBe('51-200');
    expect(w.sheet.notes.get('3:3')).toBe('Was 51-200 until 2026-11-24');
    expect(w.sheet.notes.size).toBe(2);
    // Two single-row runs in one column: a value write and a note write each.
    expect(w.sheet.writes - writesBefore).toBe(4);
    expect(previewRefresh(refreshContext(w), { days: 30 })).toMatchObject({ ok: true, staleRows: 0 });
  });

  it('names the row each change was in when a domain is in several rows, also after rows move', () => {
    const w = enriched(['a.com', 'b.com', 'c.com', 'b.com']);
    w.clock.advance(31 * DAY);
    const grown = profileFor('b.com');
    w.client.profiles.set('b.com', {
      ...grown,
      company_name: 'B Group',
      context: { ...grown.context, employee_count: '201-500' },
    });
    // The user's own count in row 3 is kept: only row 5's count changes.
    w.sheet.writeValues(3, 3, [['about 60']]);
    expect(refreshed(w)).toMatchObject({ changedCells: 3, keptEdits: 1 });
    const listed = () => {
      const answer = refreshChanges(refreshContext(w), 30);
      if (!answer.ok) throw new Error(answer.message);
      return answer.changes.map((change) => `Row ${change.row} ${change.header}: ${change.after}`).sort();
    };
    expect(listed()).toEqual([
      'Row 3 Company name: B Group',
      'Row 5 Company name: B Group',
      'Row 5 Employees: 201-500',
    ]);
    w.sheet.insertRow(2, ['x.com']);
    expect(listed()).toEqual([
      'Row 4 Company name: B Group',
      'Row 6 Company name: B Group',
      'Row 6 Employees: 201-500',
    ]);
    // Without the second row, its changes have no row now.
    w.sheet.deleteRow(6);
    expect(listed()).toEqual([
      'Row 4 Company name: B Group',
      'Row null Company name: B Group',
      'Row null Employees: 201-500',
    ]);
  });

  it('counts enriched rows without a date as stale, and skips the domains a run handed back', () => {
    const w = enriched(['a.com', 'b.com']);
    w.dates.bySheet.clear();
    expect(previewRefresh(refreshContext(w), { days: 30 })).toMatchObject({ staleRows: 2, undatedRows: 2, domains: 2 });
    w.client.enriching.set('a.com', 1);
    const first = refreshed(w, 30);
    expect(first).toMatchObject({ checked: 1, retryLater: ['a.com'], changedRows: 0 });
    const calls = w.client.calls.length;
    expect(refreshed(w, 30, first.retryLater)).toMatchObject({ checked: 0, remaining: 0 });
    expect(w.client.calls.length).toBe(calls);
  });

  it('refuses while an enrichment runs, a bad number of days, and a sheet never enriched', () => {
    const w = enriched(['a.com']);
    startEnrichment(w.deps, { fields: ['hq_country'] });
    expect(runRefreshChunk(refreshContext(w), { days: 1 }, 1000)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/enrichment is running/),
    });
    expect(previewRefresh(refreshContext(w), { days: -1 })).toMatchObject({ ok: false });
    const fresh = world([['Website'], ['x.com']]);
    expect(previewRefresh(refreshContext(fresh), { days: 1 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/enrich it first/),
    });
  });
});

describe('refresh changes', () => {
  it('compares cells as Sheets shows them and groups adjacent rows into one write', () => {
    expect(sameCell('51-200', "'51-200")).toBe(true);
    expect(sameCell(2010, 2010)).toBe(true);
    expect(sameCell('', null)).toBe(true);
    expect(sameCell('Berlin', 'Munich')).toBe(false);
    expect(changeNote('', '2026-11-24')).toBe('Was (empty) until 2026-11-24');
    const writes = changeWrites([
      { row: 3, column: 2, value: 'x', note: 'n3', before: '' },
      { row: 2, column: 2, value: 'w', note: 'n2', before: '' },
      { row: 5, column: 2, value: 'y', note: 'n5', before: '' },
    ]);
    expect(writes).toEqual([
      { row: 2, column: 2, values: [['w'], ['x']], notes: [['n2'], ['n3']] },
      { row: 5, column: 2, values: [['y']], notes: [['n5']] },
    ]);
  });

  it("a service value that starts with ' keeps its ' (only the text prefix is Sheets'), and is refreshed again", () => {
    // The service says "'Quoted Inc": the add-in writes "''Quoted Inc", and the grid gives back "'Quoted Inc".
    const written = toCellValue("'Quoted Inc");
    expect(written).toBe("''Quoted Inc");
    expect(sameCell("'Quoted Inc", written)).toBe(true);
    expect(sameCell('Quoted Inc', written)).toBe(false);
    // What the grid holds is what was written: the next refresh replaces it (not a hand edit kept).
    const cell = { formulaAt: () => '', writtenAt: () => writtenFingerprint(written) };
    const next = cellChanges(2, ["'Quoted Inc"], [1], [toCellValue('Quoted Inc')], cell, '2026-11-26');
    expect(next).toEqual({
      changes: [expect.objectContaining({ row: 2, column: 1, before: "'Quoted Inc" })],
      keptEdits: 0,
    });
    // A value the user typed over it is still kept.
    const typed = cellChanges(2, ['Ours'], [1], [toCellValue('Quoted Inc')], cell, '2026-11-26');
    expect(typed).toEqual({ changes: [], keptEdits: 1 });
  });
});
