// A change that means a saved timer run cannot happen says so when it is saved, with the figures, and the run's section
// shows it until it is resolved (issue 48, point 1), at 300 px: a weekly account watch of 3 rows is saved; a daily
// spending cap below its run is saved in Settings, which names the watch and both figures, and so does the watch's
// section in Research; a week on, its run did not start and sent nothing (the sandbox's record); the cap raised, the
// account's credits (the sandbox's figure) below a run say so next, then the payer's token removed; once all is
// resolved the next run starts and reserves what the message said a run reserves (the sandbox's money record).
import type { Frame } from 'playwright-core';
import { describeWithBrowser, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';

jest.setTimeout(180_000);

const TOKEN = 'sbx_pro_token';
const DAY_MS = 86_400_000;

describeWithBrowser('a change that stops a saved run says so', () => {
  const stack = stackForSuite();

  /** Opens Settings and saves a daily cap of `daily` credits: the panel, once it says so. */
  async function saveDailyCap(daily: number): Promise<Frame> {
    const settings = await stack().openPanel('showSettingsPanel');
    await settings.waitForSelector('#cap-save');
    await settings.fill('#cap-daily', String(daily));
    await settings.click('#cap-save');
    await settings.waitForSelector(`#cap-spent:has-text("${daily}")`);
    await settings.waitForSelector('#spending-guard :text("Cap saved")');
    return settings;
  }

  /** The Research panel on rows 2-4: its watch section's text, once read. */
  async function watchSection(): Promise<Frame> {
    const panel = await stack().researchPanelOn(2, 4);
    await panel.waitForSelector('#watch-status');
    return panel;
  }

  it('says so when the cap, the credits or the token stop a saved watch, and the run starts once resolved', async () => {
    const { control } = stack();
    const email = (await control.call<{ email: string }>('GET', '/v1/user', undefined, TOKEN)).email;

    // A weekly watch of 3 rows; the cost confirmed names what a run reserves.
    let panel = await stack().researchPanelOn(2, 4);
    await panel.check('#output-fields');
    await panel.fill('[aria-label="Field 1 name"]', 'employee_count');
    await panel.click('#watch-section summary');
    await panel.click('#watch-preview');
    const confirm = (await panel.textContent('#watch-confirm')) ?? '';
    const perRun = Number(/costs up to (\d+) credits a run/.exec(confirm)?.[1]);
    expect(perRun).toBe(30);
    await panel.click('#watch-save');
    await panel.waitForSelector('#watch-next:has-text("Next run:")');
    expect(await panel.locator('#watch-blocked').count()).toBe(0);

    // A daily cap of 15: saved, and Settings says the watch cannot run, with both figures.
    const capProblem =
      `The account watch of "Companies" cannot run: a run reserves up to ${perRun} credits and this spreadsheet's ` +
      `daily research spending cap is 15. Raise the cap to at least ${perRun} in Settings, or watch fewer rows or ` +
      'choose a lower depth (Research > Account watch).';
    let settings = await saveDailyCap(15);
    expect(await settings.textContent('#cap-runs')).toBe(capProblem);
    expect(await clippedTexts(settings)).toEqual([]);
    await settings.$eval('#spending-guard', (section) => section.scrollIntoView({ block: 'start' }));
    await stack().screenshot('saved-run-cap');

    // The watch's section says so until it is resolved.
    panel = await watchSection();
    expect(await panel.textContent('#watch-blocked')).toBe(capProblem);
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#watch-status').scrollIntoViewIfNeeded();
    await stack().screenshot('saved-run-watch');

    // A week on: the run did not start and nothing was sent (the sandbox has no task of the account); its line ends
    // with one full stop.
    await stack().advanceTime(8 * DAY_MS);
    await stack().finishTasks();
    expect(await control.tasks(TOKEN)).toEqual([]);
    panel = await watchSection();
    const last = (await panel.textContent('#watch-last')) ?? '';
    expect(last).toMatch(/^Last run .+: Not started: Over this spreadsheet's research spending cap: .+[^.]\.$/);

    // The cap raised above a run; the account's credits now below one: the sandbox's figure, named.
    await control.setAccount('sandbox-pro', { credits: 12 });
    const credits = await control.credits(TOKEN);
    expect(credits).toBe(12);
    settings = await saveDailyCap(40);
    const creditsProblem =
      `The account watch of "Companies" cannot run: a run reserves up to ${perRun} credits and ${email} has ` +
      `${credits} credits. Add credits on the dashboard, or watch fewer rows or choose a lower depth (Research > ` +
      'Account watch).';
    expect(await settings.textContent('#cap-runs')).toBe(creditsProblem);
    panel = await watchSection();
    expect(await panel.textContent('#watch-blocked')).toBe(creditsProblem);

    // Credits back; the payer removes their token: Settings says which saved run it stops, and so does the section.
    await control.setAccount('sandbox-pro', { credits: 500 });
    settings = await stack().openPanel('showSettingsPanel');
    await settings.waitForSelector('#cap-spent');
    expect(await settings.locator('#cap-runs').count()).toBe(0);
    await settings.click('#remove');
    await settings.waitForSelector('#saved-runs');
    const tokenProblem =
      `The account watch of "Companies" cannot run: it is paid from ${email}, who removed their Sheet Scout token. ` +
      `Nothing starts until ${email} saves a token again in Settings.`;
    expect(await settings.textContent('#saved-runs')).toBe(tokenProblem);
    expect(await clippedTexts(settings)).toEqual([]);
    await stack().screenshot('saved-run-token');
    panel = await watchSection();
    expect(await panel.textContent('#watch-blocked')).toBe(tokenProblem);

    // The token saved again: nothing stands in the way; the next run starts and reserves what a run was said to.
    settings = await stack().openPanel('showSettingsPanel');
    await settings.fill('#token', TOKEN);
    await settings.click('#save');
    await settings.waitForSelector('#account-email');
    panel = await watchSection();
    expect(await panel.locator('#watch-blocked').count()).toBe(0);
    await stack().advanceTime(7 * DAY_MS);
    await stack().finishTasks();
    const ledger = await control.ledger(TOKEN);
    expect(ledger.days.reduce((sum, day) => sum + day.reserved, 0)).toBe(perRun);
    expect(await control.tasks(TOKEN)).toHaveLength(3);
  });
});
