// The playground host itself: the grid shows room past the data (at least 26 columns and 100 rows, growing with the
// data), a clicked tab makes its sheet the active one, and toasts appear one at a time and go away by themselves.
import { describeWithBrowser, stackForSuite } from './harness';

jest.setTimeout(90_000);

describeWithBrowser('playground grid and toasts', () => {
  const stack = stackForSuite();

  it('shows at least 26 columns and 100 rows, and grows past data typed beyond them', async () => {
    const { page, playground } = stack();
    await page.waitForSelector('td[data-cell="Z100"]');
    const sheet = playground.runtime.spreadsheet.sheet('Companies');
    sheet.maxColumns = 40; // as after Insert columns
    sheet.setValues('AD150', [['far away']]);
    await page.waitForSelector('td[data-cell="AI170"]');
    expect(await page.locator('td[data-cell="AJ1"]').count()).toBe(0);
    expect(await page.textContent('td[data-cell="AD150"]')).toBe('far away');
  });

  it('makes the sheet of a clicked tab the active one, as Sheets does (issue 29)', async () => {
    const { page, playground } = stack();
    await page.click('[data-sheet="Notes"]');
    await page.waitForFunction(() => document.querySelector('[data-sheet="Notes"]')?.className === 'active');
    const activeSheet = async (name: string) => {
      for (let waited = 0; waited < 5000 && playground.runtime.spreadsheet.activeSheet.name !== name; waited += 50)
        await new Promise((done) => setTimeout(done, 50));
      return playground.runtime.spreadsheet.activeSheet.name;
    };
    expect(await activeSheet('Notes')).toBe('Notes');
    await page.click('[data-sheet="Companies"]');
    expect(await activeSheet('Companies')).toBe('Companies');
  });

  it('shows one toast at a time and dismisses it', async () => {
    const { page, playground } = stack();
    playground.runtime.ui.toasts.push(
      { message: 'first', title: '', timeoutSeconds: 2 },
      { message: 'second', title: 'Sheet Scout', timeoutSeconds: 2 },
    );
    await page.waitForSelector('#toasts .toast:text("Sheet Scout: second")');
    expect(await page.locator('#toasts .toast').count()).toBe(1);
    await page.waitForSelector('#toasts .toast', { state: 'detached', timeout: 6000 });
  });
});
