// Reuse on request in the playground's Research panel (issue 46): two rows researched, then selected again. The
// panel offers their results (researched in the last 30 days, the period a select), says what each answer costs and
// keeps the launch disabled until the user answers; "Use those results" writes them back at 0 credits (the sandbox's
// credits do not move) and the rows say they were reused. Everything fits the 300 px sidebar.
import { describeWithBrowser, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';

jest.setTimeout(90_000);

describeWithBrowser('reuse on request in the Research panel', () => {
  const stack = stackForSuite();

  it('offers results researched in the period, waits for the answer, and reuses them at 0 credits', async () => {
    const { page } = stack();
    const statusesDone = (pattern: string) =>
      page.waitForFunction(
        (source) =>
          ['D2', 'D3'].every((a1) =>
            new RegExp(source).test(document.querySelector(`td[data-cell="${a1}"]`)?.textContent ?? ''),
          ),
        pattern,
        { timeout: 20_000 },
      );
    const panel = await stack().researchPanelOn(2, 3);
    await panel.waitForSelector('#estimate:has-text("2 rows x 10 = 20 credits reserved")');
    expect(await panel.$('#reuse-offer')).toBeNull();
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result :text("Queued 2 tasks at the service")');
    await stack().finishTasks();
    await statusesDone('^Done');

    await panel.click('#use-selection');
    await panel.waitForSelector('#reuse-offer');
    expect(await panel.textContent('#reuse-offer')).toContain(
      'These 2 rows ask 2 questions researched in this spreadsheet in',
    );
    expect(await panel.inputValue('#reuse-days')).toBe('30');
    expect(await panel.isDisabled('#launch')).toBe(true);
    expect(await panel.textContent('label[for="reuse-again"]')).toBe('Research again: 2 tasks, up to 20 credits');
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#reuse-offer').scrollIntoViewIfNeeded();
    await stack().screenshot('research-reuse-offer');

    await panel.check('#reuse-use');
    await panel.waitForSelector('#estimate:has-text("Nothing to pay for")');
    expect(await panel.isDisabled('#launch')).toBe(false);
    const credits = await stack().control.credits('sbx_pro_token');
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result :text("Used earlier results for 2 rows (2 questions, 0 credits)")');
    await statusesDone('^Reused \\(researched \\d{4}-\\d{2}-\\d{2}\\)$');
    expect(await stack().control.credits('sbx_pro_token')).toBe(credits);
    expect(await clippedTexts(panel)).toEqual([]);
  });
});
