import type { HttpOutcome, HttpPort, HttpRequest } from '../../../src/ports';
import { ManualClock, MemoryStore } from '../../fakes/ports';
import {
  addUsage,
  budgetStatus,
  nextRelease,
  parseUsage,
  REQUEST_BUDGET_KEYS,
  RequestCounter,
  usedInWindow,
  withRequestBudget,
} from '../../../src/platform/request-budget';
import { execute, DEFAULT_RETRY_POLICY } from '../../../src/api/executor';
import { userMessage } from '../../../src/api/errors';

const HOUR = 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1, 9, 30);

class CountingHttp implements HttpPort {
  sent = 0;
  batches = 0;
  fetchAll(requests: HttpRequest[]): HttpOutcome[] {
    this.batches += 1;
    this.sent += requests.length;
    return requests.map(() => ({ ok: true, status: 200, headers: {}, body: '{}' }));
  }
}

const request: HttpRequest = { url: 'https://api.example/v1/user', method: 'get', headers: {} };

/** A request counter over an empty store at T0, and an HTTP port it counts. */
function budgetedHttp() {
  const store = new MemoryStore();
  const counter = new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, new ManualClock(T0));
  return { store, counter, http: withRequestBudget(new CountingHttp(), counter) };
}

describe('hourly usage window', () => {
  it('counts the current hour and the 24 before it, and drops older hours when adding', () => {
    let usage = addUsage({}, T0, 100);
    usage = addUsage(usage, T0 + 10 * HOUR, 50);
    expect(usedInWindow(usage, T0 + 10 * HOUR)).toBe(150);
    expect(usedInWindow(usage, T0 + 24 * HOUR)).toBe(150);
    // 09:30 day 1 is in the 09:00 bucket, which leaves the window at 10:00 on day 2.
    expect(usedInWindow(usage, T0 + 24.5 * HOUR)).toBe(50);
    expect(nextRelease(usage, T0 + 12 * HOUR)).toBe(Date.UTC(2026, 0, 2, 10));
    usage = addUsage(usage, T0 + 30 * HOUR, 1);
    expect(Object.keys(usage)).toHaveLength(2);
  });

  it('reads a damaged value as no usage', () => {
    expect(parseUsage('not json')).toEqual({});
    expect(parseUsage('[1,2]')).toEqual({});
    expect(parseUsage('{"5":3,"x":4,"6":"7"}')).toEqual({ 5: 3 });
  });

  it('warns from 90 % and says what to do when spent', () => {
    expect(budgetStatus('consumer', 16_199).message).toBeNull();
    expect(budgetStatus('consumer', 16_200).message).toBe(
      'Sheet Scout has used 16,200 of its 18,000 requests for today: when they are spent, research and enrichment wait until tomorrow ' +
        '(or raise the limit in Settings if you use Google Workspace)',
    );
    expect(budgetStatus('consumer', 18_000)).toMatchObject({
      spent: true,
      limit: 18_000,
      message:
        "Sheet Scout has used its 18,000 requests for today (Google's daily limit is 20,000 per user): it continues tomorrow, " +
        'or raise the limit in Settings if you use Google Workspace',
    });
    expect(budgetStatus('workspace', 18_000)).toMatchObject({
      spent: false,
      limit: 95_000,
      googleLimit: 100_000,
      message: null,
    });
  });
});

describe('RequestCounter and withRequestBudget', () => {
  it('counts every request of a fetchAll with one read and one write per batch', () => {
    const clock = new ManualClock(T0);
    const store = new MemoryStore();
    const counter = new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, clock);
    const inner = new CountingHttp();
    const http = withRequestBudget(inner, counter);
    http.fetchAll(Array.from({ length: 50 }, () => request));
    http.fetchAll([request]);
    expect(counter.status().used).toBe(51);
    expect(store.writes).toBe(2);
    expect(store.reads).toBe(2 + 1 + 1); // two usage reads, the account kind once, the status read
  });

  it("counts a job's rounds ahead in one write, sends them without store calls, and gives back what was not sent", () => {
    const { store, counter, http } = budgetedHttp();
    counter.reserveAhead(300);
    expect(counter.status().used).toBe(300);
    const writes = store.writes;
    for (let round = 0; round < 4; round++) http.fetchAll(Array.from({ length: 50 }, () => request));
    expect(store.writes).toBe(writes);
    expect(counter.sentHere()).toBe(200);
    counter.releaseAhead();
    expect(counter.status().used).toBe(200);
    // Past what was counted ahead, each batch is counted in the store again.
    counter.reserveAhead(10);
    http.fetchAll(Array.from({ length: 25 }, () => request));
    counter.releaseAhead();
    expect(counter.status().used).toBe(225);
    expect(counter.sentHere()).toBe(225);
  });

  it('tops a reservation up in one write once less than a round is left of it, not before', () => {
    const { store, counter, http } = budgetedHttp();
    counter.reserveAhead(300);
    http.fetchAll(Array.from({ length: 150 }, () => request));
    const writes = store.writes;
    counter.reserveAhead(400);
    expect(store.writes).toBe(writes);
    http.fetchAll(Array.from({ length: 100 }, () => request));
    // 50 left: topped up to the 120 still ahead, once.
    counter.reserveAhead(120);
    expect(store.writes).toBe(writes + 1);
    http.fetchAll(Array.from({ length: 120 }, () => request));
    expect(store.writes).toBe(writes + 1);
    expect(counter.status().used).toBe(370);
  });

  it('counts ahead no more than the budget leaves', () => {
    const clock = new ManualClock(T0);
    const store = new MemoryStore();
    store.set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, T0, 17_900)));
    const counter = new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, clock);
    counter.reserveAhead(500);
    expect(counter.status().used).toBe(18_000);
    const inner = new CountingHttp();
    const answers = withRequestBudget(inner, counter).fetchAll(Array.from({ length: 150 }, () => request));
    expect(inner.sent).toBe(100);
    expect(answers.filter((answer) => !answer.ok)).toHaveLength(50);
  });

  it('sends what fits, refuses the rest before sending, and resumes when the hours leave the window', () => {
    const clock = new ManualClock(T0);
    const store = new MemoryStore();
    store.set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, T0, 17_990)));
    const inner = new CountingHttp();
    const http = withRequestBudget(inner, new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, clock));
    const outcomes = http.fetchAll(Array.from({ length: 25 }, () => request));
    expect(inner.sent).toBe(10);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    expect(outcomes[24]).toMatchObject({ ok: false, fatal: true, budgetSpent: true, maybeSent: false });
    expect(http.fetchAll([request])[0].ok).toBe(false);
    expect(inner.batches).toBe(1);
    clock.time = T0 + 25 * HOUR;
    expect(http.fetchAll([request])[0].ok).toBe(true);
  });

  it('uses the Workspace budget when the user chose it', () => {
    const clock = new ManualClock(T0);
    const store = new MemoryStore();
    store.set(REQUEST_BUDGET_KEYS.account, 'workspace');
    store.set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, T0, 18_000)));
    const inner = new CountingHttp();
    withRequestBudget(inner, new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, clock)).fetchAll([request]);
    expect(inner.sent).toBe(1);
  });

  it('still sends when the counter cannot be written', () => {
    const clock = new ManualClock(T0);
    const store = new MemoryStore();
    store.failWrites = true;
    const inner = new CountingHttp();
    const outcomes = withRequestBudget(
      inner,
      new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, clock),
    ).fetchAll([request]);
    expect(outcomes[0].ok).toBe(true);
  });

  it('becomes a quota error whose message is the budget message, and nothing more is sent', () => {
    const clock = new ManualClock(T0);
    const store = new MemoryStore();
    store.set(REQUEST_BUDGET_KEYS.usage, JSON.stringify(addUsage({}, T0, 18_000)));
    const inner = new CountingHttp();
    const http = withRequestBudget(inner, new RequestCounter(store, REQUEST_BUDGET_KEYS.usage, store, clock));
    const calls = Array.from({ length: 3 }, () => ({
      request,
      idempotent: true,
      read: () => ({ ok: true as const, value: 1 }),
    }));
    const results = execute(
      { http, clock: clock, random: () => 0, policy: DEFAULT_RETRY_POLICY, maxParallel: 1 },
      calls,
    );
    expect(inner.sent).toBe(0);
    for (const result of results) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(userMessage(result.error)).toMatch(/^Sheet Scout has used its 18,000 requests for today/);
    }
  });
});
