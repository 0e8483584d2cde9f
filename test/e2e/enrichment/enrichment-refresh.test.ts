// "Keep data fresh" in the playground's enrichment panel at 300 px: enrich the demo sheet, let a company change at
// the service, move time a month on, then check and refresh rows older than 30 days from the panel; the summary
// names the changed column, the sheet shows the new value, and nothing in the section is cut off; then a weekly
// schedule is set (its next run shown) and stopped. A saved schedule's "older than" days show in the section's box
// when the panel opens again, so saving the schedule again keeps them.
import { describeWithBrowser, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';

const MONTH_MS = 31 * 86_400_000;

describeWithBrowser('keeping enriched data fresh', () => {
  const stack = stackForSuite();

  it('refreshes rows older than 30 days and says what changed', async () => {
    const { page, control } = stack();
    let panel = await stack().enrichSheet();

    // A company of the sheet is renamed at the service, and a month passes.
    const companies = await control.companies(200);
    const shown = await stack().columnA();
    const renamed = companies.find((company) => shown.includes(company.domain));
    expect(renamed).toBeDefined();
    await control.changeCompany(renamed!.domain, { name: 'Renamed Holdings' });
    await stack().advanceTime(MONTH_MS);

    await panel.click('#enrich-again');
    panel = await stack().sidebar();
    await panel.click('#enrich-fresh summary');
    await panel.click('#enrich-fresh-check');
    await panel.waitForSelector('#enrich-fresh-preview');
    expect(await panel.textContent('#enrich-fresh-preview')).toMatch(/^\d+ rows? .* older than 30 days\.$/);
    expect(await panel.textContent('#enrich-fresh-output')).toContain('(0 credits)');
    expect(await clippedTexts(panel)).toEqual([]);
    await stack().screenshot('enrich-fresh-1-preview');

    await panel.click('#enrich-fresh-run');
    await panel.waitForSelector('#enrich-fresh-summary');
    await panel.waitForSelector('text=Refresh finished.');
    const summary = await panel.textContent('#enrich-fresh-summary');
    expect(summary).toMatch(/[1-9]\d* rows? changed/);
    expect(summary).toMatch(/Company name: [1-9]/);
    expect(await clippedTexts(panel)).toEqual([]);
    await page.waitForSelector('td[data-cell]:text("Renamed Holdings")');
    await stack().screenshot('enrich-fresh-2-done');

    // The changed cell in the panel's "Changes" (issue 27), with its row, before and after.
    await panel.click('#fresh-changes-show');
    await panel.waitForSelector('#fresh-changes-list li');
    const listed = await panel.locator('#fresh-changes-list li').allTextContents();
    expect(listed).toEqual([
      expect.stringMatching(
        new RegExp(`^Row \\d+ · ${renamed!.domain} · .+Company name: ${renamed!.name} → Renamed Holdings$`),
      ),
    ]);
    expect(await clippedTexts(panel)).toEqual([]);

    // A weekly schedule (issue 27): saved, its next run and request share shown, within 300 px; then stopped.
    await panel.waitForSelector('#fresh-schedule :text("No schedule on")');
    await panel.selectOption('#fresh-cadence', 'weekly');
    await panel.selectOption('#fresh-weekday', '4');
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule saved.")');
    expect(await panel.textContent('#fresh-schedule-status')).toMatch(
      /^Every Thursday after 06:00 \(America\/New_York, within the hour\), data older than 30 days\. Next run: Thu, .*06:00.*\.$/,
    );
    expect(await panel.textContent('#fresh-schedule-last')).toBe('Not run yet.');
    expect(await panel.textContent('#fresh-schedule')).toContain("at most 25 % of the day's lookups");
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#fresh-schedule-section').scrollIntoViewIfNeeded();
    await stack().screenshot('enrich-fresh-3-schedule');
    await panel.selectOption('#fresh-cadence', 'off');
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule stopped.")');
  });

  // On the sheet the first test enriched.
  it('shows the saved schedule\'s days in "Older than", so saving the schedule again keeps them', async () => {
    const { page } = stack();
    /** Opens the Enrich panel anew (a new frame) with its "Keep data fresh" section and schedule read. */
    const freshSection = async () => {
      const before = await page.$eval('#sidebar-frame', (frame) => (frame as HTMLIFrameElement).src);
      await page.click('[data-handler="showEnrichPanel"]');
      await page.waitForFunction(
        (src) => (document.getElementById('sidebar-frame') as HTMLIFrameElement).src !== src,
        before,
      );
      const panel = await stack().sidebar();
      await panel.click('#enrich-fresh summary');
      await panel.waitForSelector('#fresh-schedule p');
      return panel;
    };
    let panel = await freshSection();
    await panel.fill('#enrich-fresh-days', '45');
    await panel.selectOption('#fresh-cadence', 'weekly');
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule saved.")');
    expect(await panel.textContent('#fresh-schedule-status')).toContain('data older than 45 days.');

    panel = await freshSection();
    await panel.waitForSelector('#fresh-schedule-status');
    expect(await panel.inputValue('#enrich-fresh-days')).toBe('45');
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule saved.")');
    expect(await panel.textContent('#fresh-schedule-status')).toContain('data older than 45 days.');
    await panel.selectOption('#fresh-cadence', 'off');
    await panel.click('#fresh-schedule-save');
    await panel.waitForSelector('#fresh-schedule :text("Schedule stopped.")');
  });
});
