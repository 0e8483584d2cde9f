// The Research panel as a new user meets it (issue 14): the launch's answer next to the button with "Show in sheet",
// the cost line following what was spent, a field's column following its name, one numbered source list in the
// report, and "Write to selected row" asking before it writes another company's report into a row.
import { describeWithBrowser, stackForSuite } from '../harness';

describeWithBrowser('research panel: the first hour', () => {
  const stack = stackForSuite();

  it("shows what is written, answers where the user looks, and asks before writing another company's report", async () => {
    const { page } = stack();
    const panel = await stack().researchPanelOn(2, 3);

    // The field builder's column box follows the field's name: what is shown is what is written.
    await panel.check('#output-fields');
    await panel.click('#add-field');
    await panel.fill('[aria-label="Field 2 name"]', 'main_product');
    expect(await panel.inputValue('[aria-label="Field 2 column"]')).toBe('main_product');
    await panel.press('[aria-label="Field 2 name"]', 'Tab');
    expect(await panel.inputValue('[aria-label="Field 2 column"]')).toBe('main_product');
    // A column the user typed stays theirs.
    await panel.fill('[aria-label="Field 2 column"]', 'Product');
    await panel.fill('[aria-label="Field 2 name"]', 'main_products');
    expect(await panel.inputValue('[aria-label="Field 2 column"]')).toBe('Product');
    await panel.check('#output-report');

    // The launch answers under the button, in view; the cost line follows the credits spent.
    await panel.waitForSelector('#estimate:has-text("of 500 available")');
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result :text("Queued 2 tasks at the service")');
    expect(await panel.locator('#launch-result').isVisible()).toBe(true);
    const box = await panel.locator('#launch-result').boundingBox();
    const button = await panel.locator('#launch').boundingBox();
    expect(box!.y).toBeGreaterThan(button!.y);
    await panel.waitForSelector('#estimate:has-text("of 480 available")');
    await panel.waitForSelector('#credits-badge:has-text("480 credits")');
    // "Show in sheet" selects the status cells of the launched rows.
    await panel.click('#show-in-sheet');
    await page.waitForSelector('td[data-cell="D2"].selected');
    expect(await page.locator('td[data-cell="D3"].selected').count()).toBe(1);
    expect(await page.locator('td[data-cell="A2"].selected').count()).toBe(0);
    await stack().screenshot('research-first-hour-1-launched');

    // Tasks finish; the report shows one numbered list of sources.
    await page.click('[data-advance="3600000"]');
    await page.waitForFunction(() => /^Done/.test(document.querySelector('td[data-cell="D3"]')?.textContent ?? ''));
    await page.click('td[data-cell="A2"]');
    await panel.click('#tab-report');
    await panel.waitForSelector('#report-html h1');
    // The report quotes its brief: it is not shown a second time above it (issue 29).
    expect(await panel.locator('#report-brief').count()).toBe(0);
    expect(await panel.textContent('#report-html')).toContain('Brief: Research');
    expect(await panel.locator('h2:text-is("Sources")').count()).toBe(1);
    expect(await panel.locator('#report-html :text-matches("^\\\\[1\\\\] https?://")').count()).toBe(0);
    expect(await panel.locator('#report-sources li').count()).toBeGreaterThan(0);
    await stack().screenshot('research-first-hour-2-report');

    // Row 2's task written into row 3 (another company): the question names both, and nothing is written before.
    const rowTwoDomain = ((await page.textContent('td[data-cell="A2"]')) ?? '').trim();
    const rowThreeReport = ((await page.textContent('td[data-cell="E3"]')) ?? '').trim();
    await page.click('td[data-cell="A3"]');
    await panel.click('#tab-tasks');
    const entry = panel
      .locator('.task', { hasText: `Research ${rowTwoDomain}` })
      .filter({ has: panel.locator('button:text("Write to selected row")') });
    await entry.locator('button:text("Write to selected row")').click();
    await panel.waitForSelector(`#write-question:has-text("This task is about")`);
    // The question is in view without scrolling (issue 29).
    expect(
      await panel.$eval('#write-question', (question) => {
        const box = question.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight + 1;
      }),
    ).toBe(true);
    const question = (await panel.textContent('#write-question')) ?? '';
    expect(question).toContain(`(${rowTwoDomain}), but row 3 holds`);
    expect(((await page.textContent('td[data-cell="E3"]')) ?? '').trim()).toBe(rowThreeReport);
    await stack().screenshot('research-first-hour-3-question');
    await panel.click('#write-question button:text("Write anyway")');
    await panel.waitForSelector(`.task .message:has-text("Wrote the report into row 3")`);
    await page.waitForFunction(
      (domain) => (document.querySelector('td[data-cell="E3"]')?.textContent ?? '').includes(domain),
      rowTwoDomain,
    );
  });

  it('leaves a blank selected row out of the cost, as the launch skips it (issue 29)', async () => {
    const { page } = stack();
    await page.click('[data-sheet="Companies"]');
    // Row 9 of the demo sheet is blank.
    expect((await page.textContent('td[data-cell="A9"]'))?.trim()).toBe('');
    const panel = await stack().researchPanelOn(8, 10);
    await panel.selectOption('#depth', 'medium');
    await panel.waitForSelector('#estimate:has-text("(1 blank row skipped)")');
    expect(await panel.textContent('#estimate')).toMatch(/^2 rows x 10 = 20 credits reserved/);
    expect(await panel.textContent('#launch')).toBe('Research 2 rows');
  });
});
