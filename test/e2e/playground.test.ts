// The playground host itself: the grid shows room past the data (at least 26 columns and 100 rows, growing with the
// data), a clicked tab makes its sheet the active one, Delete clears a selection, row numbers stay beside their rows
// when the grid scrolls, and toasts appear one at a time and go away by themselves. An alert ("Stop all watches...")
// shows its buttons and its execution waits for the click, in a playground run as `npm start` runs it (issue 36,
// item 6); there, with the Research panel open on a watch, the menu's Pause all, Resume all and Stop all show in the
// panel at its next poll (item 2).
import type { Browser, Page } from 'playwright-core';
import type { SpawnedPlayground } from '../../dev/playground/spawn';
import * as path from 'path';
import { ARTIFACTS, browserOn, describeWithBrowser, researchPanelOn, spawnPlayground, stackForSuite } from './harness';

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

  it('clears a selection with Delete, and keeps each row number beside its row when scrolled (issue 29)', async () => {
    const { page } = stack();
    await page.click('[data-sheet="Notes"]');
    await stack().setCell('Notes', 'C5', 'to clear');
    await stack().setCell('Notes', 'D5', 'too');
    await page.waitForSelector('td[data-cell="D5"]:text-is("too")');
    await page.click('td[data-cell="C5"]');
    await page.click('td[data-cell="D5"]', { modifiers: ['Shift'] });
    await page.keyboard.press('Delete');
    await page.waitForFunction(() =>
      ['C5', 'D5'].every((a1) => document.querySelector(`td[data-cell="${a1}"]`)?.textContent === ''),
    );
    // Scrolled down and sideways: each row number stays beside its row (none piles up under the column letters) and
    // in view on the left.
    const placed = await page.evaluate(() => {
      const wrap = document.getElementById('grid-wrap') as HTMLElement;
      wrap.scrollTop = 400;
      wrap.scrollLeft = 600;
      const box = wrap.getBoundingClientRect();
      const rows = Array.from(document.querySelectorAll('#grid tr')).slice(1, 60);
      const misplaced = rows.filter((tr) => {
        const head = (tr.querySelector('th.row-head') as HTMLElement).getBoundingClientRect();
        const cell = (tr.querySelector('td') as HTMLElement).getBoundingClientRect();
        return Math.abs(head.top - cell.top) > 1;
      }).length;
      const visible = rows.find((tr) => tr.getBoundingClientRect().top > box.top + 30) as HTMLElement;
      const head = (visible.querySelector('th.row-head') as HTMLElement).getBoundingClientRect();
      return { misplaced, left: Math.round(head.left - box.left) };
    });
    expect(placed).toEqual({ misplaced: 0, left: 0 });
  });

  it('shows one toast at a time and dismisses it', async () => {
    const { page, playground } = stack();
    playground.runtime.ui.toasts.push(
      { message: 'first', title: '', timeoutSeconds: 2 },
      { message: 'second', title: 'Sheet Scout', timeoutSeconds: 2 },
    );
    await page.waitForSelector('#toasts .toast:text("Sheet Scout: second")');
    expect(await page.locator('#toasts .toast').count()).toBe(1);
    await page.waitForSelector('#toasts .toast', { state: 'detached' });
  });
});

describeWithBrowser('alerts in the playground', () => {
  let playground: SpawnedPlayground | undefined;
  let browser: Browser | undefined;
  let page: Page;
  beforeAll(async () => {
    playground = await spawnPlayground(['--no-build']);
    ({ browser, page } = await browserOn(playground.url));
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await playground?.stop();
  });

  /** The alerts answered so far, as the playground's emulator recorded them. */
  const answered = () =>
    page.evaluate(async () => {
      const response = await fetch('/api/state');
      if (!response.ok) return null;
      const state = (await response.json()) as { alerts: Array<{ title: string; response: string }> };
      return state.alerts.map((alert) => `${alert.title}: ${alert.response}`);
    });

  it("follows the menu's Pause all and Resume all in an open Research panel, and asks before Stop all", async () => {
    // The browser's clock is driven by the test: the panel's poll (every 15 s while it is open) runs when the test
    // moves it on, never on the machine's speed.
    await page.clock.install();
    const panel = await researchPanelOn(page, 2, 4);
    await panel.check('#output-fields');
    await panel.fill('[aria-label="Field 1 name"]', 'employee_count');
    await panel.click('#watch-section summary');
    await panel.click('#watch-preview');
    await panel.click('#watch-save');
    await panel.waitForSelector('#watch-next:has-text("Next run:")');
    /** The panel's next poll: 15 s on, on the browser's clock. */
    const nextPoll = () => page.clock.fastForward(15_000);

    // Pause all and Resume all from the menu: the open panel reads the watch again at its next poll.
    await page.click('[data-handler="pauseAccountWatches"]');
    await page.waitForSelector('#toasts div:has-text("Paused the watch of \\"Companies\\".")');
    await nextPoll();
    await panel.waitForSelector('#watch-next:text-is("Paused.")');
    expect(await panel.locator('#watch-resume').count()).toBe(1);
    await page.click('[data-handler="resumeAccountWatches"]');
    await page.waitForSelector('#toasts div:has-text("Resumed the watch of \\"Companies\\".")');
    await nextPoll();
    await panel.waitForSelector('#watch-next:has-text("Next run:")');
    expect(await panel.locator('#watch-pause').count()).toBe(1);

    // Stop all asks first, in the page, with its buttons; its execution waits for the answer.
    await page.click('[data-handler="stopAccountWatches"]');
    await page.waitForSelector('#alert:visible');
    expect(await page.textContent('#alert-title')).toBe('Stop all watches');
    expect(await page.textContent('#alert-prompt')).toMatch(/^Stop every account watch of this spreadsheet\?/);
    expect(await page.locator('#alert-buttons button').allTextContents()).toEqual(['Yes', 'No']);
    // The execution waits: nothing was answered and nothing toasted.
    expect(await answered()).toBeNull();
    await stackScreenshot(page, 'playground-alert');

    // No: the execution goes on with NO and stops nothing.
    await page.click('#alert-buttons [data-button="NO"]');
    await page.waitForSelector('#alert', { state: 'hidden' });
    await page.waitForFunction(async () => {
      const response = await fetch('/api/state');
      return response.ok && ((await response.json()) as { alerts: unknown[] }).alerts.length === 1;
    });
    expect(await answered()).toEqual(['Stop all watches: NO']);

    // Yes: the watch No left in place stops (the toast names it), and the open panel shows none at its next poll.
    await page.click('[data-handler="stopAccountWatches"]');
    await page.waitForSelector('#alert:visible');
    await page.click('#alert-buttons [data-button="YES"]');
    await page.waitForSelector('#toasts div:has-text("Stopped the watch of \\"Companies\\".")');
    expect(await answered()).toEqual(['Stop all watches: NO', 'Stop all watches: YES']);
    await nextPoll();
    await panel.waitForSelector('#watch-section summary:text-is("Watch these rows on a schedule")');
    expect(await panel.locator('#watch-status').count()).toBe(0);

    // With no watch left, Stop all says so once answered.
    await page.click('[data-handler="stopAccountWatches"]');
    await page.click('#alert-buttons [data-button="YES"]');
    await page.waitForSelector('#toasts div:has-text("No account watch in this spreadsheet.")');
  });
});

async function stackScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}
