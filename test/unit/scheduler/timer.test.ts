// The shared timer: one per document, shared between users, marked pending/idle per feature, and the dispatcher.
import {
  ensureTimer,
  idleTick,
  isPending,
  wakeTimerAt,
  MIN_SLICE_MS,
  recordTick,
  removeTimerIfIdle,
  reserveTimer,
  STALE_AFTER_MS,
  TIMER_HANDLER,
  TIMER_RECORD_KEY,
  type TimerDeps,
  type TimerTriggerPort,
} from '../../../src/scheduler/timer';
import { runTimer } from '../../../src/scheduler/timer-run';
import { TimerUnavailable } from '../../../src/scheduler/timer-unavailable';
import { ManualClock, MemoryLock, MemoryStore } from '../../fakes/ports';
import { readHolders } from '../../../src/scheduler/timer-registry';
import { TIMER_FEATURES } from '../../../src/scheduler/features';

const TICK_HANDLER = TIMER_HANDLER;
const ensurePollTrigger = (deps: TimerDeps) => ensureTimer(deps, 'research');
const removePollTrigger = (deps: TimerDeps) => removeTimerIfIdle(deps, 'research');
type TriggerDeps = TimerDeps;
/** Whether any feature has pending work in the document. */
const hasPendingWork = (deps: TimerDeps) => TIMER_FEATURES.some((feature) => isPending(deps, feature));
type TriggerPort = TimerTriggerPort;

const HERE = () => ({ id: 'sheet-1', name: 'Accounts', url: 'https://docs.google.com/spreadsheets/d/sheet-1/edit' });

/** A timer's deps over in-memory ports: a new user store each time unless given. */
function timerDeps(
  triggers: TriggerPort,
  document: MemoryStore,
  clock: ManualClock,
  cadence: TimerDeps['cadence'],
  user = new MemoryStore(),
): TimerDeps {
  return { triggers, document, user, userLock: new MemoryLock(), spreadsheet: HERE, clock, cadence };
}

class Triggers implements TriggerPort {
  all: Array<{ id: string; handler: string; owner: string }> = [];
  constructor(public user: string) {}
  list(handler: string): string[] {
    return this.all.filter((t) => t.handler === handler && t.owner === this.user).map((t) => t.id);
  }
  create(handler: string): string {
    const id = `t${this.all.length + 1}`;
    this.all.push({ id, handler, owner: this.user });
    return id;
  }
  remove(id: string): void {
    this.all = this.all.filter((t) => t.id !== id);
  }
  allIds(): string[] {
    return this.all.filter((t) => t.owner === this.user).map((t) => t.id);
  }
}

describe('shared timer (one feature)', () => {
  const clock = new ManualClock();
  const document = new MemoryStore();
  const triggers = new Triggers('a@example.com');
  const deps = (user: string): TriggerDeps => {
    triggers.user = user;
    return timerDeps(triggers, document, clock, 'hourly');
  };

  it('is created once and never duplicated', () => {
    expect(ensurePollTrigger(deps('a@example.com'))).toBe('created');
    expect(ensurePollTrigger(deps('a@example.com'))).toBe('exists');
    expect(triggers.all.filter((t) => t.handler === TICK_HANDLER)).toHaveLength(1);
  });

  it("another user relies on the first user's trigger until its polls go stale", () => {
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('other_user');
    clock.sleep(STALE_AFTER_MS - 1000);
    recordTick(deps('a@example.com'));
    clock.sleep(STALE_AFTER_MS - 1000);
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('other_user');
    clock.sleep(2000);
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('created');
  });

  it('removes extras and is removed when nothing is pending', () => {
    triggers.all.push({ id: 'dup', handler: TICK_HANDLER, owner: 'b@example.com' });
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('exists');
    expect(triggers.list(TICK_HANDLER)).toHaveLength(1);
    expect(removePollTrigger(deps('b@example.com'))).toBe(1);
    expect(document.get(TIMER_RECORD_KEY)).toBeNull();
  });
});

describe('shared timer (two features)', () => {
  const setup = () => {
    const clock = new ManualClock();
    const document = new MemoryStore();
    const triggers = new Triggers('a@example.com');
    const deps: TimerDeps = timerDeps(triggers, document, clock, 'minute');
    return { clock, document, triggers, deps };
  };

  it('one timer serves both features and stays until both are idle', () => {
    const { triggers, deps } = setup();
    expect(ensureTimer(deps, 'research')).toBe('created');
    expect(ensureTimer(deps, 'enrichment')).toBe('exists');
    expect(triggers.all).toHaveLength(1);
    expect(removeTimerIfIdle(deps, 'research')).toBe(0);
    expect(triggers.all).toHaveLength(1);
    expect(removeTimerIfIdle(deps, 'enrichment')).toBe(1);
    expect(triggers.all).toHaveLength(0);
  });

  it("a feature that must run as the current user gets its own timer despite another user's", () => {
    const { triggers, deps } = setup();
    ensureTimer(deps, 'research');
    triggers.user = 'b@example.com';
    const b = { ...deps, user: new MemoryStore() };
    expect(ensureTimer(b, 'research')).toBe('other_user');
    expect(ensureTimer(b, 'enrichment', { ownTimer: true })).toBe('created');
    expect(triggers.all.map((t) => t.owner)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('runTimer runs each feature in its share of the budget and removes the timer once none is pending', () => {
    const { clock, triggers, deps } = setup();
    ensureTimer(deps, 'research');
    ensureTimer(deps, 'enrichment');
    const budgets: Array<[string, number]> = [];
    let researchLeft = 2;
    let enrichmentLeft = 1;
    const tasks = [
      {
        feature: 'research' as const,
        runSlice: (budgetMs: number) => {
          budgets.push(['research', budgetMs]);
          clock.sleep(30_000);
          return { pending: --researchLeft > 0 };
        },
      },
      {
        feature: 'enrichment' as const,
        runSlice: (budgetMs: number) => {
          budgets.push(['enrichment', budgetMs]);
          return { pending: --enrichmentLeft > 0 };
        },
      },
    ];
    expect(runTimer(deps, tasks, 200_000)).toEqual({
      ran: [
        { feature: 'research', pending: true },
        { feature: 'enrichment', pending: false },
      ],
      stopped: [],
      removed: false,
    });
    expect(budgets).toEqual([
      ['research', 100_000],
      ['enrichment', 170_000],
    ]);
    expect(triggers.all).toHaveLength(1);
    expect(runTimer(deps, tasks, 200_000).removed).toBe(true);
    expect(triggers.all).toHaveLength(0);
  });

  it('shares the budget among the features with pending work; an idle one takes a share only while it runs', () => {
    const { deps } = setup();
    ensureTimer(deps, 'watch');
    const budgets: Array<[string, number]> = [];
    const task = (feature: 'research' | 'enrichment' | 'refresh' | 'watch', pending: boolean) => ({
      feature,
      runSlice: (budgetMs: number) => (budgets.push([feature, budgetMs]), { pending }),
    });
    runTimer(
      deps,
      [task('research', false), task('enrichment', false), task('watch', true), task('refresh', false)],
      40_000,
    );
    // Three idle features before the pending one would leave it 10 s of 40 s if all four shared equally.
    expect(budgets).toEqual([
      ['research', 20_000],
      ['enrichment', 20_000],
      ['watch', 40_000],
      ['refresh', 40_000],
    ]);
  });

  it('a feature left without enough budget waits for the next tick and keeps its pending state', () => {
    const { clock, triggers, deps } = setup();
    ensureTimer(deps, 'enrichment');
    const slow = { feature: 'research' as const, runSlice: () => (clock.sleep(60_000), { pending: false }) };
    const starved = { feature: 'enrichment' as const, runSlice: () => ({ pending: false }) };
    const run = runTimer(deps, [slow, starved], 60_000 + MIN_SLICE_MS - 1);
    expect(run).toEqual({
      ran: [
        { feature: 'research', pending: false },
        { feature: 'enrichment', pending: true },
      ],
      stopped: [],
      removed: false,
    });
    expect(triggers.all).toHaveLength(1);
  });
});

describe("work only other users' timers can do (another account's research tasks)", () => {
  const setup = () => {
    const clock = new ManualClock();
    const document = new MemoryStore();
    const a = timerDeps(new Triggers('a@example.com'), document, clock, 'hourly');
    const b = timerDeps(new Triggers('b@example.com'), document, clock, 'hourly');
    ensureTimer(a, 'research');
    // B launched tasks A's account may not read: B's own timer collects them.
    ensureTimer(b, 'research', { ownTimer: true });
    return { a, b };
  };

  it("keeps the feature pending for the other users' timers, and does not keep this user's", () => {
    const { a, b } = setup();
    expect(removeTimerIfIdle(a, 'research', { leftToOthers: true })).toBe(1);
    expect(a.triggers.list(TICK_HANDLER, null)).toEqual([]);
    expect(hasPendingWork(b)).toBe(true);
    expect(b.triggers.list(TICK_HANDLER, null)).toHaveLength(1);
    // B's tick: its tasks are written, nothing is left: the feature and B's timer go.
    expect(removeTimerIfIdle(b, 'research')).toBe(1);
    expect(hasPendingWork(b)).toBe(false);
  });

  it("runTimer: a slice that leaves its work to others removes this user's timer, not the feature's mark", () => {
    const { a, b } = setup();
    const run = runTimer(a, [{ feature: 'research', runSlice: () => ({ pending: false, leftToOthers: true }) }]);
    expect(run).toMatchObject({ removed: true });
    expect(hasPendingWork(b)).toBe(true);
    // Nothing left for anyone: the mark goes too.
    expect(runTimer(b, [{ feature: 'research', runSlice: () => ({ pending: false }) }])).toMatchObject({
      removed: true,
    });
    expect(hasPendingWork(b)).toBe(false);
  });
});

describe('a timer that never runs', () => {
  it('is told apart from one that runs: two periods and ten minutes after it was made or last ran', () => {
    const clock = new ManualClock();
    const document = new MemoryStore();
    const triggers = new Triggers('a@example.com');
    const deps: TimerDeps = timerDeps(triggers, document, clock, 'hourly');
    expect(reserveTimer(deps, 'research')).toBeNull();
    clock.advance(2 * 60 * 60_000 + 10 * 60_000);
    expect(reserveTimer(deps, 'research')).toBeNull();
    clock.advance(60_000);
    const problem = reserveTimer(deps, 'research');
    expect(problem).toMatchObject({ blocksSpending: false, closedPanelsOnly: false });
    // Both causes Google has: a test deployment, or the account's daily trigger time spent (by any script).
    expect(problem?.message).toMatch(
      /^Sheet Scout's timer has not run for 2 h\. Google runs no timers for a test deployment/,
    );
    expect(problem?.message).toMatch(/daily time for timers is spent \(90 minutes, 6 hours on Google Workspace\)/);
    expect(problem?.message).toMatch(/your other scripts and add-ons use too/);
    runTimer(deps, []);
    expect(reserveTimer(deps, 'research')).toBeNull();
  });
});

describe('shared timer: work due later, idle ticks and the registry of spreadsheets holding timers', () => {
  const HOUR = 3_600_000;
  const setup = () => {
    const clock = new ManualClock();
    const document = new MemoryStore();
    const user = new MemoryStore();
    const triggers = new Triggers('a@example.com');
    const deps: TimerDeps = timerDeps(triggers, document, clock, 'hourly', user);
    return { clock, document, user, triggers, deps };
  };

  it('a feature whose work waits for a time is skipped until then, and a tick with nothing due is idle', () => {
    const { clock, triggers, deps } = setup();
    ensureTimer(deps, 'refresh');
    const id = triggers.all[0].id;
    let ran = 0;
    const refresh = {
      feature: 'refresh' as const,
      runSlice: () => (ran++, { pending: true, wakeAt: clock.now() + 5 * HOUR }),
    };
    runTimer(deps, [refresh]);
    expect(ran).toBe(1);
    // Nothing due: the recorded timer's tick is idle (another trigger's is not: it lists its triggers first).
    clock.advance(HOUR);
    expect(idleTick(deps, 'another-trigger')).toBe(false);
    expect(idleTick(deps, id)).toBe(true);
    runTimer(deps, [refresh]);
    expect(ran).toBe(1);
    // Due: the slice runs, and the tick is not idle.
    clock.advance(4 * HOUR);
    expect(idleTick(deps, id)).toBe(false);
    runTimer(deps, [refresh]);
    expect(ran).toBe(2);
    // Work marked due now (a launch, a resumed watch) is never idle.
    wakeTimerAt(deps, 'refresh', clock.now() + HOUR);
    expect(idleTick(deps, id)).toBe(true);
    ensureTimer(deps, 'research');
    expect(idleTick(deps, id)).toBe(false);
  });

  it("keeps the user's registry of spreadsheets holding timers: what keeps each and its next run", () => {
    const { clock, user, deps } = setup();
    ensureTimer(deps, 'refresh');
    wakeTimerAt(deps, 'refresh', clock.now() + 2 * HOUR);
    expect(readHolders(user)).toEqual([
      {
        ...HERE(),
        trigger: 't1',
        keeps: ['refresh'],
        nextRunAt: clock.now() + 2 * HOUR,
        wakes: { refresh: clock.now() + 2 * HOUR },
        cadence: 'hourly',
        // When it was made: its runs come whole hours after.
        madeAt: clock.now(),
      },
    ]);
    ensureTimer(deps, 'research');
    expect(readHolders(user)[0]).toMatchObject({ keeps: ['research', 'refresh'], nextRunAt: null });
    removeTimerIfIdle(deps, 'research');
    removeTimerIfIdle(deps, 'refresh');
    expect(readHolders(user)).toEqual([]);
  });

  it('Google allowing no more timers: the refusal names the spreadsheets holding them, those whose trigger exists', () => {
    const { user, deps } = setup();
    // The user's triggers of the whole project, each made from one spreadsheet (listed per spreadsheet).
    const all: Array<{ id: string; doc: string }> = [];
    let full = false;
    const inSpreadsheet = (doc: string): TriggerPort => ({
      list: () => all.filter((t) => t.doc === doc).map((t) => t.id),
      create: () => {
        if (full) throw new TimerUnavailable('limit', 'This script has too many triggers.');
        all.push({ id: `t${all.length + 1}`, doc });
        return `t${all.length}`;
      },
      remove: (id) =>
        all.splice(
          all.findIndex((t) => t.id === id),
          1,
        ),
      allIds: () => all.map((t) => t.id),
    });
    const spreadsheet = (i: number): TimerDeps => ({
      ...deps,
      triggers: inSpreadsheet(`s${i}`),
      document: new MemoryStore(),
      spreadsheet: () => ({ ...HERE(), id: `s${i}`, name: `List ${i}` }),
    });
    for (let i = 1; i <= 3; i++) ensureTimer(spreadsheet(i), 'refresh');
    expect(readHolders(user).map((holder) => holder.name)).toEqual(['List 1', 'List 2', 'List 3']);
    // One trigger deleted by the user (it holds nothing any more); Google allows no more.
    all.splice(1, 1);
    full = true;
    const refused = reserveTimer(spreadsheet(4), 'watch');
    expect(refused).toMatchObject({ blocksSpending: true, closedPanelsOnly: true });
    expect(refused?.message).toContain('They are in "List 1" (scheduled refresh), "List 3" (scheduled refresh).');
    expect(refused?.message).not.toContain('List 2');
  });
});
