// Company search in the playground: describe a market with two filters, insert into a new sheet and see the rows in
// the grid; then a lookalike search prefilled from a selected cell.
import { describeWithBrowser, stackForSuite } from './harness';

describeWithBrowser('company search panel in the playground', () => {
  const stack = stackForSuite();

  it('describes a market with two filters and inserts the results into a new sheet', async () => {
    const { page } = stack();
    const panel = await stack().openPanel('showSearchPanel');
    await panel.waitForSelector('#credits-badge:text("500 credits")');
    await panel.fill('#search-query', 'software');
    await panel.fill('[aria-label="Countries to include"]', 'United States');
    await panel.press('[aria-label="Countries to include"]', 'Enter');
    await panel.fill('[aria-label="Founded from"]', '2000');
    await panel.fill('#search-count', '30');
    await panel.click('#search-run');
    await panel.waitForSelector('#search-preview h2:has-text("30 results")');
    const countries = await panel.locator('#search-preview .result [data-col="country"]').allTextContents();
    expect(countries.length).toBe(30);
    expect(new Set(countries)).toEqual(new Set(['United States']));
    await stack().screenshot('search-1-preview');

    await panel.click('#search-insert');
    await panel.waitForSelector('#search-write-status :text("30 companies written to \\"Search: software\\"")');
    // The new sheet is shown without a click (issue 29).
    await page.waitForSelector('[data-sheet="Search: software"].active');
    await page.waitForSelector('td[data-cell="A31"]');
    expect(await page.textContent('td[data-cell="A1"]')).toBe('Company');
    expect(await page.textContent('td[data-cell="C1"]')).toBe('Country');
    const grid = await page.locator('td[data-cell^="C"]').allTextContents();
    expect(grid.slice(1, 31)).toEqual(Array.from({ length: 30 }, () => 'United States'));
    expect(await page.getAttribute('td[data-cell="A1"]', 'title')).toContain('Describe: software');
    await stack().screenshot('search-2-new-sheet');

    // The new sheet is active and came from a search (its filters summed up by the server): "Run again" finds nothing
    // new to add.
    await panel.waitForSelector('.saved-box .muted:has-text("country United States; founded 2000–…")');
    await panel.click('#search-rerun');
    await panel.waitForSelector(
      '#search-rerun-status :text("0 companies written to \\"Search: software\\"; 30 already there, skipped.")',
    );
  });

  it('prefills "Similar to" from the selected cell and inserts lookalikes', async () => {
    const { page } = stack();
    await page.click('[data-sheet="Companies"]');
    const domain = ((await page.textContent('td[data-cell="A2"]')) ?? '').trim().toLowerCase();
    await page.click('td[data-cell="A2"]');
    const panel = await stack().openPanel('showSearchPanel');
    await panel.click('#mode-similar');
    await panel.waitForFunction(
      (expected) => (document.getElementById('search-reference') as HTMLInputElement | null)?.value === expected,
      domain,
    );
    expect(await panel.textContent('#search-reference + .muted')).toBe('From the selected cell');
    await panel.fill('#search-count', '10');
    await panel.click('#search-run');
    await panel.waitForSelector('#search-preview h2:has-text("10 results")');
    const domains = await panel.locator('#search-preview .result [data-col="domain"]').allTextContents();
    expect(domains).not.toContain(domain);
    await panel.click('#search-insert');
    await panel.waitForSelector(
      `#search-write-status :text("10 companies written to \\"Search: similar to ${domain}\\"")`,
    );
    await page.waitForSelector(`[data-sheet="Search: similar to ${domain}"].active`);
    await page.waitForSelector('td[data-cell="B11"]');
    expect(await page.textContent('td[data-cell="B2"]')).toBe(domains[0]);
    await stack().screenshot('search-3-lookalike');
  });
});

describeWithBrowser('company search exclude list in the playground', () => {
  const stack = stackForSuite();

  it('counts pasted and sheet domains, lists invalid ones, and over 1,000 sends only after the user accepts the most recent', async () => {
    const panel = await stack().openPanel('showSearchPanel');
    await panel.click('summary:has-text("Exclude domains")');
    await panel.fill('[aria-label="Pasted domains to exclude"]', 'acme.com\nhttps://ACME.com/');
    await panel.waitForSelector('text="1 domain to exclude (1 duplicate removed)"');
    await panel.check('text=Exclude companies already in “Companies”');
    await panel.waitForSelector('.source:has-text("Already in Companies")');
    const fromSheet = Number(
      (await panel.textContent('.source:has-text("Already in Companies") span'))?.split(': ')[1],
    );
    expect(fromSheet).toBeGreaterThan(40);
    await panel.waitForSelector('text=/Not domains in Already in Companies .*not a domain/');

    const pasted = Array.from({ length: 1005 }, (_, i) => `https://www.excluded-${i}.com/`).join('\n');
    await panel.fill('[aria-label="Pasted domains to exclude"]', `${pasted}\nEXCLUDED-3.com\nnope nope`);
    const total = fromSheet + 1005;
    await panel.waitForSelector(
      `text=/^${total.toLocaleString('en-US')} domains to exclude \\(\\d+ duplicates removed\\)$/`,
    );
    await panel.waitForSelector(
      `text=${total.toLocaleString('en-US')} domains to exclude: the service takes at most 1,000.`,
    );
    await panel.waitForSelector('text=/Not domains in Pasted list .*nope/');
    await panel.fill('#search-query', 'software');
    const { httpLog } = stack().playground.runtime;
    const sentBefore = httpLog.length;
    await panel.click('#search-run');
    await panel.waitForSelector('[data-field="excludeDomains"]:has-text("the service takes at most 1,000")');
    expect(httpLog.length).toBe(sentBefore);
    await stack().screenshot('search-4-over-limit');

    await panel.click('button:has-text("Use the 1,000 most recent")');
    await panel.waitForSelector(`text=Using the 1,000 most recent of ${total.toLocaleString('en-US')} domains.`);
    await panel.click('#search-run');
    await panel.waitForSelector('#search-preview h2:has-text("100 results")');
    const search = httpLog.filter((entry) => entry.url.endsWith('/v1/companies/search')).pop();
    const domains = (JSON.parse(search?.body ?? '{}') as { filters: { exclude: { domains: string[] } } }).filters
      .exclude.domains;
    expect(domains).toHaveLength(1000);
    expect(domains[0]).toBe('excluded-6.com'); // excluded-3 moved to the end, so 0, 1, 2, 4 and 5 are the oldest
    expect(domains[999]).toBe('excluded-3.com');
  });
});
