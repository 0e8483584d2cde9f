// Scheduled refresh rules (src/enrichment/refresh/schedule.ts): the next run (06:00 or the chosen hour on the weekday, or on
// the 1st), and the timer's slice: a due run goes chunk by chunk within the time and the request share, waits when the
// refusal passes (busy, an enrichment running) or the service cannot be reached, ends with its summary and the next
// time, and stays pending while a schedule exists, next due at the earliest schedule.
import type { RefreshChunkResult } from '../../../src/enrichment/contract';
import {
  nextRun,
  readSchedules,
  runSchedules,
  writeSchedules,
  type LocalTime,
  type RefreshSchedule,
  type ScheduleRunDeps,
} from '../../../src/enrichment/refresh/schedule';
import { MemoryStore } from '../../fakes/ports';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (ms: number): LocalTime => {
  const date = new Date(ms);
  return { weekday: date.getUTCDay(), monthDay: date.getUTCDate(), hour: date.getUTCHours() };
};
// Wednesday 25 November 2026, 14:30 UTC.
const NOW = Date.UTC(2026, 10, 25, 14, 30);

const chunk = (over: Partial<Extract<RefreshChunkResult, { ok: true }>> = {}): RefreshChunkResult => ({
  ok: true,
  checked: 10,
  changedRows: 2,
  changedCells: 3,
  keptEdits: 1,
  changedByField: [],
  freshRows: 0,
  freshDueAt: null,
  notFound: 0,
  retryLater: [],
  unreachable: 0,
  remaining: 0,
  requests: 10,
  ...over,
});

function schedule(over: Partial<RefreshSchedule> = {}): RefreshSchedule {
  return {
    sheetId: 7,
    sheetName: 'Leads',
    days: 30,
    cadence: 'weekly',
    weekday: 1,
    nextRunAt: NOW - HOUR,
    run: null,
    lastRun: null,
    ...over,
  };
}

function deps(chunks: RefreshChunkResult[], over: Partial<ScheduleRunDeps> = {}) {
  const store = new MemoryStore();
  let now = NOW;
  let left = 1000;
  const calls: Array<{ skip: string[]; maxDomains: number }> = [];
  const run: ScheduleRunDeps = {
    store,
    now: () => now,
    local: utc,
    requestsLeft: () => left,
    refreshChunk: (_sheet, _days, skip, _budget, maxDomains) => {
      calls.push({ skip: [...skip], maxDomains });
      now += 20_000;
      return chunks.shift() ?? chunk();
    },
    spent: (requests) => {
      left -= requests;
    },
    isPassing: (message) => message === 'busy',
    ...over,
  };
  return { run, store, calls, setLeft: (n: number) => (left = n) };
}

describe('scheduled refresh', () => {
  it('runs next at 06:00 on the weekday, or on the 1st of the month', () => {
    expect(new Date(nextRun({ cadence: 'weekly', weekday: 1 }, NOW, utc)).toISOString()).toBe(
      '2026-11-30T06:00:00.000Z',
    );
    expect(new Date(nextRun({ cadence: 'weekly', weekday: 4 }, NOW, utc)).toISOString()).toBe(
      '2026-11-26T06:00:00.000Z',
    );
    expect(new Date(nextRun({ cadence: 'monthly', weekday: 0 }, NOW, utc)).toISOString()).toBe(
      '2026-12-01T06:00:00.000Z',
    );
    // At 06:00 on the day itself, the next one is a week on.
    const monday = Date.UTC(2026, 10, 30, 6);
    expect(nextRun({ cadence: 'weekly', weekday: 1 }, monday, utc)).toBe(monday + 7 * DAY);
  });

  it('runs a due schedule chunk by chunk to the end, then keeps its summary and the next run', () => {
    const world = deps([chunk({ remaining: 5, retryLater: ['slow.com'] }), chunk({ changedRows: 1, keptEdits: 0 })]);
    writeSchedules(world.store, [schedule(), schedule({ sheetId: 8, nextRunAt: NOW + DAY })]);
    // Next due when the other sheet's schedule is.
    expect(runSchedules(world.run, 4 * 60_000)).toEqual({ pending: true, wakeAt: NOW + DAY });
    expect(world.calls).toEqual([
      { skip: [], maxDomains: 1000 },
      { skip: ['slow.com'], maxDomains: 990 },
    ]);
    const [done, later] = readSchedules(world.store);
    expect(done.run).toBeNull();
    expect(done.lastRun).toMatchObject({ checked: 20, changedRows: 3, changedCells: 6, keptEdits: 1, problem: null });
    expect(new Date(done.nextRunAt).toISOString()).toBe('2026-11-30T06:00:00.000Z');
    expect(later).toEqual(schedule({ sheetId: 8, nextRunAt: NOW + DAY }));
  });

  it('keeps why a run checked nothing: the rows newer than its days, and when the first of them is due', () => {
    const dueAt = NOW + 2 * DAY;
    const world = deps([
      chunk({
        checked: 0,
        changedRows: 0,
        changedCells: 0,
        keptEdits: 0,
        requests: 0,
        freshRows: 196,
        freshDueAt: dueAt,
      }),
    ]);
    writeSchedules(world.store, [schedule({ days: 3 })]);
    runSchedules(world.run, 4 * 60_000);
    expect(readSchedules(world.store)[0].lastRun).toMatchObject({ checked: 0, freshRows: 196, freshDueAt: dueAt });
    // A run over several chunks keeps what its first found (later chunks see the rows it refreshed as fresh).
    const two = deps([
      chunk({ remaining: 5, freshRows: 3, freshDueAt: dueAt }),
      chunk({ freshRows: 13, freshDueAt: NOW }),
    ]);
    writeSchedules(two.store, [schedule()]);
    runSchedules(two.run, 4 * 60_000);
    expect(readSchedules(two.store)[0].lastRun).toMatchObject({ checked: 20, freshRows: 3, freshDueAt: dueAt });
  });

  it('stops at the request share and goes on at the next tick; waits out a passing refusal; ends on a lasting one', () => {
    const world = deps([chunk({ remaining: 5 })]);
    writeSchedules(world.store, [schedule()]);
    world.setLeft(10);
    runSchedules(world.run, 4 * 60_000);
    expect(world.calls).toHaveLength(1);
    expect(readSchedules(world.store)[0].run).toMatchObject({ checked: 10 });

    const busy = deps([{ ok: false, message: 'busy' }]);
    writeSchedules(busy.store, [schedule()]);
    runSchedules(busy.run, 4 * 60_000);
    expect(readSchedules(busy.store)[0]).toMatchObject({ lastRun: null, run: { checked: 0 } });

    const gone = deps([{ ok: false, message: 'The sheet of this schedule was deleted.' }]);
    writeSchedules(gone.store, [schedule()]);
    runSchedules(gone.run, 4 * 60_000);
    expect(readSchedules(gone.store)[0]).toMatchObject({
      run: null,
      lastRun: { problem: 'The sheet of this schedule was deleted.' },
    });
  });

  it("keeps any number of schedules within 9 KB a property value, and a run's skip list within 4,000 characters", () => {
    const world = deps([chunk({ remaining: 5, retryLater: Array.from({ length: 300 }, (_, i) => `slow-${i}.com`) })]);
    const many = Array.from({ length: 40 }, (_, i) =>
      schedule({ sheetId: i, nextRunAt: i === 0 ? NOW - HOUR : NOW + DAY }),
    );
    writeSchedules(world.store, many);
    world.setLeft(10);
    runSchedules(world.run, 4 * 60_000);
    const stored = readSchedules(world.store);
    expect(stored).toHaveLength(40);
    const skip = stored[0].run?.skip ?? [];
    expect(skip.join(', ').length).toBeLessThanOrEqual(4000);
    expect(skip[skip.length - 1]).toBe('slow-299.com');
    writeSchedules(world.store, []);
    expect(readSchedules(world.store)).toEqual([]);
  });

  it('is pending while a schedule exists, and idle without one', () => {
    const world = deps([]);
    expect(runSchedules(world.run, 60_000)).toEqual({ pending: false });
    writeSchedules(world.store, [schedule({ nextRunAt: NOW + DAY })]);
    expect(runSchedules(world.run, 60_000)).toEqual({ pending: true, wakeAt: NOW + DAY });
    expect(world.calls).toHaveLength(0);
  });

  it('runs after the chosen hour when one is chosen', () => {
    expect(new Date(nextRun({ cadence: 'weekly', weekday: 1, hour: 17 }, NOW, utc)).toISOString()).toBe(
      '2026-11-30T17:00:00.000Z',
    );
    expect(new Date(nextRun({ cadence: 'weekly', weekday: 3, hour: 15 }, NOW, utc)).toISOString()).toBe(
      '2026-11-25T15:00:00.000Z',
    );
  });

  it('keeps its place while the service cannot be reached, says since when, and finishes once it answers', () => {
    const world = deps([
      chunk({ checked: 4, unreachable: 6, remaining: 6, retryLater: [] }),
      chunk({ checked: 0, unreachable: 10, remaining: 6 }),
      chunk({ checked: 6, remaining: 0 }),
    ]);
    writeSchedules(world.store, [schedule()]);
    // The first tick: four domains answered, then the service stopped answering; the run waits, due now.
    expect(runSchedules(world.run, 4 * 60_000)).toEqual({ pending: true });
    expect(world.calls).toHaveLength(1);
    const waiting = readSchedules(world.store)[0];
    expect(waiting.lastRun).toBeNull();
    expect(waiting.run).toMatchObject({ checked: 4, skip: [], unreachableSince: NOW + 20_000 });
    // The next tick still finds it down: the time it first failed is kept.
    runSchedules(world.run, 4 * 60_000);
    expect(readSchedules(world.store)[0].run).toMatchObject({ checked: 4, unreachableSince: NOW + 20_000 });
    // Then it answers: the run finishes with everything it checked, no problem, and its next time.
    runSchedules(world.run, 4 * 60_000);
    const done = readSchedules(world.store)[0];
    expect(done.run).toBeNull();
    expect(done.lastRun).toMatchObject({ checked: 10, problem: null });
    expect(done.nextRunAt).toBeGreaterThan(NOW);
  });
});
