// The execution model: fresh globals per execution, time limits and kills, permissions by kind and
// authorization mode, google.script.run rules, error reporting, locks between concurrent executions,
// the clock inside the bundle, and logging.
import { createManualClock, GasExecutionError, GasRuntime, ManualClock } from '../../../dev/gas-runtime';
import { failureOf, fixtureRuntime } from './helpers';
import { EXECUTION_START } from '../../../dev/gas-runtime/costs';

let clock: ManualClock;
let rt: GasRuntime;
beforeEach(() => {
  clock = createManualClock();
  rt = fixtureRuntime('execution', { clock, users: ['owner@example.com', 'editor@example.com'] });
});

const cellA = (n: number) =>
  rt.spreadsheet
    .sheet()
    .getValues(`A1:A${n}`)
    .map((r) => r[0]);

test('each execution starts from fresh globals, as Apps Script re-runs top-level code', () => {
  expect(rt.run('bump')).toBe(1);
  expect(rt.run('bump')).toBe(1);
  expect(rt.counters.executions).toBe(2);
});

test("killAtServiceCall stops the execution at that call with Google's timeout; earlier writes stay", () => {
  // calls: 1 getActiveSheet, then getRange/setValue per row; call 5 is the second setValue
  const error = (() => {
    try {
      rt.run('writeRows', [5], { killAtServiceCall: 5 });
    } catch (e) {
      return e as GasExecutionError;
    }
    throw new Error('not killed');
  })();
  expect(error).toBeInstanceOf(GasExecutionError);
  expect(error.message).toBe('Exceeded maximum execution time');
  expect(error.timedOut).toBe(true);
  expect(cellA(3)).toEqual(['row 1', '', '']);
});

test('a script cannot catch its own timeout: every later service call fails too', () => {
  expect(failureOf(() => rt.run('swallowKill', [4], { killAtServiceCall: 3 }))).toBe('Exceeded maximum execution time');
  expect(cellA(4)).toEqual(['', '', '', '']);
});

test('the time limit strikes at the next service call past it, on the runtime clock', () => {
  const limited = fixtureRuntime('execution', { clock, limits: { executionMs: 1000 } });
  expect(failureOf(() => limited.run('sleepThenWrite', [1500]))).toBe('Exceeded maximum execution time');
  expect(limited.spreadsheet.sheet().getValues('A1')).toEqual([['']]);
  // The rest of the second is the execution's own modelled time: loading the bundle, the calls (costs.ts).
  limited.run('sleepThenWrite', [500]);
  expect(limited.spreadsheet.sheet().getValues('A1')).toEqual([['late']]);
});

test('custom functions get 30 seconds, other executions 6 minutes', () => {
  expect(failureOf(() => rt.run('sleepThenRead', [31_000], { kind: 'custom-function' }))).toBe(
    'Exceeded maximum execution time',
  );
  expect(rt.run('sleepThenRead', [29_000], { kind: 'custom-function' })).toBe('');
  expect(rt.run('sleepThenRead', [300_000], { kind: 'menu' })).toBe('');
  expect(failureOf(() => rt.run('sleepTwice', [300_000, 70_000], { kind: 'menu' }))).toBe(
    'Exceeded maximum execution time',
  );
});

test('a loop that never calls a service is stopped by the real-time watchdog', () => {
  const limited = fixtureRuntime('execution', { limits: { executionMs: 1000 } });
  const started = Date.now();
  let error: GasExecutionError | undefined;
  try {
    limited.run('spin');
  } catch (e) {
    error = e as GasExecutionError;
  }
  expect([error?.message, error?.timedOut]).toEqual(['Exceeded maximum execution time', true]);
  expect(Date.now() - started).toBeLessThan(5000);
});

test('on a manual clock the watchdog stops such a loop only at three times the limit (real time counts less there)', () => {
  const limited = fixtureRuntime('execution', { clock: createManualClock(), limits: { executionMs: 1000 } });
  const started = Date.now();
  expect(failureOf(() => limited.run('spin'))).toBe('Exceeded maximum execution time');
  expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
});

test('Date inside the bundle reads the runtime clock, moved by the modelled start of the execution', () => {
  clock.set(Date.UTC(2030, 5, 1));
  const seen = rt.run('nowMs');
  const start = rt.counters.modelled.lastExecutionMs;
  expect(start).toBeGreaterThanOrEqual(EXECUTION_START.ms);
  expect(seen).toEqual([Date.UTC(2030, 5, 1) + start, Date.UTC(2030, 5, 1) + start]);
  expect(clock.now()).toBe(Date.UTC(2030, 5, 1) + start);
});

test("custom-function executions see the restricted service set and the owner's user properties", () => {
  rt.properties.user('owner@example.com').set('apiKey', 'owner-key');
  rt.properties.user('editor@example.com').set('apiKey', 'editor-key');
  rt.properties.document.set('shared', 'doc');
  rt.spreadsheet.sheet().setValues('A1', [['cell']]);
  expect(rt.run('customFunctionProbe', [], { kind: 'custom-function', user: 'editor@example.com' })).toEqual({
    read: 'cell',
    write: 'ERR You do not have permission to call setValue',
    ui: 'ERR Cannot call SpreadsheetApp.getUi() from this context.',
    trigger: 'ERR You do not have permission to call ScriptApp.newTrigger',
    userProps: 'owner-key',
    setUserProps: 'ERR You do not have permission to call setProperty',
    docProps: 'doc',
    cache: 'v',
    activeUser: '',
    html: '<b>x</b>',
  });
});

test('onOpen in AuthMode.NONE can build its menu but not touch data, properties or the network', () => {
  const out = rt.run('onOpen', [], { kind: 'simple-trigger', authMode: 'NONE' });
  expect(out).toEqual({
    authMode: 'NONE',
    isNone: true,
    props: 'You do not have permission to call PropertiesService.getDocumentProperties',
    sheet:
      'You do not have permission to call SpreadsheetApp.getActiveSpreadsheet. Required permissions: https://www.googleapis.com/auth/spreadsheets.currentonly',
    fetch:
      'You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
  });
  expect(rt.ui.menus.map((m) => m.items.map((i) => i.caption))).toEqual([['Start']]);
  expect(rt.logs.map((l) => l.message)).toContain('onOpen ran in NONE');
});

test('onOpen in AuthMode.LIMITED reads data and properties but cannot fetch', () => {
  const out = rt.run('onOpen', [], { kind: 'simple-trigger', authMode: 'LIMITED' }) as Record<string, unknown>;
  expect([out.authMode, out.props, out.sheet]).toEqual(['LIMITED', 'ok', 'ok']);
  expect(out.fetch).toMatch(/^You do not have permission to call UrlFetchApp.fetch/);
});

test('a service call in top-level code breaks the whole load in AuthMode.NONE', () => {
  const bad = fixtureRuntime('toplevel-service', { clock });
  expect(bad.open({ authMode: 'NONE' }).onOpenError).toBe(
    'You do not have permission to call PropertiesService.getScriptProperties',
  );
  expect(bad.ui.menus).toEqual([]);
  expect(bad.open({ authMode: 'LIMITED' }).onOpenError).toBeUndefined();
  expect(bad.ui.menus).toHaveLength(1);
});

test('AuthMode.LIMITED may write the sheet but not open a sidebar', () => {
  expect(rt.run('limitedProbe', [], { kind: 'simple-trigger', authMode: 'LIMITED' })).toEqual({
    wrote: 'limited write',
    sidebar:
      'You do not have permission to call Ui.showSidebar. Required permissions: https://www.googleapis.com/auth/script.container.ui',
  });
});

test('sidebar calls follow google.script.run: no Date arguments, no private functions, Dates come back null', () => {
  expect(failureOf(() => rt.run('echo', [{ at: new Date() }], { kind: 'sidebar' }))).toBe(
    'Failed due to illegal value in property: 0.at',
  );
  expect(failureOf(() => rt.run('secret_', [], { kind: 'sidebar' }))).toBe('Script function not found: secret_');
  expect(rt.run('withDate', [], { kind: 'sidebar' })).toEqual({ when: null, list: [null, 1] });
  const copied = rt.run<{ when: Date }>('withDate', [], { kind: 'menu' });
  expect(copied.when).toBeInstanceOf(Date);
  const input = { nested: [1, { a: 'b' }] };
  const output = rt.run<typeof input>('echo', [input], { kind: 'sidebar' });
  expect(output).toEqual(input);
  expect(output).not.toBe(input);
});

test('errors thrown in the bundle reach the host with their name and message', () => {
  const typeError = (() => {
    try {
      rt.run('throwsTypeError');
    } catch (e) {
      return e as GasExecutionError;
    }
    throw new Error('no error');
  })();
  expect(typeError.gasName).toBe('TypeError');
  expect(typeError.message).toMatch(/null/);
  expect(failureOf(() => rt.run('throwsCustom'))).toBe('custom failure');
  expect(failureOf(() => rt.run('noSuchFunction'))).toBe('Script function not found: noSuchFunction');
});

test('locks exclude a concurrent execution: tryLock returns false after waiting, waitLock throws', () => {
  let contender: unknown;
  let waitFailure = '';
  const before = clock.now();
  const holder = rt.run('lockHolder', [], {
    onServiceCall: (call) => {
      if (call.index !== 3) return;
      contender = rt.run('lockContender', ['try']);
      waitFailure = failureOf(() => rt.run('lockContender', ['wait']));
    },
  });
  expect(holder).toEqual([true, true]);
  expect(contender).toEqual([false, false]);
  expect(waitFailure).toBe('Lock timeout: another process was holding the lock for too long.');
  // Both waits (10 s and 5 s) pass on the clock, with the three executions' own modelled time (under a second each).
  expect(clock.now() - before).toBeGreaterThan(15_000);
  expect(clock.now() - before).toBeLessThan(15_000 + 3 * 1000);
  expect(rt.run('lockContender', ['try'])).toEqual([true, true]);
});

test('a lock held by the host blocks executions until released; releaseLock frees it', () => {
  const release = rt.locks.hold('document');
  expect(rt.run('lockContender', ['try'])).toEqual([false, false]);
  release();
  expect(rt.run('lockContender', ['try'])).toEqual([true, true]);
  expect(rt.run('lockAndRelease')).toEqual([true, false, true]);
});

test('installable-trigger executions have no UI', () => {
  expect(failureOf(() => rt.run('triggerUi', [], { kind: 'trigger' }))).toBe(
    'Cannot call SpreadsheetApp.getUi() from this context.',
  );
});

test('Logger and console output is recorded per execution', () => {
  expect(rt.run('logSomething')).toBe('value 1 of 2\n');
  expect(rt.logs.map((l) => [l.source, l.level, l.message])).toEqual([
    ['Logger', 'log', 'value 1 of 2'],
    ['console', 'info', 'info { a: 1 }'],
    ['console', 'error', 'bad'],
  ]);
});
