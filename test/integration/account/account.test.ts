// Account setup through the built bundle: the Settings panel's server functions run in the emulator and reach the
// sandbox over HTTP; the token lands in the user's properties (never in a cell, a log or an error).
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { SpawnedSandbox } from '../../../dev/sandbox/spawn';
import type { SandboxControl } from '../../../dev/sandbox/control-client';
import { runtimeFor, startSandbox } from '../harness';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { AccountState } from '../../../src/account/service';
import type { Credits } from '../../../src/account/contract';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';

let sandbox: SpawnedSandbox;
let control: SandboxControl;
let runtime: GasRuntime;

beforeAll(async () => {
  ({ sandbox, control } = await startSandbox({ clock: 'manual' }));
});

afterAll(async () => {
  await sandbox.stop();
});

beforeEach(async () => {
  await control.reset();
  runtime = runtimeFor(sandbox.url, { user: OWNER, users: [EDITOR], token: null, addonName: 'Sheet Scout' });
});

afterEach(async () => {
  await runtime.close();
});

function sidebar<T>(name: string, args: unknown[] = [], user = OWNER): T {
  return runtime.run<T>(name, args, { kind: 'sidebar', user });
}

describe('account settings through the bundle', () => {
  it('builds the menu in AuthMode.NONE and opens the Settings sidebar from it', () => {
    expect(runtime.open({ authMode: 'NONE' }).onOpenError).toBeUndefined();
    runtime.clickMenuItem('Sheet Scout', 'Settings...');
    expect(runtime.ui.sidebars.at(-1)).toMatchObject({ title: 'Sheet Scout settings', file: 'Settings' });
    expect(runtime.ui.sidebars.at(-1)!.html).toContain('<div id="app"');
  });

  it('verifies the token with one GET /v1/user, stores it for this user only, and reports the account', () => {
    const before = runtime.counters.urlFetch.total;
    const state = sidebar<AccountState>('saveAccountToken', [{ token: 'sbx_pro_token', baseUrl: sandbox.url }]);
    expect(runtime.counters.urlFetch.total - before).toBe(1);
    expect(runtime.httpLog.at(-1)).toMatchObject({ method: 'GET', url: `${sandbox.url}/v1/user`, status: 200 });
    expect(state).toMatchObject({
      connected: true,
      problem: null,
      account: { email: 'pro@sandbox.example.com', availableCredits: 500, organization: 'Sandbox Labs' },
    });
    expect(runtime.properties.user(OWNER).get(SETTINGS_KEYS.token)).toBe('sbx_pro_token');
    expect(runtime.properties.user(EDITOR).get(SETTINGS_KEYS.token)).toBeNull();
    expect(runtime.properties.document.get(SETTINGS_KEYS.formulaToken)).toBeNull();
    expect(sidebar<Credits>('getCredits')).toEqual({ availableCredits: 500, email: 'pro@sandbox.example.com' });
  });

  it('shows a personal account for a user without an organization', () => {
    const state = sidebar<AccountState>('saveAccountToken', [{ token: 'sbx_solo_token', baseUrl: sandbox.url }]);
    expect(state.account).toMatchObject({ email: 'solo@sandbox.example.com', organization: null });
  });

  it('rejects a bad token without saving it or echoing it anywhere', () => {
    const state = sidebar<AccountState>('saveAccountToken', [{ token: 'sbx_wrong_token_42', baseUrl: sandbox.url }]);
    expect(state.connected).toBe(false);
    expect(state.problem).toMatch(/rejected this token \(401\)/);
    expect(runtime.properties.user(OWNER).get(SETTINGS_KEYS.token)).toBeNull();
    const everything = JSON.stringify([state, runtime.logs, runtime.spreadsheet.sheet().getValues()]);
    expect(everything).not.toContain('sbx_wrong_token_42');
  });

  it('says so when the address is wrong or unreachable, and refuses plain HTTP to another host', async () => {
    const unreachable = sidebar<AccountState>('saveAccountToken', [
      { token: 'sbx_pro_token', baseUrl: 'http://127.0.0.1:9' },
    ]);
    expect(unreachable.problem).toBe(
      'Could not reach http://127.0.0.1:9. Check the service address under Advanced, or your connection, and try again.',
    );
    const wrongPath = sidebar<AccountState>('saveAccountToken', [
      { token: 'sbx_pro_token', baseUrl: `${sandbox.url}/nothing-here` },
    ]);
    expect(wrongPath.problem).toMatch(/No Sheet Scout service answered/);
    const before = runtime.httpLog.length;
    const plain = sidebar<AccountState>('saveAccountToken', [
      { token: 'sbx_pro_token', baseUrl: 'http://api.example.com' },
    ]);
    expect(plain.problem).toMatch(/plain http is only allowed for localhost/);
    expect(runtime.httpLog.length).toBe(before);
  });

  it('shares the token with formulas only when ticked, tells other editors whose it is, and unticking removes it', () => {
    sidebar('saveAccountToken', [{ token: 'sbx_pro_token', baseUrl: sandbox.url }]);
    const shared = sidebar<AccountState>('setFormulaTokenSharing', [true]);
    expect(shared.formulas).toEqual({ shared: true, sharedBy: 'pro@sandbox.example.com', sharedByMe: true });
    expect(runtime.properties.document.get(SETTINGS_KEYS.formulaToken)).toBe('sbx_pro_token');

    const editorView = sidebar<AccountState>('getAccountState', [], EDITOR);
    expect(editorView).toMatchObject({
      connected: false,
      formulas: { shared: true, sharedBy: 'pro@sandbox.example.com', sharedByMe: false },
    });

    sidebar('setFormulaTokenSharing', [false]);
    expect(runtime.properties.document.get(SETTINGS_KEYS.formulaToken)).toBeNull();
  });

  it('removing the token also removes the copy it shared with formulas', () => {
    sidebar('saveAccountToken', [{ token: 'sbx_pro_token', baseUrl: sandbox.url }]);
    sidebar('setFormulaTokenSharing', [true]);
    const state = sidebar<AccountState>('removeAccountToken');
    expect(state).toMatchObject({ connected: false, account: null, formulas: { shared: false } });
    expect(runtime.properties.user(OWNER).get(SETTINGS_KEYS.token)).toBeNull();
    expect(runtime.properties.document.get(SETTINGS_KEYS.formulaToken)).toBeNull();
    expect(sidebar<Credits>('getCredits')).toEqual({ availableCredits: null, email: null });
  });

  it('retries a passing 503 on the account check and reports credits that changed on the service', async () => {
    sidebar('saveAccountToken', [{ token: 'sbx_pro_token', baseUrl: sandbox.url }]);
    await control.setAccount('sandbox-pro', { credits: 123 });
    await control.setFault({ route: 'user', errorRate: 1, errorStatus: 503, count: 1 });
    const state = sidebar<AccountState>('getAccountState');
    expect(state.account?.availableCredits).toBe(123);
    expect(runtime.httpLog.slice(-2).map((entry) => entry.status)).toEqual([503, 200]);
  });
});
