// The research spending guard as a user meets it: a daily cap set in Settings, then the Research panel shows what is
// left, refuses a launch over it with the numbers, and launches only the rows that fit when asked.
import { describeWithBrowser, stackForSuite } from '../harness';

jest.setTimeout(90000);

describeWithBrowser('research spending guard', () => {
  const stack = stackForSuite();

  it('sets a daily cap in Settings; Research refuses what does not fit and launches the first rows that do', async () => {
    const { page } = stack();
    await page.click('[data-handler="showSettingsPanel"]');
    let panel = await stack().sidebar();
    await panel.waitForSelector('#cap-save');
    await panel.fill('#cap-daily', '20');
    await panel.click('#cap-save');
    await panel.waitForSelector('#spending-guard :text("Cap saved")');
    expect(await panel.textContent('#cap-spent')).toBe('Spent today 0, this month 0; 20 left');
    // Who set it, and who may change it how (issue 28).
    expect(await panel.textContent('#cap-owner')).toMatch(
      /^Set by \S+@\S+ on \d{1,2} \w{3} \d{4}\. Anyone may lower it; only \S+@\S+ may raise or remove it\.$/,
    );

    await page.click('td[data-cell="A2"]');
    await page.click('td[data-cell="A4"]', { modifiers: ['Shift'] });
    await page.click('[data-handler="showResearchPanel"]');
    panel = await stack().sidebar();
    await panel.waitForSelector('#selection:has-text("3 rows selected")');
    await panel.fill('#brief', 'Research {Domain}');
    await panel.waitForSelector('#spending-cap:has-text("Spending cap: 20 credits left (0 of 20 today spent)")');
    await panel.waitForSelector(
      `#launch-summary .inline-error:has-text("Over this spreadsheet's spending cap: 3 rows reserve 30 credits, 20 left")`,
    );
    expect(await panel.isDisabled('#launch')).toBe(true);
    await panel.locator('#over-cap').scrollIntoViewIfNeeded();
    await stack().screenshot('spending-guard');
    await panel.click('#launch-fitting');
    await panel.waitForSelector(
      '#launch-result :text("Queued 2 tasks at the service, 1 left out by the spending cap")',
    );
    await panel.waitForSelector('#spending-cap:has-text("0 credits left")');
  });
});
