// The shared timer: one per document, shared between users, marked pending/idle per feature, and the dispatcher.
import {
  ensureTimer,
  MIN_SLICE_MS,
  recordTick,
  removeTimerIfIdle,
  reserveTimer,
  runTimer,
  STALE_AFTER_MS,
  TIMER_HANDLER,
  TIMER_RECORD_KEY,
  type TimerDeps,
  type TimerTriggerPort,
} from '../../../src/scheduler/timer';
import { ManualClock, MemoryStore } from '../../fakes/ports';

const TICK_HANDLER = TIMER_HANDLER;
const ensurePollTrigger = (deps: TimerDeps) => ensureTimer(deps, 'research');
const removePollTrigger = (deps: TimerDeps) => removeTimerIfIdle(deps, 'research');
type TriggerDeps = TimerDeps;
type TriggerPort = TimerTriggerPort;

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
}

describe('shared timer (one feature)', () => {
  const clock = new ManualClock();
  const document = new MemoryStore();
  const triggers = new Triggers('a@example.com');
  const deps = (user: string): TriggerDeps => {
    triggers.user = user;
    return { triggers, document, user: new MemoryStore(), clock, cadence: 'hourly' };
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
    const deps: TimerDeps = { triggers, document, user: new MemoryStore(), clock, cadence: 'minute' };
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
      removed: false,
    });
    expect(triggers.all).toHaveLength(1);
  });
});

describe('a timer that never runs', () => {
  it('is told apart from one that runs: two periods and ten minutes after it was made or last ran', () => {
    const clock = new ManualClock();
    const document = new MemoryStore();
    const triggers = new Triggers('a@example.com');
    const deps: TimerDeps = { triggers, document, user: new MemoryStore(), clock, cadence: 'hourly' };
    expect(reserveTimer(deps, 'research')).toBeNull();
    clock.advance(2 * 60 * 60_000 + 10 * 60_000);
    expect(reserveTimer(deps, 'research')).toBeNull();
    clock.advance(60_000);
    expect(reserveTimer(deps, 'research')).toEqual({
      message: "Sheet Scout's timer has not run for 2 h (Google runs no timers for a test deployment of the add-on).",
      blocksSpending: false,
    });
    runTimer(deps, []);
    expect(reserveTimer(deps, 'research')).toBeNull();
  });
});
