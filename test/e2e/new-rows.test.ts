// "Keep enriching new rows" in the playground's Enrich panel at 300 px: the demo sheet enriched, the section says
// what it will do and turns on; a domain typed under the list is filled by the timer once time moves on (the panel
// closed meanwhile), and the section, opened again, says when it last ran and what it found; research on new rows
// asks for its figures to confirm before anything is saved. Nothing in the section is cut off.
import { describeWithBrowser, stackForSuite } from './harness';
import { clippedTexts } from './layout-check';

const HOUR_MS = 3_600_000;

describeWithBrowser('keeping new rows enriched', () => {
  const stack = stackForSuite();

  it('turns on, fills a row typed under the list with the panel closed, and says when it last ran', async () => {
    const { page, control } = stack();
    let panel = await stack().enrichSheet();
    await panel.click('#enrich-again');
    panel = await stack().sidebar();
    await panel.click('#new-rows > summary');
    await panel.waitForSelector('#new-rows-what');
    expect(await panel.textContent('#new-rows-what')).toMatch(
      /^Rows added under the list of "Companies" .* get Company name, .* within two hours, with every panel closed\. Lookups cost 0 credits\./,
    );
    await panel.click('#new-rows-on');
    await panel.waitForSelector('#new-rows-status');
    expect(await panel.textContent('#new-rows-status')).toMatch(/^On since .*: new rows of "Companies"/);

    // A company typed under the list, the panel closed, an hour on.
    const shown = await stack().columnA();
    const newcomer = (await control.companies(300)).find((company) => !shown.includes(company.domain));
    expect(newcomer).toBeDefined();
    const last = shown.filter((text) => text !== '').length;
    await page.click('#sidebar-close');
    await stack().setCell('Companies', `A${last + 1}`, newcomer!.domain);
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/time')),
      page.click(`[data-advance="${HOUR_MS}"]`),
    ]);
    await page.waitForSelector(`td[data-cell]:text-is("${newcomer!.name}")`);

    panel = await stack().openPanel('showEnrichPanel');
    await panel.click('#new-rows > summary');
    await panel.waitForSelector('#new-rows-found');
    expect(await panel.textContent('#new-rows-found')).toMatch(/^Last new rows .*: 1 row found, 1 filled\.$/);
    expect(await panel.textContent('#new-rows-checks')).toMatch(
      /^Last check .*\. Next check after .* \(checks run about hourly, with the panels closed\)\.$/,
    );
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#new-rows > summary').evaluate((summary) => summary.scrollIntoView({ block: 'start' }));
    await stack().screenshot('new-rows-1-on');

    // Research on new rows: the figures first, nothing saved until they are confirmed.
    await panel.click('#new-rows-research summary');
    await panel.fill('#new-rows-limit', '50');
    await panel.click('#new-rows-research-check');
    await panel.waitForSelector('#new-rows-research-cost');
    expect(await panel.textContent('#new-rows-research-cost')).toMatch(
      /^Up to 10 credits a row, at most 50 credits a month \(5 rows\)/,
    );
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#new-rows-research-save').scrollIntoViewIfNeeded();
    await stack().screenshot('new-rows-2-research');
  });
});
