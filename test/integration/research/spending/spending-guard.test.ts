// The research spending guard through the bundle, the emulator and the sandbox: two editors launching at the same
// moment never pass the spreadsheet's cap (the second launch is checked against the first's records under the
// document lock), the cap counts what the service charged; anyone may set or lower the cap, only the account that set
// it raises or removes it (issue 28). The cap's figures and the credits badge are checked against the sandbox's money
// oracle (what the service reserved, charged and refunded today).
import { createManualClock, type GasRuntime, type ServiceCallInfo } from '../../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../../src/shared/connection';
import { runtimeFor, closeAfterTest, sandboxSuite } from '../../harness';
import type { LaunchResponse, SpendingGuardAnswer, SpendingGuardDto } from '../../../../src/research/contract';
import { oracleTotals, runUntilSettled, SHEET, USER } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });

const EDITOR = 'ben@example.com';
let runtime: GasRuntime | null = null;

async function twoEditors(domains: string[], editorToken = 'sbx_pro_token'): Promise<GasRuntime> {
  const rt = closeAfterTest(
    runtimeFor(suite.control.url, {
      sheets: { [SHEET]: [['Domain'], ...domains.map((domain) => [domain])] },
      minRows: 100,
      user: USER,
      users: [EDITOR],
      clock: createManualClock(await suite.control.now()),
    }),
  );
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.token, editorToken);
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.baseUrl, suite.control.url);
  return rt;
}

const output = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };

describe('research spending guard (integration)', () => {
  it('two editors launching at once never pass the cap', async () => {
    const domains = (await suite.control.companies(4)).map((company) => company.domain);
    runtime = await twoEditors(domains);
    const rt = runtime;
    const { guard } = rt.run<SpendingGuardAnswer>('setSpendingGuard', [{ daily: 30, monthly: null }], {
      kind: 'sidebar',
      user: USER,
    });
    expect(guard).toMatchObject({ left: 30, owner: 'pro@sandbox.example.com' });
    const sheetId = rt.spreadsheet.sheet(SHEET).sheetId;
    const creditsBefore = await suite.control.credits('sbx_pro_token');
    const launch = (user: string, rows: number[], onServiceCall?: (call: ServiceCallInfo) => void) =>
      rt.run<LaunchResponse>(
        'launchResearch',
        [{ template: 'Research {Domain}', depth: 'medium', output, sheetId, rows }],
        { kind: 'sidebar', user, onServiceCall },
      );
    let second: LaunchResponse | null = null;
    // Ana's launch is suspended at its first request (the account check, before the lock); Ben launches meanwhile.
    const first = launch(USER, [2, 3], (call) => {
      if (!second && call.service === 'UrlFetchApp') second = launch(EDITOR, [4, 5]);
    });
    expect(second).toMatchObject({ ok: true, created: 2 });
    // The refusal's figures are what the service holds today by the money oracle: Ben's reservations, none refunded.
    const held = await suite.control.ledgerDay('sbx_pro_token');
    expect(held.tasks).toHaveLength(2);
    const spent = held.reserved - held.refunded;
    expect(first).toMatchObject({
      ok: false,
      message: `Over this spreadsheet's research spending cap: 2 rows reserve 20 credits, ${30 - spent} left (${spent} of 30 today spent). 1 row fits.`,
    });
    const tasks = await suite.control.call<unknown[]>('GET', '/_sandbox/tasks');
    expect(tasks).toHaveLength(2);
    // What the service charged, not the estimate: once done, the room follows the agents that ran.
    await runUntilSettled(suite, rt);
    const after = rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar', user: USER });
    const today = await suite.control.ledgerDay('sbx_pro_token');
    const month = await oracleTotals(suite);
    expect(today.reserved - today.refunded).toBe(today.charged);
    expect(today.charged).toBeLessThanOrEqual(20);
    expect(after).toMatchObject({ spentToday: today.charged, spentThisMonth: month.charged, left: 30 - today.charged });
    // The credits badge shows the balance the oracle's movements leave.
    expect(rt.run<{ availableCredits: number }>('getCredits', [], { kind: 'sidebar', user: USER })).toEqual({
      availableCredits: creditsBefore - today.reserved + today.refunded,
      email: 'pro@sandbox.example.com',
    });
  });

  it('anyone may set or lower the cap; only the account that set it raises or removes it, and the panels say who', async () => {
    // Ana (the pro account) and Ben (the solo account); nobody shares a token with the formulas.
    runtime = await twoEditors(['a.com'], 'sbx_solo_token');
    const rt = runtime;
    const set = (user: string, daily: number | null, monthly: number | null) =>
      rt.run<SpendingGuardAnswer>('setSpendingGuard', [{ daily, monthly }], { kind: 'sidebar', user });
    const shown = (user: string) => rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar', user });
    expect(shown(EDITOR)).toMatchObject({ owner: null, editNote: null, left: null });
    expect(set(USER, 30, 300)).toMatchObject({ ok: true, guard: { cap: { daily: 30, monthly: 300 } } });
    const day = (ms: number) =>
      new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const setOn = day(rt.clock.now());
    expect(shown(EDITOR)).toMatchObject({
      owner: 'pro@sandbox.example.com',
      editNote: `Set by pro@sandbox.example.com on ${setOn}. Anyone may lower it; only pro@sandbox.example.com may raise or remove it.`,
    });
    // Ben may not lift it, in any of the ways a looser cap can be written.
    const refusedRaise = {
      ok: false,
      message: 'Only pro@sandbox.example.com, who set this cap, may raise it: you may lower it.',
    };
    expect(set(EDITOR, null, 300)).toMatchObject(refusedRaise);
    expect(set(EDITOR, 40, 300)).toMatchObject(refusedRaise);
    expect(set(EDITOR, 20, 400)).toMatchObject(refusedRaise);
    expect(set(EDITOR, null, null)).toMatchObject({
      ok: false,
      message: 'Only pro@sandbox.example.com, who set this cap, may remove it: you may lower it.',
    });
    expect(shown(USER).cap).toEqual({ daily: 30, monthly: 300 });
    // Ben may lower it; it stays Ana's, and says who lowered it.
    expect(set(EDITOR, 10, 300)).toMatchObject({ ok: true, guard: { cap: { daily: 10, monthly: 300 } } });
    expect(shown(USER)).toMatchObject({
      owner: 'pro@sandbox.example.com',
      editNote: expect.stringContaining(`Lowered by solo@sandbox.example.com on ${setOn}.`),
    });
    // Having lowered it, Ben still may not raise it back; Ana may, and may remove it.
    expect(set(EDITOR, 30, 300)).toMatchObject(refusedRaise);
    expect(set(USER, 50, 500)).toMatchObject({ ok: true, guard: { cap: { daily: 50, monthly: 500 } } });
    expect(set(USER, null, null)).toMatchObject({ ok: true, guard: { owner: null, left: null } });
    // Without a cap, Ben may set one: then it is his.
    expect(set(EDITOR, 5, null)).toMatchObject({ ok: true, guard: { owner: 'solo@sandbox.example.com' } });
    expect(set(USER, 6, null)).toMatchObject({ ok: false });
  });
});
