// The opt-in published add-on trigger rules (`addOn: true`): one time-driven trigger per user per document, and
// time-driven schedules clamped to at most hourly. Without the option the emulator keeps only the 20-per-user limit.
import { createManualClock, GasRuntime, ManualClock } from '../../../dev/gas-runtime';
import { failureOf, fixtureRuntime } from './helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TOO_MANY = 'This add-on has created too many time-based triggers in this document for this Google user account.';

let clock: ManualClock;
let rt: GasRuntime;
beforeEach(() => {
  clock = createManualClock(Date.UTC(2025, 0, 6, 12, 0, 0));
  rt = fixtureRuntime('services', { clock, users: ['owner@example.com', 'editor@example.com'], addOn: true });
});

describe('add-on mode: one time-driven trigger per user per document', () => {
  test('a second time-driven trigger of the same user is refused with the add-on error, whatever its handler', () => {
    rt.run('everyMinutes', ['poll', 1]);
    expect(failureOf(() => rt.run('afterMs', ['poll', 1000]))).toBe(TOO_MANY);
    expect(failureOf(() => rt.run('everyMinutes', ['failingHandler', 5]))).toBe(TOO_MANY);
    expect(rt.triggers.list()).toHaveLength(1);
  });

  test('another user has their own allowance; deleting the trigger frees it; spreadsheet triggers are not counted', () => {
    rt.run('afterMs', ['poll', 1000]);
    rt.run('afterMs', ['poll', 1000], { user: 'editor@example.com' });
    expect(rt.run('onOpenTrigger', ['poll'])).toEqual(['ON_OPEN', 'SPREADSHEETS', 'poll']);
    // A fired one-off trigger stays listed, and counted, until deleted.
    clock.advance(HOUR);
    expect(rt.triggers.fireDue().map((r) => r.ok)).toEqual([true, true]);
    expect(failureOf(() => rt.run('afterMs', ['poll', 1000]))).toBe(TOO_MANY);
    rt.run('deleteTriggersFor', ['poll']);
    expect(rt.run('afterMs', ['poll', 1000])).toEqual(expect.any(String));
  });

  test('without the option, several time-driven triggers are allowed (only the 20-per-user limit)', () => {
    const plain = fixtureRuntime('services', { clock });
    plain.run('everyMinutes', ['poll', 1]);
    plain.run('afterMs', ['poll', 1000]);
    expect(plain.triggers.list()).toHaveLength(2);
  });
});

/** A trigger made during the last execution is due `period` after a moment of it (the clock moved by its modelled time). */
function expectDueAfter(runtime: GasRuntime, period: number): void {
  const due = runtime.triggers.nextDueAt()!;
  expect(due).toBeLessThanOrEqual(clock.now() + period);
  expect(due).toBeGreaterThan(clock.now() - runtime.counters.modelled.lastExecutionMs + period);
}

describe('add-on mode: time-driven triggers at most hourly', () => {
  test('everyMinutes(n) runs every hour', () => {
    rt.run('everyMinutes', ['poll', 1]);
    expectDueAfter(rt, HOUR);
    clock.set(rt.triggers.nextDueAt()! - MINUTE);
    expect(rt.triggers.fireDue()).toEqual([]);
    clock.advance(MINUTE);
    const firedAt = clock.now();
    expect(rt.triggers.fireDue().map((r) => r.ok)).toEqual([true]);
    expect(rt.triggers.nextDueAt()).toBe(firedAt + HOUR);
  });

  test('after(ms) fires no sooner than an hour later; longer delays are kept', () => {
    rt.run('afterMs', ['poll', 2 * MINUTE]);
    expectDueAfter(rt, HOUR);
    rt.run('deleteTriggersFor', ['poll']);
    rt.run('afterMs', ['poll', 3 * HOUR]);
    expectDueAfter(rt, 3 * HOUR);
  });

  test('without the option, schedules are not clamped', () => {
    const plain = fixtureRuntime('services', { clock });
    plain.run('everyMinutes', ['poll', 1]);
    expectDueAfter(plain, MINUTE);
  });
});

describe('getInstallationSource follows the addOn option', () => {
  test('a published add-on reports WEB_STORE_ADD_ON; a bound script (the default) reports NONE', () => {
    expect(rt.run('installationSource')).toEqual(['WEB_STORE_ADD_ON', false]);
    expect(fixtureRuntime('services', { clock }).run('installationSource')).toEqual(['NONE', true]);
  });
});
