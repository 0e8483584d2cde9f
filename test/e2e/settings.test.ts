// Settings in the playground: enter a token, see email and credits (the badge names the account, within 300 px); a
// bad token gets its message; remove the token. The badge takes its credits from the account answers: the panel
// never starts a getCredits execution of its own.
import { describeWithBrowser, stackForSuite } from './harness';
import { clippedTexts } from './layout-check';

describeWithBrowser('settings panel in the playground', () => {
  const stack = stackForSuite();

  it('verifies a token and shows the account, rejects a bad token, and removes the token', async () => {
    const { playground } = stack();
    const executions = playground.runtime.counters.modelled.executions;
    const before = executions.length;
    let panel = await stack().openPanel('showSettingsPanel');
    // The playground starts connected as sandbox-pro: remove the token first to walk through setup.
    await panel.waitForSelector('#account-email');
    await panel.click('#remove');
    await panel.waitForSelector('text=Token removed.');
    // Against the local sandbox the panel names the tokens it accepts (issue 29).
    expect(await panel.textContent('#sandbox-tokens')).toContain('sbx_pro_token');
    await stack().screenshot('settings-1-no-token');

    await panel.fill('#token', 'not-a-real-token');
    await panel.click('#save');
    await panel.waitForSelector('text=/rejected this token \\(401\\)/');
    expect(await panel.locator('#account-email').count()).toBe(0);
    await stack().screenshot('settings-2-bad-token');

    await panel.fill('#token', 'sbx_pro_token');
    await panel.click('#save');
    await panel.waitForSelector('#account-email');
    expect(await panel.textContent('#account-email')).toBe('pro@sandbox.example.com');
    expect(await panel.textContent('#account-credits')).toBe('500');
    expect(await panel.textContent('#credits-badge')).toBe('500 credits · pro@sandbox.example.com');
    expect(await clippedTexts(panel)).toEqual([]);
    expect(await panel.inputValue('#token')).toBe('');
    await stack().screenshot('settings-3-connected');

    await panel.click('#remove');
    await panel.waitForSelector('text=Token removed.');
    expect(await panel.textContent('#credits-badge')).toBe('not connected');
    panel = await stack().sidebar();
    expect(await panel.locator('#account-email').count()).toBe(0);
    const called = executions.slice(before).map((execution) => execution.name);
    expect(called).toContain('getAccountState');
    expect(called.filter((name) => name === 'getCredits')).toEqual([]);
  });
});
