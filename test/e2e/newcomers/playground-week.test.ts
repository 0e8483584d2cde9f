// A week in the playground (issue 48, points 4, 6 and 7): the clock shows the spreadsheet's time zone, as the panels
// do; "+1 day" and "+1 week" move time hour by hour, the timer running through it; "Delete rows" deletes the selected
// rows; "Company news" changes companies of the sheet at the sandbox. Settings > "Spreadsheets Sheet Scout keeps
// current" lists each work the timer keeps in its state as it is (new rows checked at every run of the timer until
// their first check, then their next check; the refresh's next run; never "running now", opening a panel included),
// each time held against the record the server keeps, and how often the timer runs (against the emulator's trigger).
// A weekly refresh of data older than 3 days that ran the day after the enrichment had nothing to check, and says why
// and when it will (0 lookups: the sandbox's count); the next week's run, after the news, finds the changed companies:
// its cells changed and domains checked are held against the news and the sandbox's count of lookups served. The
// playground keeps nothing when it stops and says so where the sheets can be saved: "Export sheets" downloads them,
// and a playground started with the file holds the same sheets.
import * as path from 'path';
import { ARTIFACTS, describeWithBrowser, stackForSuite } from '../harness';
import { startPlayground } from '../../../dev/playground/server';
import { readKeptSheets } from '../../../dev/playground/keep';
import { clippedTexts } from '../layout-check';
import { parseDomain } from '../../../src/shared/domain/domain';
import type { CompanyNewsItem } from '../../../dev/sandbox/control-client';
import type { Frame } from 'playwright-core';
import type { RefreshScheduleAnswer } from '../../../src/enrichment/contract';
import type { NewRowsAnswer } from '../../../src/new-rows/contract';

jest.setTimeout(180_000);

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

describeWithBrowser('a week in the playground', () => {
  const stack = stackForSuite();

  const schedule = () =>
    stack().playground.runtime.run<RefreshScheduleAnswer>('getRefreshSchedule', [], { kind: 'sidebar' });

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
  const clockTrigger = () => {
    const timers = stack()
      .playground.runtime.triggers.list()
      .filter((each) => each.eventType === 'CLOCK');
    expect(timers).toHaveLength(1);
    return timers[0];
  };

  /** Settings, once the list of kept spreadsheets is read: the panel and this spreadsheet's entry's text. */
  async function keptEntry(): Promise<{ settings: Frame; text: string }> {
    const settings = await stack().openPanel('showSettingsPanel');
    await settings.waitForSelector('#kept-list > li');
    const entries = await settings.locator('#kept-list > li').allTextContents();
    expect(entries).toHaveLength(1);
    return { settings, text: entries[0] };
  }

  /** Clicks a time button; done when the server moved the clocks: the playground's clock before and after. */
  async function moveTime(ms: number): Promise<{ moved: number; realElapsed: number }> {
    const { page, playground } = stack();
    const before = playground.runtime.clock.now();
    const started = Date.now();
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/time')),
      page.click(`[data-advance="${ms}"]`),
    ]);
    return { moved: playground.runtime.clock.now() - before, realElapsed: Date.now() - started };
  }

  it("shows the clock in the spreadsheet's time zone, and moves a day hour by hour", async () => {
    const { page, playground } = stack();
    const timeZone = playground.runtime.spreadsheet.timeZone;
    const clockText = async () => {
      await page.waitForFunction(
        (zone) => (document.getElementById('clock')?.textContent ?? '').endsWith(zone),
        timeZone,
      );
      return (await page.textContent('#clock')) ?? '';
    };
    const expected = (ms: number) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .format(new Date(ms))
        .replace(/^(\w+),/, '$1');
    const shown = await clockText();
    const now = playground.runtime.clock.now();
    expect([expected(now - 60_000), expected(now)].map((text) => `${text} ${timeZone}`)).toContain(shown);
    const { moved, realElapsed } = await moveTime(DAY_MS);
    expect(moved).toBeGreaterThanOrEqual(DAY_MS);
    expect(moved).toBeLessThanOrEqual(DAY_MS + realElapsed);
    await page.waitForFunction((text) => document.getElementById('clock')?.textContent !== text, shown);
  });

  it('deletes the selected rows', async () => {
    const { page, playground } = stack();
    const sheet = playground.runtime.spreadsheet.sheet('Companies');
    const rowsBefore = sheet.lastRow();
    const [fifth, seventh] = [sheet.getDisplayValues('A5')[0][0], sheet.getDisplayValues('A7')[0][0]];
    await page.click('td[data-cell="A5"]');
    await page.click('td[data-cell="A6"]', { modifiers: ['Shift'] });
    await page.click('#delete-rows');
    await page.waitForFunction((text) => document.querySelector('td[data-cell="A5"]')?.textContent === text, seventh);
    expect(sheet.lastRow()).toBe(rowsBefore - 2);
    expect(sheet.getDisplayValues().map((row) => row[0])).not.toContain(fifth);
  });

  it('lists in Settings each work the timer keeps, its state as it is and its next time (point 4)', async () => {
    const { page, playground } = stack();
    let panel = await stack().enrichSheet();
    await panel.click('#enrich-again');
    panel = await stack().sidebar();
    // A weekly refresh of data older than 3 days, on tomorrow's weekday (it runs while every row is a day old).
    await panel.click('#enrich-fresh summary');
    await panel.fill('#enrich-fresh-days', '3');
    await panel.waitForSelector('#fresh-schedule :text("No schedule on")');
    const tomorrow = new Date(playground.runtime.clock.now() + DAY_MS).toLocaleDateString('en-US', {
      timeZone: playground.runtime.spreadsheet.timeZone,
      weekday: 'long',
    });
    const weekday = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].indexOf(tomorrow);
    await panel.selectOption('#fresh-cadence', 'weekly');
    await panel.selectOption('#fresh-weekday', String(weekday));
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule saved.")');
    await panel.click('#new-rows > summary');
    await panel.click('#new-rows-on');
    await panel.waitForSelector('#new-rows-status');
    const scheduled = schedule();
    const refreshAt = scheduled.ok ? (scheduled.schedule?.nextRunAt as number) : 0;
    expect(refreshAt).toBeGreaterThan(playground.runtime.clock.now() + HOUR_MS);

    let { settings, text } = await keptEntry();
    expect(text).toContain('(this one)');
    expect(text).toContain('New rows kept enriched: checked at every run of the timer.');
    expect(text).toContain(`Scheduled refresh: next run ${await shown(settings, refreshAt)}.`);
    // The playground runs the add-in as a script bound to its spreadsheet: its timer runs every minute.
    expect(clockTrigger().intervalMs).toBe(60_000);
    expect(text).toContain('Timer: every minute.');
    expect(text).not.toMatch(/running now|under way/i);
    expect(await clippedTexts(settings)).toEqual([]);
    await settings.$eval('#kept-spreadsheets', (section) => section.scrollIntoView({ block: 'start' }));
    await stack().screenshot('kept-spreadsheets');

    // An hour on the timer has checked for new rows: the entry shows their next check (the section's own figure), the
    // refresh's next run as it was.
    await moveTime(HOUR_MS);
    const newRows = playground.runtime.run<NewRowsAnswer>('getNewRows', [], { kind: 'sidebar' });
    const nextCheck = newRows.ok ? (newRows.newRows?.nextCheckAt as number) : 0;
    expect(nextCheck).toBeGreaterThan(playground.runtime.clock.now());
    ({ settings, text } = await keptEntry());
    expect(text).toContain(`New rows kept enriched: next check after ${await shown(settings, nextCheck)}.`);
    expect(text).toContain(`Scheduled refresh: next run ${await shown(settings, refreshAt)}.`);
    expect(text).not.toMatch(/running now|under way/i);
    await page.click('#sidebar-close');
  });

  it('a refresh with nothing due says why and when it will run; it finds the company news (points 6, 7)', async () => {
    const { page, playground, control } = stack();
    let panel: Frame;
    // The enriched rows, as the sheet holds them: a valid domain and a field filled.
    const sheet = playground.runtime.spreadsheet.sheet('Companies');
    const enrichedRows = () =>
      sheet
        .getDisplayValues()
        .slice(1)
        .filter((row) => parseDomain(row[0]).kind === 'domain' && row.slice(3).some((cell) => cell.trim() !== ''));
    const enriched = enrichedRows().length;
    expect(enriched).toBeGreaterThan(30);

    // Hour by hour to the hour after the refresh's first run: it had nothing to check, and sent no lookup.
    const lookupsBefore = await control.lookupsServed();
    const first = schedule();
    const runAt = first.ok ? (first.schedule?.nextRunAt as number) : 0;
    const hours = Math.ceil((runAt - playground.runtime.clock.now()) / HOUR_MS) + 1;
    await page.evaluate(async (ms) => {
      await fetch('/api/time', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
    }, hours * HOUR_MS);
    const ran = schedule();
    expect(ran.ok && ran.schedule?.lastRun).toMatchObject({ checked: 0, freshRows: enriched });
    expect(await control.lookupsServed()).toBe(lookupsBefore);
    panel = await stack().openPanel('showEnrichPanel');
    await panel.click('#enrich-fresh summary');
    await panel.waitForSelector('#fresh-schedule-last:has-text("Last run")');
    expect(await panel.textContent('#fresh-schedule-last')).toMatch(
      new RegExp(
        `^Last run .+: nothing to check, as all ${enriched} enriched rows were enriched less than 3 days before ` +
          '\\(0 lookups, 0 credits\\)\\. The first is due .+: the next run, .+, checks it\\.$',
      ),
    );
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#fresh-schedule-section').scrollIntoViewIfNeeded();
    await stack().screenshot('refresh-nothing-due');

    // Company news at the sandbox: some of the sheet's companies grow or move.
    const [news] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/news')),
      page.click('#company-news'),
    ]);
    const changes = ((await news.json()) as { changes: CompanyNewsItem[] }).changes;
    expect(changes.length).toBeGreaterThan(0);
    await page.waitForSelector('#toasts .toast:has-text("Company news at the service")');
    await stack().screenshot('playground-company-news');
    const atSandbox = new Map((await control.companies(5000)).map((company) => [company.domain, company]));
    for (const change of changes) expect(atSandbox.get(change.domain)?.[change.field]).toBe(change.after);

    // A week on: the next run checks every row and writes the news, one cell per row holding a changed company.
    const before = await control.lookupsServed();
    await moveTime(7 * DAY_MS);
    const week = schedule();
    const last = week.ok ? week.schedule?.lastRun : null;
    const rowsOf = (domain: string) =>
      enrichedRows().filter((row) => {
        const parsed = parseDomain(row[0]);
        return parsed.kind === 'domain' && parsed.domain === domain;
      }).length;
    expect(last).toMatchObject({
      checked: (await control.lookupsServed()) - before,
      changedCells: changes.reduce((sum, change) => sum + rowsOf(change.domain), 0),
      problem: null,
    });
    panel = await stack().openPanel('showEnrichPanel');
    await panel.click('#enrich-fresh summary');
    await panel.waitForSelector(`#fresh-schedule-last:has-text("${last?.changedCells} cell")`);
    expect(await panel.textContent('#fresh-schedule-last')).toMatch(
      new RegExp(
        `^Last run .+: ${last?.changedCells} cells? changed in \\d+ rows? \\(${last?.checked} domains checked\\)\\.$`,
      ),
    );
  });

  it('says it keeps nothing by itself; the sheets exported come back in a playground started with them', async () => {
    const { page, playground, sandboxUrl } = stack();
    expect(await page.getAttribute('#export-sheets', 'title')).toMatch(/^The playground keeps nothing when it stops/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-sheets')]);
    const file = path.join(ARTIFACTS, 'playground-sheets.json');
    await download.saveAs(file);
    const again = await startPlayground({ sandboxUrl, sheets: readKeptSheets(file) });
    try {
      for (const name of ['Companies', 'Notes']) {
        const [was, now] = [playground, again].map((each) => each.runtime.spreadsheet.sheet(name));
        expect(now.getDisplayValues()).toEqual(was.getDisplayValues());
        expect(now.getNotes()).toEqual(was.getNotes());
      }
    } finally {
      await again.close();
    }
  });
});
