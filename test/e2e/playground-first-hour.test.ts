// The playground as a demo and test bed (issue 14): a spill collision's #REF! carries Sheets' message on hover, a
// double-click opens the editor even when the grid refreshes in the middle of it, and a service address pointing at
// the playground itself is refused at once with a clear message instead of freezing the page.
import { describeWithBrowser, stackForSuite } from './harness';

describeWithBrowser('playground: error messages, double-click, its own address', () => {
  const stack = stackForSuite();

  it("shows Sheets' message on a spill collision's #REF!", async () => {
    const { page } = stack();
    await page.click('[data-sheet="Notes"]');
    await stack().setCell('Notes', 'C5', 'in the way');
    await stack().setCell('Notes', 'B5', '=COMPANY_LOOKUP(Companies!A2)');
    // A locator, not an element handle: the grid is rebuilt at every state refresh, and a locator finds the cell again.
    const cell = page.locator('td[data-cell="B5"]:text-is("#REF!")');
    await cell.waitFor();
    expect(await cell.getAttribute('title')).toBe(
      'Array result was not expanded because it would overwrite data in C5.',
    );
    await cell.hover();
    expect(await cell.getAttribute('class')).toContain('error');
  });

  it('opens the cell editor on a double-click even when the grid refreshes between its press and release', async () => {
    const { page } = stack();
    await page.click('[data-sheet="Notes"]');
    for (const a1 of ['D8', 'E9', 'F10', 'G11', 'H12']) {
      // The grid is rebuilt on every state refresh: a cell found just before a rebuild has no box, so look again.
      let box = await page.locator(`td[data-cell="${a1}"]`).boundingBox();
      for (let attempt = 0; !box && attempt < 20; attempt++) {
        await page.waitForTimeout(50);
        box = await page.locator(`td[data-cell="${a1}"]`).boundingBox();
      }
      if (!box) throw new Error(`cell ${a1} is not shown`);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.up();
      await page.mouse.down({ clickCount: 2 });
      // A state refresh lands while the button is down (the page polls every 1.5 s; here it is forced).
      await page.evaluate(() => window.postMessage({ playground: 'changed' }, '*'));
      await page.waitForTimeout(300);
      await page.mouse.up({ clickCount: 2 });
      await page.waitForSelector(`td[data-cell="${a1}"] input`);
      await page.keyboard.type(`typed ${a1}`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`td[data-cell="${a1}"]:text-is("typed ${a1}")`);
    }
  });

  it("refuses the playground's own address as the service address at once, saying where the sandbox is", async () => {
    const { page } = stack();
    const panel = await stack().openPanel('showSettingsPanel');
    await panel.waitForSelector('#account-email');
    await panel.click('summary');
    await panel.fill('#token', 'sbx_pro_token');
    await panel.fill('#base-url', stack().playground.url);
    const requestsBefore = stack().playground.runtime.httpLog.length;
    await panel.click('#save');
    await panel.waitForSelector('text=is this playground, not a Sheet Scout service');
    // At once: refused before any request (one to the playground itself would wait out UrlFetch's timeout).
    expect(
      stack()
        .playground.runtime.httpLog.slice(requestsBefore)
        .map((entry) => entry.url),
    ).toEqual([]);
    expect(await panel.textContent('.message.error')).toContain(`the sandbox service is at ${stack().sandboxUrl}`);
    // The page stayed live: the grid still answers.
    await page.click('td[data-cell="A1"]');
    await page.waitForSelector('td[data-cell="A1"].selected');
  });
});
