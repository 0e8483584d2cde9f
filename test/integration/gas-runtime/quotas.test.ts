// Per-user daily quotas with consumer or Workspace figures (the `quotas` option; explicit `limits` win): Properties
// reads and writes, total trigger runtime, and at most 30 simultaneous executions per user. (UrlFetch calls: see
// url-fetch.test.ts.)
import { createManualClock, DAILY_QUOTAS, GasRuntime, ManualClock } from '../../../dev/gas-runtime';
import { failureOf, fixtureRuntime } from './helpers';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const PROPERTIES_QUOTA = 'Service invoked too many times for one day: properties.';
const COMPUTER_TIME = 'Service using too much computer time for one day';
const TOO_MANY_RUNNING = 'There are too many scripts running simultaneously for this Google user account.';

let clock: ManualClock;
let rt: GasRuntime;
beforeEach(() => {
  clock = createManualClock(Date.UTC(2025, 0, 6, 12, 0, 0));
  rt = fixtureRuntime('services', { clock, users: [OWNER, EDITOR] });
});

test('figures: consumer by default, Workspace on request, explicit limits win', () => {
  expect(rt.limits).toMatchObject({ ...DAILY_QUOTAS.consumer, simultaneousExecutionsPerUser: 30 });
  expect(DAILY_QUOTAS.consumer).toEqual({
    urlFetchPerDay: 20_000,
    triggerRuntimePerDayMs: 90 * MINUTE,
    propertyOpsPerDay: 50_000,
  });
  const workspace = fixtureRuntime('services', { clock, quotas: 'workspace' });
  expect(workspace.limits).toMatchObject({
    urlFetchPerDay: 100_000,
    triggerRuntimePerDayMs: 6 * 60 * MINUTE,
    propertyOpsPerDay: 500_000,
  });
  expect(workspace.project.quotaLevel).toBe('workspace');
  expect(
    fixtureRuntime('services', { clock, quotas: 'workspace', limits: { urlFetchPerDay: 7 } }).limits.urlFetchPerDay,
  ).toBe(7);
});

describe('Properties reads and writes per user per day', () => {
  test('each Properties call counts one; the 50,001st of a consumer user throws; other users and the next day are free', () => {
    // 30 ms a read (costs.ts): 5,000 reads fit one execution's 6 minutes, 49,999 do not.
    for (let i = 0; i < 9; i++) rt.run('propertyReads', [5_000]);
    rt.run('propertyReads', [4_999]);
    rt.run('setProp', ['user', 'k', 'v']);
    expect(rt.quotaUsage()).toEqual({ urlFetch: 0, triggerRuntimeMs: 0, propertyOps: 50_000 });
    expect(failureOf(() => rt.run('setProp', ['script', 'k', 'v']))).toBe(PROPERTIES_QUOTA);
    expect(rt.properties.script.get('k')).toBeNull();
    expect(rt.quotaUsage().propertyOps).toBe(50_000);
    rt.run('setProp', ['script', 'k', 'v'], { user: EDITOR });
    expect(rt.quotaUsage(EDITOR).propertyOps).toBe(1);
    clock.advance(DAY);
    rt.run('setProp', ['script', 'k', 'v']);
    expect(rt.quotaUsage().propertyOps).toBe(1);
  });

  test('getProperties, setProperties, getKeys and deletes count one call each, whatever their size', () => {
    const small = fixtureRuntime('services', { clock, limits: { propertyOpsPerDay: 10 } });
    small.run('propsRoundTrip'); // setProperty x2, getProperties, setProperties, getKeys x2, getProperty x3, setProperties
    expect(small.quotaUsage().propertyOps).toBe(10);
    expect(failureOf(() => small.run('propertyReads', [1]))).toBe(PROPERTIES_QUOTA);
  });
});

describe('total trigger runtime per user per day', () => {
  test('trigger executions add their time; once 90 minutes are used a trigger fails; other kinds do not count', () => {
    const firstRun = clock.now();
    let charged = 0;
    for (let i = 0; i < 18; i++) {
      rt.run('sleepFor', [5 * MINUTE], { kind: 'trigger' });
      charged += rt.counters.modelled.lastExecutionMs;
    }
    rt.run('sleepFor', [5 * MINUTE], { kind: 'menu' });
    // Each counts its sleep and its own modelled time (starting, the calls: costs.ts).
    expect(charged).toBeGreaterThan(90 * MINUTE);
    expect(rt.quotaUsage().triggerRuntimeMs).toBe(charged);
    expect(failureOf(() => rt.run('sleepFor', [1], { kind: 'trigger' }))).toBe(COMPUTER_TIME);
    rt.run('everyMinutes', ['poll', 1]);
    clock.advance(MINUTE);
    expect(rt.triggers.fireDue().map((r) => r.error)).toEqual([COMPUTER_TIME]);
    rt.run('sleepFor', [1], { kind: 'trigger', user: EDITOR });
    // The window started with the first trigger run; 24 hours after it the day's time is free again.
    clock.set(firstRun + DAY - 1);
    expect(failureOf(() => rt.run('sleepFor', [1], { kind: 'trigger' }))).toBe(COMPUTER_TIME);
    clock.set(firstRun + DAY);
    rt.run('sleepFor', [MINUTE], { kind: 'trigger' });
    expect(rt.quotaUsage().triggerRuntimeMs).toBe(rt.counters.modelled.lastExecutionMs);
  });

  test('the execution that passes the total still finishes; the next one fails', () => {
    const small = fixtureRuntime('services', { clock, limits: { triggerRuntimePerDayMs: 10 * MINUTE } });
    let charged = 0;
    small.run('sleepFor', [4 * MINUTE], { kind: 'trigger' });
    charged += small.counters.modelled.lastExecutionMs;
    expect(small.run('sleepFor', [5 * MINUTE], { kind: 'trigger' })).toBeGreaterThanOrEqual(5 * MINUTE);
    charged += small.counters.modelled.lastExecutionMs;
    expect(charged).toBeGreaterThan(9 * MINUTE);
    small.run('sleepFor', [2 * MINUTE], { kind: 'trigger' });
    charged += small.counters.modelled.lastExecutionMs;
    expect(small.quotaUsage().triggerRuntimeMs).toBe(charged);
    expect(failureOf(() => small.run('sleepFor', [1], { kind: 'trigger' }))).toBe(COMPUTER_TIME);
  });
});

describe('simultaneous executions per user', () => {
  /** Starts executions of `user` nested inside each other's first service call until one fails; returns how many ran. */
  function nestUntilFailure(runtime: GasRuntime, user: string, cap = 40): { depth: number; error?: string } {
    let deepest = 0;
    let error: string | undefined;
    const start = (depth: number): void => {
      let started = false;
      runtime.run('cacheGet', ['k'], {
        user,
        onServiceCall: () => {
          if (started || depth >= cap) return;
          started = true;
          deepest = depth;
          try {
            start(depth + 1);
          } catch (e) {
            error ??= (e as Error).message;
          }
        },
      });
    };
    start(1);
    return { depth: deepest, error };
  }

  test("30 executions of one user can run at once; the 31st fails with Google's message", () => {
    expect(nestUntilFailure(rt, OWNER)).toEqual({ depth: 30, error: TOO_MANY_RUNNING });
  });

  test('another user has their own 30, and finished executions free their place', () => {
    let inner: { depth: number; error?: string } | undefined;
    rt.run('cacheGet', ['k'], { onServiceCall: () => void (inner ??= nestUntilFailure(rt, EDITOR)) });
    expect(inner).toEqual({ depth: 30, error: TOO_MANY_RUNNING });
    expect(nestUntilFailure(rt, OWNER)).toEqual({ depth: 30, error: TOO_MANY_RUNNING });
    expect(rt.run('cacheGet', ['k'])).toBeNull();
  });
});
