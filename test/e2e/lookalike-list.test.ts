// "Similar to a list" in the playground: select ten customer domains, take them as references, exclude the companies
// already in the sheet, read the cost and limits, run, and find the merged ranking in a new sheet with its score and
// similar-to columns after the chosen company columns, none of the sheet's own companies among it.
import { describeWithBrowser, stackForSuite } from './harness';

describeWithBrowser('similar to a list in the playground', () => {
  const stack = stackForSuite();

  it('runs lookalikes of the selected customers and writes the merged ranking into a new sheet', async () => {
    const { page, playground } = stack();
    await page.click('[data-sheet="Companies"]');
    await page.click('td[data-cell="A2"]');
    await page.click('td[data-cell="A11"]', { modifiers: ['Shift'] });
    const panel = await stack().openPanel('showSearchPanel');
    await panel.click('#mode-list');
    await panel.waitForSelector('#list-plan :text("Choose the references first")');
    await panel.click('#list-use-selection');
    await panel.waitForSelector('#list-references .count:has-text("from Companies!A2:A11")');
    const references = Number(((await panel.textContent('#list-references .count')) ?? '').split(' ')[0]);
    expect(references).toBeGreaterThanOrEqual(5);

    await panel.click('summary:has-text("Exclude domains")');
    await panel.check('text=Exclude companies already in “Companies”');
    await panel.waitForSelector('.source:has-text("Already in Companies")');
    for (const key of ['city', 'founded', 'relevance', 'short_description'])
      await panel.uncheck(`#list-run-part input[value="${key}"]`);
    await panel.fill('#list-per-reference', '50');
    await panel.fill('#list-top', '30');
    await panel.dispatchEvent('#list-per-reference', 'input');
    await panel.waitForSelector(`#list-plan li:has-text("${references} requests: ${references} references × 1 page")`);
    await panel.waitForSelector('#list-plan li:has-text("50 results per reference; your plan reaches 2,000")');
    await panel.waitForSelector('#list-plan li:has-text("(references included), sent as the service\'s filter")');
    await stack().screenshot('lookalike-list-1-plan');

    const sentBefore = playground.runtime.httpLog.length;
    await panel.click('#list-run');
    await panel.waitForSelector(
      `#list-status :text("30 companies written to \\"Lookalikes: ${references} companies\\"")`,
    );
    const similarCalls = playground.runtime.httpLog.slice(sentBefore).filter((entry) => entry.url.endsWith('/similar'));
    expect(similarCalls).toHaveLength(references);
    await panel.locator('#list-status').scrollIntoViewIfNeeded();
    await stack().screenshot('lookalike-list-2-result');

    await page.waitForSelector(`[data-sheet="Lookalikes: ${references} companies"].active`);
    await page.waitForSelector('td[data-cell="B31"]');
    const header = await Promise.all(
      ['A1', 'B1', 'C1', 'D1', 'E1', 'F1'].map((cell) => page.textContent(`td[data-cell="${cell}"]`)),
    );
    expect(header).toEqual(['Company', 'Domain', 'Country', 'Employees', 'Match score (0-100)', 'Similar to']);
    expect(Number(await page.textContent('td[data-cell="E2"]'))).toBeGreaterThanOrEqual(
      Number(await page.textContent('td[data-cell="E31"]')),
    );
    expect(await page.textContent('td[data-cell="F2"]')).toMatch(
      new RegExp(`^\\d+ of your ${references}: [a-z0-9.-]+ \\(#\\d+\\)`),
    );
    const written = (await page.locator('td[data-cell^="B"]').allTextContents()).slice(1, 31);
    const companies = playground.runtime.spreadsheet
      .sheet('Companies')
      .getValues()
      .flat()
      .map((value) => String(value).trim().toLowerCase());
    for (const domain of written) expect(companies).not.toContain(domain);
    await stack().screenshot('lookalike-list-3-sheet');
  });
});
