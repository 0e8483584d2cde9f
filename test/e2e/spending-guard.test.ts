// The research spending guard as a user meets it: a daily cap set in Settings, then the Research panel shows what is
// left, refuses a launch over it with the numbers, and launches only the rows that fit when asked. Researching rows
// again over the cap (issue 36 item 10): one question whose figure is what the answer launches, and the answer
// launches exactly that, checked against the sandbox's money record.
import { describeWithBrowser, stackForSuite } from './harness';

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

  it('researching rows again over the cap asks once, with what fits, and launches exactly that', async () => {
    const { page, control } = stack();
    // The first test's two rows finish (an hour: the add-on's timer runs hourly).
    await page.click('[data-advance="3600000"]');
    await page.click('[data-advance="60000"]');
    await page.waitForFunction(
      () =>
        [2, 3].every((row) =>
          Array.from(document.querySelectorAll('td[data-cell]')).some(
            (cell) =>
              new RegExp(`^[A-Z]+${row}$`).test(cell.getAttribute('data-cell') ?? '') &&
              /^Done \(\d+ credits\)$/.test((cell.textContent ?? '').trim()),
          ),
        ),
      undefined,
      { timeout: 20000 },
    );
    // What today's research charged, by the money oracle; a cap that leaves 15 credits: one row of 10 fits, not two.
    const charged = (await control.ledgerDay('sbx_pro_token')).charged;
    await page.click('[data-handler="showSettingsPanel"]');
    let panel = await stack().sidebar();
    await panel.fill('#cap-daily', String(charged + 15));
    await panel.click('#cap-save');
    await panel.waitForSelector(`#cap-spent:text-is("Spent today ${charged}, this month ${charged}; 15 left")`);
    const before = await control.ledgerDay('sbx_pro_token');

    panel = await stack().researchPanelOn(2, 3);
    await panel.waitForSelector(
      `#launch-summary .inline-error:has-text("Over this spreadsheet's spending cap: 2 rows reserve 20 credits, 15 left")`,
    );
    await panel.waitForSelector('#launch-fitting:text-is("Launch the first row that fits")');
    await panel.click('#launch-fitting');
    // One question, whose figure is what answering yes reserves: one row at 10 credits.
    const question = panel.locator('#research-again-question');
    await question.waitFor();
    expect(await question.textContent()).toMatch(
      /^2 rows already have a research result: row 2 \(.+\), row 3 \(.+\)\. This spreadsheet's spending cap has 15 credits left: research row 2 again\? Up to 10 credits \(1 row x 10 at medium depth\); the new result replaces the current one\. Row 3 is left as it is\.Research again$/,
    );
    expect(await panel.textContent('#launch-result')).toMatch(/^Nothing was sent: 2 already researched/);
    // The question stands for the cap's button: only one way on.
    expect(await panel.locator('#launch-fitting').count()).toBe(0);
    await panel.locator('#research-again-question').scrollIntoViewIfNeeded();
    await stack().screenshot('spending-guard-again');
    expect((await control.ledgerDay('sbx_pro_token')).tasks).toHaveLength(before.tasks.length);

    await panel.click('#research-again');
    await panel.waitForSelector('#launch-result :text("Queued 1 task at the service")');
    const after = await control.ledgerDay('sbx_pro_token');
    expect(after.tasks).toHaveLength(before.tasks.length + 1);
    expect(after.reserved).toBe(before.reserved + 10);
  });
});
