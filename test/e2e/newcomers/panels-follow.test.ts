// Every open panel follows changes made elsewhere within one poll (issue 48, point 2), at 300 px, with the browser's
// clock driven by the test (a poll runs when the test moves it on, never on the machine's speed): the Research panel
// after its own Pause and the menu's Resume all shows the watch running, with no word of the pause left; its "Stop
// watching" asks first, as the menu's Stop all does (No keeps the watch, Yes stops it); the timer's run of a watch
// shows in the open panel; and an open Settings panel shows the cap another editor changed.
import type { Frame } from 'playwright-core';
import { describeWithBrowser, followingChanges, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { WatchAnswer } from '../../../src/research/contract';

const DAY_MS = 86_400_000;
const COLLEAGUE = 'colleague@sheetscout.test';

describeWithBrowser('open panels follow changes made elsewhere', () => {
  const stack = stackForSuite();
  /** The panels' next poll: 15 s on, on the browser's clock. */
  const nextPoll = () => stack().page.clock.fastForward(15_000);

  /** Saves a weekly watch of rows 2-4 from the Research panel: the panel. */
  async function watchRows(): Promise<Frame> {
    const panel = await stack().researchPanelOn(2, 4);
    await panel.check('#output-fields');
    await panel.fill('[aria-label="Field 1 name"]', 'employee_count');
    await panel.click('#watch-section summary');
    await panel.click('#watch-preview');
    await panel.click('#watch-save');
    await panel.waitForSelector('#watch-next:has-text("Next run:")');
    await followingChanges(panel);
    return panel;
  }

  it("shows the menu's Resume all after the panel's own Pause, with nothing of the pause left", async () => {
    const { page } = stack();
    await page.clock.install();
    const panel = await watchRows();
    await panel.click('#watch-pause');
    await panel.waitForSelector('#watch-section .message:has-text("Paused the watch")');
    await page.click('[data-handler="resumeAccountWatches"]');
    await page.waitForSelector('#toasts div:has-text("Resumed the watch of \\"Companies\\".")');
    await nextPoll();
    await panel.waitForSelector('#watch-next:has-text("Next run:")');
    expect(await panel.locator('#watch-pause').count()).toBe(1);
    expect(await panel.textContent('#watch-section')).not.toMatch(/Paused/);
  });

  it('asks before "Stop watching": No keeps the watch, Yes stops it', async () => {
    const { playground } = stack();
    const panel = await stack().sidebar();
    const watch = () => playground.runtime.run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar' }).watch;
    await panel.click('#watch-stop');
    await panel.waitForSelector('#watch-stop-question');
    expect(await panel.textContent('#watch-stop-question')).toMatch(
      /^Stop this watch\? Its Signals and values stay in the rows; no run starts again\. To stop it for a while only, use Pause\./,
    );
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#watch-stop-question').scrollIntoViewIfNeeded();
    await stack().screenshot('watch-stop-question');
    expect(watch()?.status).toBe('active');
    await panel.click('#watch-stop-no');
    await panel.waitForSelector('#watch-stop-question', { state: 'detached' });
    expect(watch()?.status).toBe('active');
    await panel.click('#watch-stop');
    await panel.click('#watch-stop-yes');
    await panel.waitForSelector('#watch-section :text("Stopped the watch")');
    expect(watch()).toBeNull();
  });

  it("shows the timer's run of a watch in the open panel at its next poll", async () => {
    const { page } = stack();
    const panel = await watchRows();
    expect(await panel.textContent('#watch-last')).toBe('Not run yet.');
    // The timer runs the watch a week on (the panel asks the server nothing meanwhile), then collects its results.
    await stack().advanceTime(8 * DAY_MS);
    await stack().finishTasks();
    await page.waitForFunction(() =>
      ['2', '3', '4'].every((row) =>
        Array.from(document.querySelectorAll(`td[data-cell$="${row}"]`)).some((cell) =>
          /^Done/.test(cell.textContent ?? ''),
        ),
      ),
    );
    await nextPoll();
    await panel.waitForSelector('#watch-last:has-text("Last run")');
  });

  it('shows in an open Settings panel the cap another editor set', async () => {
    const { playground, sandboxUrl } = stack();
    const settings = await stack().openPanel('showSettingsPanel');
    await settings.waitForSelector('#cap-spent');
    expect(await settings.inputValue('#cap-daily')).toBe('');
    await followingChanges(settings);
    const colleague = playground.runtime.properties.user(COLLEAGUE);
    colleague.set(SETTINGS_KEYS.baseUrl, sandboxUrl);
    colleague.set(SETTINGS_KEYS.token, 'sbx_pro2_token');
    const answer = playground.runtime.run<{ ok: boolean }>('setSpendingGuard', [{ daily: 25, monthly: null }], {
      kind: 'sidebar',
      user: COLLEAGUE,
    });
    expect(answer.ok).toBe(true);
    await nextPoll();
    await settings.waitForSelector('#cap-owner:has-text("pro2@")');
    expect(await settings.inputValue('#cap-daily')).toBe('25');
    const spent = Number(/^Spent today (\d+)/.exec((await settings.textContent('#cap-spent')) ?? '')?.[1]);
    expect(await settings.textContent('#cap-spent')).toMatch(new RegExp(`; ${25 - spent} left$`));
    expect(await settings.textContent('#cap-owner')).toMatch(/^Set by pro2@sandbox\.example\.com/);
  });
});
