// The ledger store over a fake hidden table: a tick reads the index of every row and whole only the open records; a
// first-version ledger is rewritten once; finished records leave after their retention (a damaged row stays), and
// their reports with them unless another record still refers to the task. The offer of earlier results reads the index
// and whole only the done records of its period; a launch answering it reuses them without creating a task.
import fc from 'fast-check';
import { runLaunch } from '../../../../src/research/launch/launch';
import { runTick } from '../../../../src/research/polling/tick';
import {
  entryToRow,
  LEDGER_HEADERS,
  type LedgerEntry,
  type OutputMapping,
} from '../../../../src/research/records/ledger';
import { LedgerStore, RETENTION_MS } from '../../../../src/research/records/stores';
import { SealedTable } from '../../../../src/shared/storage/sealed-table';
import { FakeTable, jobWorld, launchInput, ledgerEntry } from '../fakes';
import { ManualClock } from '../../../fakes/ports';
import { sealedFakeTable, testSealer } from '../../../fakes/table';

const SHEET = 3;
const DAY = 24 * 60 * 60 * 1000;
const mapping: OutputMapping = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };

/** A world with `count` company rows, launched and researched to the end. */
function finishedWorld(count: number) {
  const world = jobWorld(new ManualClock(), 'ls');
  world.grid.addSheet(SHEET, [
    ['Company', 'Status', 'Report'],
    ...Array.from({ length: count }, (_, i) => [`Company ${i} ${'details '.repeat(60)}`]),
  ]);
  const launchOn = (sheetId: number, rows: number[], again = false) =>
    runLaunch(world.deps(), launchInput(sheetId, rows, mapping, { again }), {
      deadline: world.clock.now() + 60_000,
      availableCredits: null,
      reservationPerTask: 10,
      run: 'launch',
    });
  const launch = (rows: number[], again = false) => launchOn(SHEET, rows, again);
  /** A second sheet of two companies (Initech, Globex), both launched. */
  const launchSecondSheet = () => {
    world.grid.addSheet(SHEET + 1, [['Company', 'Status', 'Report'], ['Initech'], ['Globex']]);
    launchOn(SHEET + 1, [2, 3]);
  };
  launch(Array.from({ length: count }, (_, i) => i + 2));
  for (let step = 0; step < 4; step++) {
    world.service.advance();
    runTick(world.deps());
  }
  return { ...world, launch, launchSecondSheet };
}

const totalChars = (table: FakeTable) =>
  table.rows.reduce((sum, row) => sum + row.reduce<number>((n, cell) => n + String(cell).length, 0), 0);

describe('ledger store', () => {
  it('a tick reads the index of every row, and whole only the records still open', () => {
    const world = finishedWorld(60);
    expect(
      world
        .deps()
        .ledger.load()
        .every((entry) => entry.state === 'done' && entry.written),
    ).toBe(true);
    world.launchSecondSheet();
    world.ledgerTable.charsRead = 0;
    world.service.advance();
    const deps = world.deps();
    runTick(deps);
    expect(deps.ledger.all().map((entry) => entry.row.sheetId)).toEqual([SHEET + 1, SHEET + 1]);
    // The 62 rows' index and the 2 open records, not the 60 finished records' JSON.
    expect(world.ledgerTable.charsRead).toBeLessThan(totalChars(world.ledgerTable) / 10);
    expect(deps.ledger.knownTaskIds().size).toBe(62);
  });

  it('reads for the offer of earlier results the index, and whole only the done records closed since its day', () => {
    const world = finishedWorld(60);
    world.clock.advance(10 * DAY);
    world.launchSecondSheet();
    for (let step = 0; step < 4; step++) {
      world.service.advance();
      runTick(world.deps());
    }
    world.ledgerTable.charsRead = 0;
    const store = world.deps().ledger;
    const recent = store.doneSince(world.clock.now() - 5 * DAY);
    expect(recent.map((entry) => entry.brief).sort()).toEqual(['Research Globex', 'Research Initech']);
    expect(world.ledgerTable.charsRead).toBeLessThan(totalChars(world.ledgerTable) / 10);
    expect(store.doneSince(world.clock.now() - 20 * DAY)).toHaveLength(62);
    // Nothing the store holds changed: a save after it appends nothing twice.
    expect(store.all()).toEqual([]);
  });

  it('reuses earlier results on request: one record per question, written at once, no task created for them', () => {
    const world = finishedWorld(3);
    const created = world.service.tasks.length;
    world.grid.addSheet(SHEET + 1, [
      ['Company', 'Status', 'Report'],
      [String(world.grid.value(SHEET, 2, 1))],
      [String(world.grid.value(SHEET, 3, 1))],
      [String(world.grid.value(SHEET, 2, 1))],
      ['Initech'],
    ]);
    const outcome = runLaunch(
      world.deps(),
      launchInput(SHEET + 1, [2, 3, 4, 5], mapping, { reuse: { days: 30, use: true, tasks: 1 } }),
      { deadline: world.clock.now() + 60_000, availableCredits: null, reservationPerTask: 10, run: 'launch' },
    );
    expect(outcome.refused).toBeNull();
    expect(outcome.entries).toHaveLength(1);
    expect(outcome.reused.map((entry) => outcome.plan.groups.get(entry.id))).toEqual([[2, 4], [3]]);
    expect(world.service.tasks).toHaveLength(created + 1);
    const status = (row: number) => String(world.grid.at(SHEET + 1, row, 'Status'));
    expect([2, 3, 4].map(status).every((text) => /^Reused \(researched \d{4}-\d{2}-\d{2}\)$/.test(text))).toBe(true);
    expect(world.grid.at(SHEET + 1, 4, 'Report')).toBe(world.grid.at(SHEET, 2, 'Report'));
    expect(status(5)).toBe('Queued');
  });

  it('the panel view also reads the newest records of its sheet', () => {
    const world = finishedWorld(60);
    const store = world.deps().ledger;
    const shown = store.loadOpen({ sheetId: SHEET, newest: 5 });
    expect(shown.map((entry) => entry.row.rowHint)).toEqual([57, 58, 59, 60, 61]);
  });

  it("a panel's view of a small ledger comes from one read of every row, as the index and the rows give it", () => {
    const LEDGER = 'Sheet Scout research ledger';
    const STATES = ['queued', 'sending', 'unconfirmed', 'created', 'in_progress', 'done', 'failed', 'error'] as const;
    /** The same sealed ledger as a store of more rows than are read whole sees it: its index, then its rows. */
    class IndexFirst extends SealedTable {
      rowCount(): number {
        return Number.MAX_SAFE_INTEGER;
      }
    }
    const record = fc.record({
      state: fc.constantFrom(...STATES),
      sheetId: fc.constantFrom(0, 3, 7),
      written: fc.boolean(),
      day: fc.nat(40),
    });
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('cell', 'index', 'copy', 'blank', 'typed', 'header'),
    });
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 30 }),
        fc.array(edit, { maxLength: 5 }),
        fc.constantFrom(0, 3, 7),
        fc.integer({ min: 1, max: 8 }),
        (records, edits, sheetId, newest) => {
          const sealer = testSealer();
          const { table, grid } = sealedFakeTable(LEDGER, LEDGER_HEADERS, sealer);
          new LedgerStore(table).save(
            records.map((r, i) =>
              ledgerEntry(mapping, {
                id: `e${i}`,
                taskId: `t${i}`,
                state: r.state,
                written: r.written,
                row: { sheetId: r.sheetId, rowId: null, rowHint: i + 2, keyHeaders: ['Company'], keyValues: [`c${i}`] },
                launchedAt: r.day * DAY,
                updatedAt: r.day * DAY,
              }),
            ),
          );
          // Another editor's changes: a cell, an index cell, a row copied, cleared or typed, the header's seal cell.
          for (const { at, kind } of edits) {
            const target = grid.rows[at % Math.max(1, grid.rows.length)];
            if (kind === 'header') grid.header[0] = 'edited';
            else if (kind === 'typed') grid.rows.push(['x', `typed${at}`, 't', 'queued', sheetId]);
            else if (!target) continue;
            else if (kind === 'cell') target[6] = `${target[6]} `;
            else if (kind === 'index') target[3] = 'done 2020-01-01';
            else if (kind === 'copy') grid.rows.push([...target]);
            else target.fill('');
          }
          const copy = new FakeTable(grid.header);
          copy.rows = grid.rows.map((cells) => [...cells]);
          const view = { sheetId, newest };
          const once = new LedgerStore(new SealedTable(grid, LEDGER, sealer, LEDGER_HEADERS));
          const apart = new LedgerStore(new IndexFirst(copy, LEDGER, sealer, LEDGER_HEADERS));
          const reads = grid.reads;
          expect(once.loadOpen(view)).toEqual(apart.loadOpen(view));
          expect(grid.reads - reads).toBe(1);
          expect(once.damaged()).toEqual(apart.damaged());
          const now = 60 * DAY;
          expect(once.compactionDue(now)).toBe(apart.compactionDue(now));
          // Saved again, each record lands on the row the other store writes it to.
          const saved = once
            .all()
            .map((entry) => ({ ...entry, state: 'done' as const, written: true, updatedAt: now }));
          once.save(saved);
          apart.save(saved);
          expect(grid.rows).toEqual(copy.rows);
        },
      ),
      { seed: 47, numRuns: 200 },
    );
  });

  it('rewrites a first-version ledger once: its index then marks the record not yet written as open', () => {
    const table = new FakeTable([
      'entry_id',
      'task_id',
      'state',
      'sheet_id',
      'row_id',
      'updated_at',
      'parts',
      'record',
    ]);
    const record = (id: string, written: boolean): LedgerEntry => ({
      id,
      taskId: `task_${id}`,
      state: 'done',
      row: { sheetId: SHEET, rowId: null, rowHint: 2, keyHeaders: ['Company'], keyValues: [id] },
      brief: `Research ${id}`,
      depth: 'medium',
      schema: null,
      mapping,
      iterations: 1,
      agents: 2,
      sources: 3,
      cost: 4,
      error: null,
      degradation: [],
      launchedAt: 0,
      sentAt: 0,
      updatedAt: 0,
      finishedAt: 0,
      written,
      shownStatus: 'Queued',
      detached: false,
    });
    // A first-version row held the plain state: the record a killed tick left unwritten looked finished.
    for (const entry of [record('a', true), record('b', false)]) {
      const row = entryToRow(entry);
      row[2] = 'done';
      table.rows.push(row);
    }
    const store = new LedgerStore(table);
    expect(store.loadOpen().map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(table.header).toEqual(LEDGER_HEADERS);
    expect(table.rows.map((row) => row[2])).toEqual(['done 1970-01-01', 'done (to write)']);
    expect(new LedgerStore(table).loadOpen().map((entry) => entry.id)).toEqual(['b']);
  });

  it("compacts finished records past their retention; damaged rows and the kept records' reports stay", () => {
    const world = finishedWorld(150);
    const damaged = ['e_damaged', 'task_x', 'done 2020-01-01', SHEET, '', '2020-01-01T00:00:00.000Z', 1, '{broken'];
    world.ledgerTable.rows.push(damaged);
    expect(world.reportTable.rows).toHaveLength(150);
    world.clock.advance(RETENTION_MS - DAY);
    // Row 2 is researched again (asked) a day before the others expire: its new record and report are kept.
    world.launch([2], true);
    for (let step = 0; step < 4; step++) {
      world.service.advance();
      runTick(world.deps());
    }
    world.clock.advance(2 * DAY);
    const store = world.deps().ledger;
    store.loadOpen();
    expect(store.compactionDue(world.clock.now())).toBe(true);
    runTick(world.deps());
    const kept = world.deps().ledger.load();
    expect(kept.map((entry) => entry.row.rowHint)).toEqual([2]);
    expect(world.ledgerTable.rows.map((row) => row[0])).toEqual(['e_damaged', kept[0].id]);
    // The damaged row keeps its content; its index now says so, so it is read (and reported) and never compacted.
    expect(world.ledgerTable.rows[0]).toEqual([...damaged.slice(0, 2), 'damaged', ...damaged.slice(3)]);
    const again = world.deps().ledger;
    again.loadOpen();
    expect(again.damaged()).toEqual([{ entryId: 'e_damaged', taskId: 'task_x' }]);
    expect(again.compactionDue(world.clock.now())).toBe(false);
    expect(world.ledgerTable.width).toBe(LEDGER_HEADERS.length);
    expect(world.reportTable.rows.map((row) => row[0])).toEqual([kept[0].taskId]);
    expect(world.reportTable.width).toBe(3);
  });

  it('compacts a handful of expired records only once they are a week past their retention', () => {
    const world = finishedWorld(5);
    world.clock.advance(RETENTION_MS + DAY);
    const store = world.deps().ledger;
    store.loadOpen();
    expect(store.compactionDue(world.clock.now())).toBe(false);
    world.clock.advance(7 * DAY);
    expect(store.compactionDue(world.clock.now())).toBe(true);
    runTick(world.deps());
    expect(world.ledgerTable.rows).toHaveLength(0);
  });
});
