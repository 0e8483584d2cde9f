// The timers' share of the user's daily trigger runtime (src/scheduler/runtime-budget.ts): what a run may spend, what
// it records, when a spent share frees up again, and the panels' words.
import {
  recordTimerRuntime,
  TIMER_START_MS,
  TIMER_RUNTIME_KEY,
  TIMER_RUNTIME_SHARES,
  timerRuntimeBudget,
  timerRuntimeMessage,
} from '../../../src/scheduler/runtime-budget';
import { MIN_SLICE_MS, TIMER_BUDGET_MS } from '../../../src/scheduler/timer';
import { MemoryLock, MemoryStore } from '../../fakes/ports';

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 25, 12, 30);
const hourOf = (ms: number) => String(Math.floor(ms / HOUR));
const SHARE = TIMER_RUNTIME_SHARES.consumer.shareMs;

describe('timer runtime budget', () => {
  it('gives a full run while the share has room, and what is left near its end', () => {
    const user = new MemoryStore();
    expect(timerRuntimeBudget(user, NOW, 'consumer')).toEqual({
      budgetMs: TIMER_BUDGET_MS,
      usedMs: 0,
      resumesAt: null,
    });
    user.set(TIMER_RUNTIME_KEY, JSON.stringify({ [hourOf(NOW - HOUR)]: SHARE - 60_000 }));
    expect(timerRuntimeBudget(user, NOW, 'consumer').budgetMs).toBe(60_000 - TIMER_START_MS - 9_000);
  });

  it('gives nothing below a slice, and says when the oldest hours free one', () => {
    const user = new MemoryStore();
    const early = NOW - 10 * HOUR;
    user.set(TIMER_RUNTIME_KEY, JSON.stringify({ [hourOf(early)]: SHARE / 2, [hourOf(NOW)]: SHARE / 2 }));
    const budget = timerRuntimeBudget(user, NOW, 'consumer');
    expect(budget.budgetMs).toBe(0);
    // The early hour leaves the 25-hour window first, and frees half the share.
    expect(budget.resumesAt).toBe((Number(hourOf(early)) + 25) * HOUR);
    expect(timerRuntimeMessage(budget, NOW)).toBe(
      "Sheet Scout's share of Google's daily time for timers is used up: with every panel closed, it resumes in about 15 h.",
    );
  });

  it('Workspace accounts get a larger share', () => {
    const user = new MemoryStore();
    user.set(TIMER_RUNTIME_KEY, JSON.stringify({ [hourOf(NOW)]: SHARE }));
    expect(timerRuntimeBudget(user, NOW, 'consumer').budgetMs).toBe(0);
    expect(timerRuntimeBudget(user, NOW, 'workspace').budgetMs).toBe(TIMER_BUDGET_MS);
  });

  it('records a run with its overhead in the hour it ends, and a short run leaves a slice', () => {
    const user = new MemoryStore();
    recordTimerRuntime(user, new MemoryLock(), NOW, NOW + 30_000);
    expect(JSON.parse(user.get(TIMER_RUNTIME_KEY) ?? '')).toEqual({ [hourOf(NOW)]: 30_000 + TIMER_START_MS });
    expect(timerRuntimeBudget(user, NOW + HOUR, 'consumer').budgetMs).toBeGreaterThanOrEqual(MIN_SLICE_MS);
    expect(timerRuntimeMessage(timerRuntimeBudget(user, NOW + HOUR, 'consumer'), NOW + HOUR)).toBeNull();
  });

  it("books on the record as stored now, under the user's lock: another timer's booking made meanwhile is kept", () => {
    const stored = new MemoryStore();
    const lock = new MemoryLock();
    // This execution read the user's properties at its start (no booking yet) and answers `get` from that read.
    const atStart = new Map(stored.data);
    const execution = Object.assign(Object.create(stored) as MemoryStore, {
      get: (key: string) => atStart.get(key) ?? null,
      fresh: (key: string) => stored.data.get(key) ?? null,
    });
    // Meanwhile another spreadsheet's timer booked 5 s.
    stored.set(TIMER_RUNTIME_KEY, JSON.stringify({ [hourOf(NOW)]: 5_000 }));
    recordTimerRuntime(execution, lock, NOW, NOW + 1_000);
    expect(JSON.parse(stored.get(TIMER_RUNTIME_KEY) ?? '')).toEqual({ [hourOf(NOW)]: 5_000 + 1_000 + TIMER_START_MS });
    expect(lock.held).toBe(false);
  });

  it('a tick with nothing due is booked at its start, not at a flat ten seconds', () => {
    expect(TIMER_START_MS).toBeLessThanOrEqual(1_000);
  });
});
