// Custom functions in the playground: share the token with the spreadsheet's formulas from Settings, type
// =COMPANY_LOOKUP over a range of the demo sheet into the grid, and see the normalized, spilled result; then freeze it.
import { describeWithBrowser, stackForSuite } from './harness';

describeWithBrowser('custom functions in the playground', () => {
  const stack = stackForSuite();

  it('types =COMPANY_LOOKUP into the grid and sees the spilled rows, then freezes them to values', async () => {
    const { page } = stack();
    const settings = await stack().openPanel('showSettingsPanel');
    // The playground starts with the demo token shared with formulas; untick and tick it again as a user would.
    expect(await settings.isChecked('#share-formulas')).toBe(true);
    await settings.uncheck('#share-formulas');
    await settings.waitForSelector(':text("Formulas no longer use your token.")');
    await settings.check('#share-formulas');
    await settings.waitForSelector(':text("Formulas in this spreadsheet now use your token.")');

    await page.click('[data-sheet="Companies"]');
    const typed = await Promise.all(
      ['A2', 'A3', 'A4', 'A5', 'A6'].map(async (cell) =>
        ((await page.textContent(`td[data-cell="${cell}"]`)) ?? '').trim(),
      ),
    );
    await page.dblclick('td[data-cell="E2"]');
    await page.fill('td[data-cell="E2"] input', '=COMPANY_LOOKUP(A2:A6, "domain,company_name")');
    await page.press('td[data-cell="E2"] input', 'Enter');
    await page.waitForFunction(() => (document.querySelector('td[data-cell="F6"]')?.textContent ?? '') !== '');
    const domains = await Promise.all(
      ['E2', 'E3', 'E4', 'E5', 'E6'].map(async (cell) => (await page.textContent(`td[data-cell="${cell}"]`)) ?? ''),
    );
    const expected = typed.map((text) =>
      text
        .toLowerCase()
        .replace(/^https?:\/\//, '')
        .replace(/^www\./, '')
        .replace(/^.*@/, '')
        .replace(/\/.*$/, ''),
    );
    expect(domains).toEqual(expected);
    const names = await Promise.all(
      ['F2', 'F3', 'F4', 'F5', 'F6'].map(async (cell) => (await page.textContent(`td[data-cell="${cell}"]`)) ?? ''),
    );
    expect(names.every((name) => name.length > 0)).toBe(true);
    await stack().screenshot('functions-1-lookup-spilled');

    await page.click('td[data-cell="E2"]');
    await page.click('[data-handler="freezeFormulasToValues"]');
    await page.waitForFunction(
      () => (document.getElementById('cell-content')?.textContent ?? '').startsWith('=') === false,
    );
    expect(await page.textContent('td[data-cell="E2"]')).toBe(domains[0]);
    expect(await page.textContent('td[data-cell="F6"]')).toBe(names[4]);
    await stack().screenshot('functions-2-frozen');
  }, 60_000);
});
