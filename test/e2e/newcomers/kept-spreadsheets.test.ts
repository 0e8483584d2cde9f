// Settings > "Spreadsheets Sheet Scout keeps current" (issue 48, point 4), at 300 px: with new rows kept enriched and
// a weekly refresh saved, this spreadsheet's entry lists each work its timer keeps and its state as it is (new rows
// checked at every run of the timer until their first check, then their next check; the refresh's next run; never
// "running now" where nothing runs, opening a panel included) and how often its timer runs; each time is held against
// the record the server keeps (the schedule, the new rows' next check) and the timer against the emulator's trigger.
import type { Frame } from 'playwright-core';
import { describeWithBrowser, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';
import type { RefreshScheduleAnswer } from '../../../src/enrichment/contract';
import type { NewRowsAnswer } from '../../../src/new-rows/contract';

jest.setTimeout(150_000);

const HOUR_MS = 3_600_000;

describeWithBrowser('the spreadsheets Sheet Scout keeps current', () => {
  const stack = stackForSuite();

  /** A time as the panels show it, in the spreadsheet's time zone (sidebar/ui/spreadsheet-time.ts). */
  const shown = (frame: Frame, ms: number) =>
    frame.evaluate(
      ([at, timeZone]) =>
        new Date(at).toLocaleString(undefined, {
          timeZone,
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          hour: '2-digit',
          minute: '2-digit',
        }),
      [ms, stack().playground.runtime.spreadsheet.timeZone] as const,
    );

  /** The emulator's timer trigger of this spreadsheet. */
  const trigger = () => {
    const timers = stack()
      .playground.runtime.triggers.list()
      .filter((each) => each.eventType === 'CLOCK');
    expect(timers).toHaveLength(1);
    return timers[0];
  };

  /** Settings, once the list is read: the panel and this spreadsheet's entry's text. */
  async function keptEntry(): Promise<{ settings: Frame; text: string }> {
    const settings = await stack().openPanel('showSettingsPanel');
    await settings.waitForSelector('#kept-list > li');
    const entries = await settings.locator('#kept-list > li').allTextContents();
    expect(entries).toHaveLength(1);
    return { settings, text: entries[0] };
  }

  it('lists each work its timer keeps with its state as it is and its next time, and how often the timer runs', async () => {
    const { page, playground } = stack();
    let panel = await stack().enrichSheet();
    await panel.click('#enrich-again');
    panel = await stack().sidebar();
    await panel.click('#new-rows > summary');
    await panel.click('#new-rows-on');
    await panel.waitForSelector('#new-rows-status');
    await panel.click('#enrich-fresh summary');
    await panel.waitForSelector('#fresh-schedule :text("No schedule on")');
    await panel.selectOption('#fresh-cadence', 'weekly');
    await panel.selectOption('#fresh-weekday', '4');
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule saved.")');
    const schedule = playground.runtime.run<RefreshScheduleAnswer>('getRefreshSchedule', [], { kind: 'sidebar' });
    const refreshAt = schedule.ok ? (schedule.schedule?.nextRunAt as number) : 0;
    expect(refreshAt).toBeGreaterThan(playground.runtime.clock.now());

    let { settings, text } = await keptEntry();
    expect(text).toContain('(this one)');
    expect(text).toContain('New rows kept enriched: checked at every run of the timer.');
    expect(text).toContain(`Scheduled refresh: next run ${await shown(settings, refreshAt)}.`);
    // The playground runs the add-in as a script bound to its spreadsheet: its timer runs every minute.
    expect(trigger().intervalMs).toBe(60_000);
    expect(text).toContain('Timer: every minute.');
    expect(text).not.toMatch(/running now|under way/i);
    expect(await clippedTexts(settings)).toEqual([]);
    await settings.$eval('#kept-spreadsheets', (section) => section.scrollIntoView({ block: 'start' }));
    await stack().screenshot('kept-spreadsheets');

    // An hour on the timer has checked for new rows: the entry shows their next check (the section's own figure), the
    // refresh's run as it was.
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/time')),
      page.click(`[data-advance="${HOUR_MS}"]`),
    ]);
    const newRows = playground.runtime.run<NewRowsAnswer>('getNewRows', [], { kind: 'sidebar' });
    const nextCheck = newRows.ok ? (newRows.newRows?.nextCheckAt as number) : 0;
    expect(nextCheck).toBeGreaterThan(playground.runtime.clock.now());
    ({ settings, text } = await keptEntry());
    expect(text).toContain(`New rows kept enriched: next check after ${await shown(settings, nextCheck)}.`);
    expect(text).toContain(`Scheduled refresh: next run ${await shown(settings, refreshAt)}.`);
    expect(text).not.toMatch(/running now|under way/i);
  });
});
