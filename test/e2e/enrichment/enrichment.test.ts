// Bulk enrichment in the playground: enrich the demo sheet's domains from the sidebar and watch the bar reach 100 %;
// then a second run over newly typed domains that are still being enriched at the service, during which the user
// sorts the sheet; every row's fields must belong to its own domain.
import type { SeededCompany } from '../../../dev/sandbox/control-client';
import { describeWithBrowser, startStack, type Stack } from '../harness';

/** The registered domain a demo cell holds (URLs, e-mails and odd case as the demo writes them). */
function domainOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/^.*@/, '')
    .replace(/\/.*$/, '');
}

describeWithBrowser('bulk enrichment panel in the playground', () => {
  let stack: Stack;
  let names: Map<string, string>;
  let pending: SeededCompany[];

  beforeAll(async () => {
    stack = await startStack();
    const all = await stack.control.companies(200);
    pending = await stack.control.companies(3, false);
    names = new Map([...all, ...pending].map((company) => [company.domain, company.name]));
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** Cell texts of the shown sheet, by A1 name. */
  async function grid(): Promise<Map<string, string>> {
    const cells = await stack.page.$$eval('td[data-cell]', (tds) =>
      tds.map((td) => [td.getAttribute('data-cell') ?? '', td.textContent ?? ''] as [string, string]),
    );
    return new Map(cells);
  }

  /** Checks that the "Company name" column holds, in every row, the name of the company whose domain is in column A. */
  async function expectOwnNames(): Promise<number> {
    const cells = await grid();
    const header = [...cells].find(([a1, text]) => /^[A-Z]+1$/.test(a1) && text === 'Company name');
    expect(header).toBeDefined();
    const column = header![0].replace('1', '');
    let checked = 0;
    for (let row = 2; cells.has(`A${row}`); row++) {
      const expected = names.get(domainOf(cells.get(`A${row}`) ?? ''));
      if (!expected) continue;
      expect([row, cells.get(`${column}${row}`)]).toEqual([row, expected]);
      checked++;
    }
    return checked;
  }

  it('enriches the demo sheet from the sidebar, then keeps rows right when the sheet is sorted mid-run', async () => {
    const { page } = stack;
    await page.click('td[data-cell="A1"]');
    let panel = await stack.openPanel('showEnrichPanel');
    await panel.waitForSelector('#enrich-preview');
    expect(await panel.textContent('#enrich-preview')).toContain('0 credits');
    // Two quick field clicks, the second before the first's preview answers: both count (issue 29).
    const before = await panel.isChecked('[data-field="linkedin"]');
    /** Clicks both boxes at once (no wait between), then lets every preview answer and says both ended `expected`. */
    const clickBoth = async (expected: boolean) => {
      await panel.evaluate(() => {
        for (const key of ['linkedin', 'twitter'])
          (document.querySelector(`[data-field="${key}"]`) as HTMLInputElement).click();
      });
      await panel.waitForFunction(
        (wanted) =>
          ['linkedin', 'twitter'].every(
            (key) => (document.querySelector(`[data-field="${key}"]`) as HTMLInputElement | null)?.checked === wanted,
          ) && document.querySelector('#enrich-preview') !== null,
        expected,
      );
      await new Promise((done) => setTimeout(done, 1500));
      expect(await panel.isChecked('[data-field="linkedin"]')).toBe(expected);
      expect(await panel.isChecked('[data-field="twitter"]')).toBe(expected);
    };
    await clickBoth(!before);
    // Back as they were, for the rest of the test.
    await clickBoth(before);
    await stack.screenshot('enrich-1-preview');
    await panel.click('#enrich-start');
    await panel.waitForSelector('#enrich-progress[aria-valuenow="100"]');
    expect(await panel.textContent('#enrich-status')).toBe('Done');
    await page.waitForSelector('td[data-cell="D1"]:text("Company name")');
    expect(await expectOwnNames()).toBeGreaterThan(40);
    expect(await page.textContent('td[data-cell="A1"]')).toBe('Domain');
    await stack.screenshot('enrich-2-done');

    // Second run: the user types three domains the service has not enriched yet (202), starts the job, and sorts the
    // sheet while it waits for them; then time moves on and the job finishes.
    const cells = await grid();
    let lastRow = 1;
    while (cells.has(`A${lastRow + 1}`)) lastRow++;
    for (const [i, company] of pending.entries()) {
      await stack.setCell('Companies', `A${lastRow + 1 + i}`, i === 0 ? company.domain.toUpperCase() : company.domain);
    }
    await page.waitForSelector(
      `td[data-cell="A${lastRow + 3}"]:text-matches("${pending[2].domain.replace(/\./g, '\\.')}", "i")`,
    );
    await panel.click('#enrich-again');
    panel = await stack.sidebar();
    await panel.waitForSelector('#enrich-preview');
    expect(await panel.textContent('#enrich-preview')).toContain('Domains to look up3');
    await panel.click('#enrich-start');
    await panel.waitForSelector('[data-count="Still being enriched by the service"]:text("3")');
    await stack.screenshot('enrich-3-waiting');
    await page.click('td[data-cell="A2"]');
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/rows')),
      page.click('#sort-rows'),
    ]);
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/time')),
      page.click('[data-advance="3600000"]'),
    ]);
    await panel.waitForSelector('#enrich-progress[aria-valuenow="100"]');
    await page.waitForFunction(
      (domain) =>
        Array.from(document.querySelectorAll('td[data-cell^="A"]')).some(
          (td) => (td.textContent ?? '').toLowerCase() === domain,
        ),
      pending[1].domain,
    );
    expect(await expectOwnNames()).toBeGreaterThan(43);
    const after = await grid();
    for (const company of pending) {
      const row = [...after]
        .find(([a1, text]) => a1.startsWith('A') && text.toLowerCase() === company.domain)?.[0]
        .slice(1);
      expect(after.get(`D${row}`)).toBe(company.name);
    }
    await stack.screenshot('enrich-4-sorted-done');
  });
});
