// The spending history's rules over a store with Google's property limits: a run reserves its records' reservation
// when opened, each record is settled once (done, failed, refused, sent again elsewhere), a run whose records are all
// settled closes, runs older than 90 days go, the closed runs' document stays within its budget (the oldest dropped
// and counted), and a full store never stops the research that writes it.
import { MemoryStore, PROPERTY_VALUE_BYTES } from '../../fakes/ports';
import { INCOMPLETE_KEY, recordingHistory } from '../../../src/spending-history/recording';
import {
  HISTORY_DAYS,
  RUNS_BUDGET_BYTES,
  runId,
  SpendingHistory,
  type RunOpening,
} from '../../../src/spending-history/history';
import { fingerprint } from '../../../src/shared/fingerprint';

const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 2, 9);

function world() {
  let now = START;
  const store = new MemoryStore();
  return {
    store,
    history: new SpendingHistory(store, () => now),
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}

const opening = (launch: string, records: number, overrides: Partial<RunOpening> = {}): RunOpening => ({
  kind: 'launch',
  startedBy: 'ana@example.com',
  launch,
  at: START,
  sheetId: 7,
  reservation: 10,
  // Records known by their id only, as runs an earlier version opened keep them (by place: the describe below).
  records: Array.from({ length: records }, (_, i) => ({ id: `${launch}-record-${i}` })),
  ...overrides,
});

describe('spending history', () => {
  it('reserves the records of a run when it opens, settles each once, and closes the run when all are settled', () => {
    const { history } = world();
    history.open(opening('L1', 3));
    expect(history.list().runs).toEqual([
      expect.objectContaining({ id: runId('L1'), rows: 3, reserved: 30, charged: 0, givenBack: 0, open: 3 }),
    ]);
    const done = { launch: 'L1', record: 'L1-record-0', outcome: 'done' as const, charged: 8 };
    history.settle([done]);
    history.settle([done]);
    expect(history.list().runs[0]).toMatchObject({ reserved: 30, charged: 8, givenBack: 2, open: 2 });
    history.settle([
      { launch: 'L1', record: 'L1-record-1', outcome: 'failed', charged: 0 },
      { launch: 'L1', record: 'L1-record-2', outcome: 'refused', charged: 0 },
    ]);
    expect(history.list().runs[0]).toMatchObject({ reserved: 20, charged: 8, givenBack: 12, open: 0, unknown: 0 });
    // Closed: a record put back by an editor and finished again changes nothing.
    history.settle([{ ...done, charged: 10 }]);
    expect(history.list().runs[0]).toMatchObject({ reserved: 20, charged: 8, givenBack: 12 });
  });

  it('lists the rows a run gave earlier results (0 credits): closed at once when it paid for nothing', () => {
    const { history, store } = world();
    history.open(opening('L1', 0, { reused: 4 }));
    history.open(opening('L2', 1, { reused: 2 }));
    history.open(opening('L3', 0));
    const listed = () => new SpendingHistory(store, () => START).list().runs;
    expect(listed()).toEqual([
      expect.objectContaining({ id: runId('L1'), rows: 0, reserved: 0, charged: 0, givenBack: 0, open: 0, reused: 4 }),
      expect.objectContaining({ id: runId('L2'), rows: 1, reserved: 10, open: 1, reused: 2 }),
    ]);
    expect(history.unsettled().map((run) => run.run)).toEqual([runId('L2')]);
    history.settle([{ launch: 'L2', record: 'L2-record-0', outcome: 'done', charged: 6 }]);
    expect(listed()[1]).toMatchObject({ reserved: 10, charged: 6, givenBack: 4, open: 0, reused: 2 });
  });

  it('counts a finished task whose result went to no row as charged and not collected, once', () => {
    const { history, store } = world();
    history.open(opening('L1', 2));
    const salvaged = { launch: 'L1', record: 'L1-record-0', outcome: 'done' as const, charged: 6, uncollected: true };
    history.settle([salvaged]);
    history.settle([salvaged]);
    history.settle([{ launch: 'L1', record: 'L1-record-1', outcome: 'done', charged: 4 }]);
    expect(new SpendingHistory(store, () => START).list().runs[0]).toMatchObject({
      reserved: 20,
      charged: 10,
      givenBack: 10,
      open: 0,
      lost: 1,
    });
  });

  it('opens a run once, and ignores outcomes of launches it does not list', () => {
    const { history, store } = world();
    history.open(opening('L1', 2));
    history.settle([{ launch: 'L1', record: 'L1-record-0', outcome: 'done', charged: 4 }]);
    history.open(opening('L1', 2));
    history.settle([{ launch: 'other', record: 'x', outcome: 'done', charged: 4 }]);
    expect(history.list().runs).toEqual([expect.objectContaining({ charged: 4, reserved: 20, open: 1 })]);
    // A new instance reads the same from the store.
    expect(new SpendingHistory(store, () => START).list().runs[0]).toMatchObject({ charged: 4, open: 1 });
  });

  it('moves a record sent again to its new run, counting its first create as unknown', () => {
    const { history } = world();
    history.open(opening('L1', 2));
    history.settle([{ launch: 'L1', record: 'L1-record-1', outcome: 'moved', charged: 0 }]);
    history.open(opening('L2', 0, { kind: 'send-anyway', records: [{ id: 'L1-record-1' }], at: START + 1000 }));
    history.settle([{ launch: 'L2', record: 'L1-record-1', outcome: 'done', charged: 6 }]);
    const [again, first] = history.list().runs;
    expect(again).toMatchObject({ kind: 'send-anyway', reserved: 10, charged: 6, givenBack: 4, open: 0 });
    expect(first).toMatchObject({ kind: 'launch', reserved: 10, unknown: 1, open: 1 });
  });

  it('lists newest first, with who started each run', () => {
    const { history } = world();
    history.open(opening('L1', 1, { startedBy: 'ana@example.com' }));
    history.open(opening('L2', 1, { startedBy: 'ben@example.com', at: START + 60_000, kind: 'watch' }));
    expect(history.list().runs.map((run) => [run.kind, run.startedBy])).toEqual([
      ['watch', 'ben@example.com'],
      ['launch', 'ana@example.com'],
    ]);
  });

  it('keeps 90 days: older runs go at the next opening, with their open part', () => {
    const { history, store, advance } = world();
    history.open(opening('old', 2));
    advance((HISTORY_DAYS + 1) * DAY);
    expect(history.list().runs).toEqual([]);
    history.open(opening('new', 1, { at: START + (HISTORY_DAYS + 1) * DAY }));
    expect(history.list().runs.map((run) => run.id)).toEqual([runId('new')]);
    expect([...store.data.keys()].some((key) => key.includes(runId('old')))).toBe(false);
  });

  it('stays within its budget of the document properties: the oldest closed runs go first, counted', () => {
    const { history, store } = world();
    const RUNS = 1400;
    for (let i = 0; i < RUNS; i++) {
      const launch = `launch-${i}`;
      history.open(opening(launch, 1, { at: START + i * 60_000, startedBy: `editor-${i % 7}@example.com` }));
      history.settle([{ launch, record: `${launch}-record-0`, outcome: 'done', charged: 4 }]);
    }
    const { runs, dropped } = history.list();
    expect(dropped).toBeGreaterThan(0);
    expect(runs.length + dropped).toBe(RUNS);
    expect(runs[0].id).toBe(runId(`launch-${RUNS - 1}`));
    // About 55 to 65 bytes a run: over a thousand runs within the budget.
    expect(runs.length).toBeGreaterThan(1000);
    const bytes = [...store.data].reduce((sum, [key, value]) => sum + key.length + value.length, 0);
    expect(bytes).toBeLessThanOrEqual(RUNS_BUDGET_BYTES + 1024);
    for (const value of store.data.values()) expect(value.length).toBeLessThanOrEqual(PROPERTY_VALUE_BYTES);
  });

  it('tells apart records whose short fingerprints collide', () => {
    const { history } = world();
    // Two record ids with the same 32-bit fingerprint (found once by trying ids in order).
    const pair = ['record-549599', 'record-712382'];
    expect(fingerprint(pair[0])).toBe(fingerprint(pair[1]));
    history.open(opening('L1', 0, { records: pair.map((id) => ({ id })) }));
    history.settle([{ launch: 'L1', record: pair[0], outcome: 'done', charged: 2 }]);
    expect(history.list().runs[0]).toMatchObject({ open: 1, charged: 2 });
    history.settle([{ launch: 'L1', record: pair[1], outcome: 'done', charged: 4 }]);
    expect(history.list().runs[0]).toMatchObject({ open: 0, charged: 6, givenBack: 14 });
  });

  it('never stops the research that writes it: a full store notes since when runs may be missing', () => {
    const { history, store, now } = world();
    const recording = recordingHistory(history, store, now);
    store.failWrites = true;
    expect(() => recording.open(opening('L1', 2))).not.toThrow();
    store.failWrites = false;
    expect(store.get(INCOMPLETE_KEY)).toBeNull();
    const full = new MemoryStore();
    const blocked = recordingHistory(
      {
        open: () => {
          throw new Error('You have exceeded the property storage quota.');
        },
      } as unknown as SpendingHistory,
      full,
      now,
    );
    blocked.open(opening('L2', 1));
    expect(full.get(INCOMPLETE_KEY)).toBe(String(START));
  });
});

describe('spending history: runs that know their records by their place in the launch', () => {
  const placed = (launch: string, records: number): RunOpening =>
    opening(launch, 0, { records: Array.from({ length: records }, (_, i) => ({ id: `${launch}-r${i}`, ordinal: i })) });
  const outcome = (launch: string, ordinal: number, charged = 4) => ({
    launch,
    record: `${launch}-r${ordinal}`,
    ordinal,
    outcome: 'done' as const,
    charged,
  });

  it('settles each record once by its place, whatever record id an outcome names, and closes the run', () => {
    const { history, store } = world();
    history.open(placed('L1', 3));
    history.settle([outcome('L1', 0)]);
    // The same place again (an older copy of the record put back and finished again), or under another id: nothing.
    history.settle([outcome('L1', 0, 10), { ...outcome('L1', 0, 10), record: 'another' }]);
    // A record of no place, or of a place the run does not have, settles nothing.
    history.settle([{ ...outcome('L1', 1), ordinal: undefined }, outcome('L1', 7)]);
    expect(new SpendingHistory(store, () => START).list().runs[0]).toMatchObject({ charged: 4, open: 2 });
    expect(history.unsettled()).toEqual([{ run: runId('L1'), keys: ['#1', '#2'], wide: false, byOrdinal: true }]);
    history.settle([outcome('L1', 1), { ...outcome('L1', 2), outcome: 'failed', charged: 0 }]);
    expect(history.list().runs[0]).toMatchObject({ reserved: 30, charged: 8, givenBack: 22, open: 0 });
    expect([...store.data.keys()].some((key) => key.startsWith('sheetscout.spending.open.'))).toBe(false);
  });

  it('keeps a 20,000-record run open in a few kilobytes, not a fingerprint a record', () => {
    const { history, store } = world();
    history.open(placed('big', 20_000));
    history.settle(Array.from({ length: 5_000 }, (_, i) => outcome('big', i * 2)));
    const open = [...store.data].filter(([key]) => key.startsWith('sheetscout.spending.open.'));
    const bytes = open.reduce((sum, [key, value]) => sum + key.length + value.length, 0);
    // 20,000 records, six a character: 3,334 characters, and the run's figures.
    expect(bytes).toBeLessThan(3_600);
    expect(history.list().runs[0]).toMatchObject({ open: 15_000, charged: 20_000 });
  });

  it('a run opened by an earlier version (fingerprints) still settles, beside the new runs', () => {
    const { history } = world();
    history.open(opening('old', 2));
    history.open(placed('new', 2));
    history.settle([
      { launch: 'old', record: 'old-record-0', ordinal: 0, outcome: 'done', charged: 6 },
      outcome('new', 0, 2),
    ]);
    const runs = history.list().runs;
    expect(runs.find((run) => run.id === runId('old'))).toMatchObject({ charged: 6, open: 1 });
    expect(runs.find((run) => run.id === runId('new'))).toMatchObject({ charged: 2, open: 1 });
  });
});
