// PropertiesService, CacheService, ScriptApp triggers, HtmlService, Session and Utilities.
import { createManualClock, GasRuntime, ManualClock } from '../../../dev/gas-runtime';
import { callCost } from '../../../dev/gas-runtime/costs';
import { failureOf, fixtureRuntime } from './helpers';

let clock: ManualClock;
let rt: GasRuntime;
beforeEach(() => {
  clock = createManualClock(Date.UTC(2025, 0, 6, 12, 0, 0));
  rt = fixtureRuntime('services', {
    clock,
    users: ['owner@example.com', 'editor@example.com'],
    timeZone: 'America/New_York',
  });
});

const MINUTE = 60_000;

describe('PropertiesService', () => {
  test('stores strings, returns copies, supports setProperties with deleteAllOthers', () => {
    expect(rt.run('propsRoundTrip')).toEqual({
      n: '42',
      type: 'string',
      keys: ['b', 'n', 'x'],
      after: ['only'],
      missing: null,
    });
  });

  test('script, document and per-user stores are separate', () => {
    rt.run('setProp', ['script', 'k', 's']);
    rt.run('setProp', ['document', 'k', 'd']);
    rt.run('setProp', ['user', 'k', 'owner'], { user: 'owner@example.com' });
    rt.run('setProp', ['user', 'k', 'editor'], { user: 'editor@example.com' });
    expect([
      rt.properties.script.get('k'),
      rt.properties.document.get('k'),
      rt.properties.user().get('k'),
      rt.properties.user('editor@example.com').get('k'),
    ]).toEqual(['s', 'd', 'owner', 'editor']);
  });

  // The measured limit (8,066 bytes), not the quota page's 9 KB: a 9,000-byte value is refused, in UTF-8 bytes.
  test("a value over 8,066 bytes and a store over 500 KB are refused with Google's messages", () => {
    for (const big of ['x'.repeat(8067), 'x'.repeat(9000), 'é'.repeat(4034)])
      expect(failureOf(() => rt.run('setProp', ['script', 'big', big]))).toBe('Argument too large: value');
    rt.run('setProp', ['script', 'ok', 'x'.repeat(8066)]);
    for (let i = 0; i < 63; i++) rt.run('setProp', ['document', `k${i}`, 'y'.repeat(8066)]);
    expect(failureOf(() => rt.run('setProp', ['document', 'k63', 'y'.repeat(8066)]))).toBe(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
    expect(rt.properties.document.keys()).toHaveLength(63);
    expect(rt.properties.document.size()).toBeLessThanOrEqual(500 * 1024);
  });
});

describe('CacheService', () => {
  test('entries expire after their TTL (default 600 s) on the runtime clock', () => {
    rt.run('cachePut', ['short', 'v', 30]);
    // Put during the execution: the clock has moved since by at most the execution's modelled time.
    const shortLeft = rt.cache.script.ttlMs('short')!;
    expect(shortLeft).toBeLessThanOrEqual(30_000);
    expect(shortLeft).toBeGreaterThan(30_000 - rt.counters.modelled.lastExecutionMs);
    rt.run('cachePut', ['default', 'v']);
    const defaultLeft = rt.cache.script.ttlMs('default')!;
    expect(defaultLeft).toBeGreaterThan(600_000 - rt.counters.modelled.lastExecutionMs);
    clock.advance(shortLeft - rt.counters.modelled.lastExecutionMs - 1000);
    expect(rt.run('cacheGet', ['short'])).toBe('v');
    clock.advance(2_000);
    expect(rt.run('cacheGet', ['short'])).toBeNull();
    clock.advance(rt.cache.script.ttlMs('default')! - 1);
    expect(rt.cache.script.get('default')).toBe('v');
    clock.advance(1);
    expect(rt.cache.script.get('default')).toBeNull();
    expect(rt.run('cacheGet', ['default'])).toBeNull();
  });

  test('TTL is capped at 6 hours', () => {
    rt.run('cachePut', ['long', 'v', 7 * 3600]);
    expect(rt.cache.script.ttlMs('long')).toBe(21_600_000);
    clock.advance(21_600_000);
    expect(rt.run('cacheGet', ['long'])).toBeNull();
  });

  test('values over 100 KB and keys over 250 characters are refused', () => {
    expect(failureOf(() => rt.run('cachePut', ['k', 'x'.repeat(100 * 1024 + 1)]))).toBe('Argument too large: value');
    expect(failureOf(() => rt.run('cachePut', ['k'.repeat(251), 'v']))).toBe('Argument too large: key');
    rt.run('cachePut', ['k'.repeat(250), 'v']);
    rt.run('cachePut', ['k', 'x'.repeat(100 * 1024)]);
    expect(rt.cache.script.get('k')).toHaveLength(100 * 1024);
  });

  test('putAll/getAll/removeAll work on one cache', () => {
    expect(rt.run('cacheBatch')).toEqual({ a: '1', c: '3' });
  });

  test('a cache holds 1,000 items; the write past that keeps the 900 furthest from expiry', () => {
    const cache = rt.cache.script;
    for (let i = 0; i < 1000; i++) cache.put(`k${i}`, 'v', i < 500 ? 21_600 : 60); // the older half lives longest
    expect(cache.keys()).toHaveLength(1000);
    cache.put('newest', 'v', 600);
    expect(cache.keys()).toHaveLength(900);
    // the 101 nearest to expiry were the 60-s items written first (k500..k600); the long-lived old items stay
    expect(cache.get('k500')).toBeNull();
    expect(cache.get('k600')).toBeNull();
    expect(cache.get('k601')).toBe('v');
    expect(cache.get('k0')).toBe('v');
    expect(cache.get('newest')).toBe('v');
  });

  test('a write into a full cache can evict the item it just wrote when that item expires first', () => {
    for (let i = 0; i < 1000; i++) rt.cache.script.put(`k${i}`, 'v', 3600);
    rt.run('cachePut', ['short', 'v', 10]);
    expect(rt.cache.script.keys()).toHaveLength(900);
    expect(rt.run('cacheGet', ['short'])).toBeNull();
  });

  test('expired items are dropped before live ones are evicted', () => {
    for (let i = 0; i < 1000; i++) rt.cache.script.put(`k${i}`, 'v', i < 10 ? 5 : 3600);
    clock.advance(6_000);
    rt.cache.script.put('new', 'v');
    expect(rt.cache.script.keys()).toHaveLength(991);
  });
});

describe('ScriptApp triggers', () => {
  test('everyMinutes accepts only 1, 5, 10, 15 or 30', () => {
    expect(failureOf(() => rt.run('everyMinutes', ['poll', 2]))).toBe(
      'The value you passed to everyMinutes was invalid. It must be one of 1, 5, 10, 15 or 30.',
    );
    expect(rt.triggers.list()).toEqual([]);
  });

  test('a time-driven trigger fires when due, as its owner, with a time event', () => {
    const before = clock.now();
    const id = rt.run('everyMinutes', ['poll', 5], { user: 'editor@example.com' });
    // Made during the execution, so due five minutes after a moment of it (the clock moved by its modelled time).
    const due = rt.triggers.nextDueAt()!;
    expect(due).toBeGreaterThan(before + 5 * MINUTE);
    expect(due).toBeLessThanOrEqual(clock.now() + 5 * MINUTE);
    clock.set(due - 1);
    expect(rt.triggers.fireDue()).toEqual([]);
    clock.advance(1);
    expect(rt.triggers.fireDue()).toEqual([{ handler: 'poll', triggerId: id, documentId: 'spreadsheet-1', ok: true }]);
    expect(rt.triggers.fireDue()).toEqual([]);
    expect(JSON.parse(rt.cache.script.get('lastEvent')!)).toEqual({
      authMode: 'FULL',
      uid: id,
      minute: 5,
      user: 'editor@example.com',
    });
    clock.advance(5 * MINUTE);
    rt.triggers.fireDue();
    expect(rt.cache.script.get('polls')).toBe('2');
    // The schedule keeps its cadence from when it was made.
    expect(rt.triggers.nextDueAt()).toBe(due + 10 * MINUTE);
  });

  test('after() fires once and stays listed until deleted', () => {
    rt.run('afterMs', ['poll', 1000]);
    clock.advance(1000);
    expect(rt.triggers.fireDue().map((r) => r.ok)).toEqual([true]);
    clock.advance(60 * MINUTE);
    expect(rt.triggers.fireDue()).toEqual([]);
    expect(rt.run('listTriggers')).toEqual([['poll', 'CLOCK']]);
    rt.run('deleteTriggersFor', ['poll']);
    expect(rt.triggers.list()).toEqual([]);
  });

  test('a daily trigger pinned to an hour first runs at that hour in the script time zone', () => {
    // the clock reads 07:00 in New York
    rt.run('dailyAt', ['poll', 9]);
    expect(new Date(rt.triggers.nextDueAt()!).toISOString()).toBe('2025-01-06T14:00:00.000Z');
    rt.run('deleteTriggersFor', ['poll']);
    rt.run('dailyAt', ['poll', 6]);
    expect(new Date(rt.triggers.nextDueAt()!).toISOString()).toBe('2025-01-07T11:00:00.000Z');
  });

  test('20 triggers per user; each user lists only their own', () => {
    for (let i = 0; i < 20; i++) rt.run('afterMs', ['poll', 1000]);
    expect(failureOf(() => rt.run('afterMs', ['poll', 1000]))).toBe(
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
    rt.run('afterMs', ['poll', 1000], { user: 'editor@example.com' });
    expect(rt.run<unknown[]>('listTriggers', [], { user: 'editor@example.com' })).toHaveLength(1);
  });

  test('spreadsheet triggers record their event type; failing handlers are reported', () => {
    expect(rt.run('onOpenTrigger', ['poll'])).toEqual(['ON_OPEN', 'SPREADSHEETS', 'poll']);
    rt.run('everyMinutes', ['failingHandler', 1]);
    clock.advance(MINUTE);
    expect(rt.triggers.fireDue()).toEqual([
      {
        handler: 'failingHandler',
        triggerId: expect.any(String),
        documentId: 'spreadsheet-1',
        ok: false,
        error: 'handler broke',
      },
    ]);
  });
});

describe('HtmlService', () => {
  test('serves HTML files to sidebars (always 300 px wide)', () => {
    rt.run('sidebar');
    expect(rt.ui.sidebars).toEqual([
      { title: 'Sheet Scout', html: expect.stringContaining('Sheet Scout sidebar'), file: 'Sidebar', width: 300 },
    ]);
  });

  test('templates evaluate scriptlets with escaping and can include other files', () => {
    const html = rt.run<string>('dialog');
    expect(html).toContain('<style>p { color: teal; }</style>');
    expect(html).toContain('Hello &lt;Ada&gt;');
    expect(html).toContain('<li>one</li><li>two</li>');
    expect(rt.ui.dialogs).toEqual([{ title: 'Report', html, file: 'Page', width: 400, height: 200, modal: true }]);
  });

  test("a missing file throws Google's message", () => {
    expect(failureOf(() => rt.run('missingFile'))).toBe('No HTML file named Nope was found.');
  });
});

test('Session reports identity by execution kind', () => {
  expect(rt.run('sessionInfo', [], { user: 'editor@example.com' })).toEqual([
    'editor@example.com',
    'editor@example.com',
    'America/New_York',
    'en',
  ]);
  expect(rt.run('sessionInfo', [], { kind: 'custom-function' })).toEqual(['', '', 'America/New_York', 'en']);
  expect(rt.run('sessionInfo', [], { kind: 'simple-trigger' })).toEqual([
    '',
    'owner@example.com',
    'America/New_York',
    'en',
  ]);
});

test('building code from strings (eval, new Function) is refused unless the behaviours option allows it', () => {
  expect(failureOf(() => rt.run('codeFromString'))).toBe('Code generation from strings disallowed for this context');
  const lenient = fixtureRuntime('services', { behaviours: { codeFromStrings: true } });
  expect(lenient.run('codeFromString')).toBe(42);
});

describe("the manifest's oauthScopes", () => {
  const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
  const SCRIPT_APP = 'https://www.googleapis.com/auth/script.scriptapp';
  const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';

  test("a call needing a scope the manifest does not list is refused with Google's message", () => {
    const listed = fixtureRuntime('services', { manifest: { oauthScopes: [CURRENT_ONLY] } });
    expect(failureOf(() => listed.run('sessionInfo'))).toBe(
      `You do not have permission to call Session.getActiveUser. Required permissions: ${EMAIL}`,
    );
    expect(failureOf(() => listed.run('everyMinutes', ['poll', 1]))).toBe(
      `You do not have permission to call ScriptApp.newTrigger. Required permissions: ${SCRIPT_APP}`,
    );
    // Calls that need no scope, and custom functions (which run without authorization), are not refused.
    expect(listed.run('temporaryKey')).toEqual(expect.any(String));
    expect(listed.run('sessionInfo', [], { kind: 'custom-function' })).toEqual(['', '', 'America/New_York', 'en']);
  });

  test('listing the scope allows the call; a manifest without oauthScopes allows every call', () => {
    const listed = fixtureRuntime('services', { manifest: { oauthScopes: [CURRENT_ONLY, EMAIL, SCRIPT_APP] } });
    expect(listed.run<string[]>('sessionInfo')[0]).toBe('owner@example.com');
    expect(listed.run('everyMinutes', ['poll', 1])).toEqual(expect.any(String));
    expect(fixtureRuntime('services', { manifest: {} }).run<string[]>('sessionInfo')[0]).toBe('owner@example.com');
  });
});

// A newer version of an add-on declares a scope the user has not granted (project.addScopes). Google documents that
// their installable triggers keep running, getAuthorizationInfo(FULL) says REQUIRED with an authorization URL, and a
// call of the unauthorized service throws; field reports read it as every authorized call failing (behaviour
// `unauthorizedCalls: 'any-scope'`). Menu items and panels are not refused (Google asks for consent before they run).
describe('a version whose scopes the user has not all granted', () => {
  const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
  const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
  const REFUSED = 'Authorization is required to perform that action.';
  const inTrigger = (runtime: typeof rt) => {
    runtime.run('authorizationAndCalls', [], { kind: 'trigger' });
    return JSON.parse(runtime.properties.script.get('authorization') ?? '{}') as Record<string, unknown>;
  };

  test.each(['missing-scope', 'any-scope'] as const)(
    '%s: a trigger is told REQUIRED and its unauthorized calls throw',
    (unauthorizedCalls) => {
      const runtime = fixtureRuntime('services', {
        manifest: { oauthScopes: [CURRENT_ONLY] },
        behaviours: { unauthorizedCalls },
      });
      expect(inTrigger(runtime)).toMatchObject({ status: 'NOT_REQUIRED', url: null });
      runtime.project.addScopes([EMAIL]);
      const waiting = inTrigger(runtime);
      expect(waiting).toMatchObject({ status: 'REQUIRED', properties: null, email: REFUSED });
      expect(String(waiting.url)).toMatch(/^https:\/\/script\.google\.com\/macros\/d\/.+\/authorize$/);
      // The spreadsheet's scope was granted: refused only where every authorized call is.
      if (unauthorizedCalls === 'any-scope') expect(waiting.sheet).toBe(REFUSED);
      else expect(waiting.sheet).not.toBe(REFUSED);
      // A menu item runs (Google asks for consent first; not modelled), and still reads REQUIRED until the user allows.
      expect(runtime.run<Record<string, unknown>>('authorizationAndCalls')).toMatchObject({ status: 'REQUIRED' });
      runtime.project.authorize();
      expect(inTrigger(runtime)).toMatchObject({ status: 'NOT_REQUIRED', url: null });
      expect(inTrigger(runtime).email).not.toBe(REFUSED);
    },
  );
});

test('Utilities: encodings, signed-byte digests, dates, formatting, blobs, UUIDs, CSV', () => {
  expect(rt.run('utilities')).toEqual({
    b64: 'aGVsbG8/',
    b64web: 'aGVsbG8_',
    decoded: [104, 105],
    digestFirst: [-70, 120, 22, -65],
    digestLength: 32,
    hmacFirst: [110, -98, -14, -101],
    date: '2025-01-06T09:05:09 -0500 Mon',
    formatted: 'cart has 3 items costing 9.50',
    blob: ['greeting.txt', 'text/plain', 'hello', 5],
    uuid: true,
    csv: [
      ['a', 'b,c'],
      ['1', 'say "hi"'],
    ],
  });
});

test('Utilities.sleep advances a manual clock instead of blocking', () => {
  const started = Date.now();
  // The script sees the sleep pass, and the sleep call's own modelled cost (costs.ts).
  expect(rt.run('sleepFor', [120_000])).toBe(120_000 + callCost('Utilities', 'sleep'));
  // Blocking would take the whole two minutes; the execution itself takes a small part of it on any machine.
  expect(Date.now() - started).toBeLessThan(120_000 / 10);
  expect(failureOf(() => rt.run('sleepFor', [300_001]))).toBe('Sleep time must be between 0 and 300000 milliseconds.');
});
