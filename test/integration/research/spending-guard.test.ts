// The research spending guard through the bundle, the emulator and the sandbox: two editors launching at the same
// moment never pass the spreadsheet's cap (the second launch is checked against the first's records under the
// document lock), the cap counts what the service charged, and only the editor who shares their token may change it.
import { createManualClock, type GasRuntime, type ServiceCallInfo } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/account/settings';
import { runtimeFor, closeAfterTest, sandboxSuite } from '../harness';
import type { LaunchResponse, SpendingGuardAnswer, SpendingGuardDto } from '../../../src/research/contract';
import { runUntilSettled, SHEET, USER } from './harness';

jest.setTimeout(60_000);

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
    expect(guard).toMatchObject({ left: 30, canEdit: true });
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
    expect(first).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^Over this spreadsheet's research spending cap: 2 rows reserve 20 credits, 10 left \(20 of 30 today spent\)\. 1 row fit\.$/,
      ),
    });
    const tasks = await suite.control.call<unknown[]>('GET', '/_sandbox/tasks');
    expect(tasks).toHaveLength(2);
    // What the service charged, not the estimate: once done, the room follows the agents that ran.
    await runUntilSettled(suite, rt);
    const after = rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar', user: USER });
    expect(after.spentToday).toBe(creditsBefore - (await suite.control.credits('sbx_pro_token')));
    expect(after.spentToday).toBeLessThanOrEqual(20);
    expect(after.left).toBe(30 - after.spentToday);
  });

  it('only the editor who shares their token with the spreadsheet changes the cap', async () => {
    runtime = await twoEditors(['a.com'], 'sbx_solo_token');
    runtime.run('setFormulaTokenSharing', [true], { kind: 'sidebar', user: USER });
    expect(
      runtime.run<SpendingGuardAnswer>('setSpendingGuard', [{ daily: 10, monthly: 100 }], {
        kind: 'sidebar',
        user: EDITOR,
      }),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/who shares their token with this spreadsheet/) });
    expect(
      runtime.run<SpendingGuardAnswer>('setSpendingGuard', [{ daily: 10, monthly: 100 }], {
        kind: 'sidebar',
        user: USER,
      }),
    ).toMatchObject({ ok: true, guard: { cap: { daily: 10, monthly: 100 } } });
    expect(runtime.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar', user: EDITOR })).toMatchObject({
      canEdit: false,
      left: 10,
    });
  });
});
