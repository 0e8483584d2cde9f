// The research spending guard as a user meets it: a daily cap set in Settings, then the Research panel shows what is
// left, refuses a launch over it with the numbers, and launches only the rows that fit when asked. Once the tasks
// finish, "Spent today / this month" is what the service charged for this spreadsheet's tasks (the sandbox's money
// record, less a task of the same account launched elsewhere), and stays so when finished tasks, this spreadsheet's
// or the other one, are written into rows with "Write to selected row" (issue 36, item 3). Researching rows again
// over the cap (issue 36 item 10): one question whose figure is what the answer launches, and the answer launches
// exactly that, checked against the sandbox's money record.
import type { Frame } from 'playwright-core';
import { describeWithBrowser, stackForSuite } from '../harness';
import { parseDomain } from '../../../src/shared/domain/domain';

const TOKEN = 'sbx_pro_token';

describeWithBrowser('research spending guard', () => {
  const stack = stackForSuite();

  /** The domain a row of the Companies sheet holds (typed as a URL, an email or in capitals). */
  async function domainOf(row: number): Promise<string> {
    const parsed = parseDomain(((await stack().page.textContent(`td[data-cell="A${row}"]`)) ?? '').trim());
    if (parsed.kind !== 'domain') throw new Error(`A${row} holds no domain`);
    return parsed.domain;
  }

  /** Moves the playground's clocks to 10:00 in the spreadsheet's time zone: the test's hours stay on one day. */
  async function toTenInTheMorning(): Promise<void> {
    const { playground } = stack();
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: playground.runtime.spreadsheet.timeZone,
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    }).formatToParts(playground.runtime.clock.now());
    const part = (type: string) => Number(parts.find((item) => item.type === type)?.value);
    const minutes = (((10 * 60 - (part('hour') * 60 + part('minute'))) % 1440) + 1440) % 1440;
    await stack().advanceTime(minutes * 60_000);
  }

  /** Opens Settings: its "Spent today ..." line once loaded. */
  async function spentInSettings(): Promise<{ panel: Frame; text: string }> {
    const panel = await stack().openPanel('showSettingsPanel');
    await panel.waitForSelector('#cap-spent');
    return { panel, text: (await panel.textContent('#cap-spent')) ?? '' };
  }

  /** Types `credits` as the daily cap in the Settings panel and saves it. */
  async function saveDailyCap(settings: Frame, credits: number): Promise<void> {
    await settings.fill('#cap-daily', String(credits));
    await settings.click('#cap-save');
  }

  it('sets a daily cap in Settings; Research refuses what does not fit and launches the first rows that do', async () => {
    await toTenInTheMorning();
    let { panel } = await spentInSettings();
    await saveDailyCap(panel, 20);
    await panel.waitForSelector('#spending-guard :text("Cap saved")');
    expect(await panel.textContent('#cap-spent')).toBe('Spent today 0, this month 0; 20 left');
    // Who set it, and who may change it how (issue 28).
    expect(await panel.textContent('#cap-owner')).toMatch(
      /^Set by \S+@\S+ on \d{1,2} \w{3} \d{4}\. Anyone may lower it; only \S+@\S+ may raise or remove it\.$/,
    );

    panel = await stack().researchPanelOn(2, 4);
    await panel.waitForSelector('#spending-cap:has-text("Spending cap: 20 credits left (0 of 20 today spent)")');
    await panel.waitForSelector(
      `#launch-summary .inline-error:has-text("Over this spreadsheet's spending cap: 3 rows reserve 30 credits, 20 left")`,
    );
    expect(await panel.isDisabled('#launch')).toBe(true);
    // In the page in one step: the panel re-renders the notice at each refresh, and a handle to it goes stale.
    await panel.$eval('#over-cap', (notice) => notice.scrollIntoView({ block: 'nearest' }));
    await stack().screenshot('spending-guard');
    await panel.click('#launch-fitting');
    await panel.waitForSelector(
      '#launch-result :text("Queued 2 tasks at the service, 1 left out by the spending cap")',
    );
    await panel.waitForSelector('#spending-cap:has-text("0 credits left")');
  });

  it("shows as spent what the service charged for this spreadsheet's tasks; writing tasks into rows adds nothing", async () => {
    const { page, control } = stack();
    // A task of the same account launched elsewhere (another spreadsheet, the service's own page), about row 5's
    // company: the service charges the account for it, but this spreadsheet did not spend it.
    const elsewhere = await control.call<{ id: string }>(
      'POST',
      '/v1/deep_research_tasks',
      { brief: `Research ${await domainOf(5)}`, depth: 'medium' },
      TOKEN,
    );
    // An hour on, every task is done; the timer writes rows 2 and 3.
    await stack().finishTasks();
    await page.waitForFunction(() =>
      ['D2', 'D3'].every((a1) => /^Done/.test(document.querySelector(`td[data-cell="${a1}"]`)?.textContent ?? '')),
    );
    expect((await control.tasks(TOKEN)).map((task) => task.status)).toEqual(['done', 'done', 'done']);

    // The sandbox's money record: what it charged for each task.
    const charges = async () => {
      const byTask = new Map<string, number>();
      for (const day of (await control.ledger(TOKEN)).days)
        for (const task of day.tasks) byTask.set(task.id, (byTask.get(task.id) ?? 0) + task.charged);
      return byTask;
    };
    const charged = await charges();
    expect(charged.size).toBe(3);
    const spent = [...charged].filter(([id]) => id !== elsewhere.id).reduce((sum, [, credits]) => sum + credits, 0);
    expect(charged.get(elsewhere.id)).toBeGreaterThan(0);
    expect(spent).toBeGreaterThan(0);
    const figures = `Spent today ${spent}, this month ${spent}; ${20 - spent} left`;
    expect((await spentInSettings()).text).toBe(figures);

    // "Write to selected row": the task launched elsewhere into row 5 (its company), then row 2's task into row 6
    // (another company: it asks first).
    await page.click('td[data-cell="A5"]');
    let panel = await stack().openPanel('showResearchPanel');
    await panel.click('#tab-tasks');
    const writeButton = (brief: string) =>
      panel
        .locator('.task', { hasText: brief })
        .filter({ has: panel.locator('button:text("Write to selected row")') })
        .locator('button:text("Write to selected row")');
    await writeButton(`Research ${await domainOf(5)}`).click();
    await panel.waitForSelector('#write-answer:has-text("Wrote the report into row 5")');
    await page.click('td[data-cell="A6"]');
    await writeButton(`Research ${await domainOf(2)}`).click();
    await panel.click('#write-question button:text("Write anyway")');
    await panel.waitForSelector('#write-answer:has-text("Wrote the report into row 6")');
    await page.waitForFunction(() =>
      ['D5', 'D6'].every((a1) => /^Done/.test(document.querySelector(`td[data-cell="${a1}"]`)?.textContent ?? '')),
    );

    // Nothing was charged for the writes, and the spent figures have not grown: in Settings and in Research.
    expect(await charges()).toEqual(charged);
    const settings = await spentInSettings();
    expect(settings.text).toBe(figures);
    await settings.panel.$eval('#spending-guard', (section) => section.scrollIntoView({ block: 'start' }));
    await stack().screenshot('spending-guard-spent');
    await page.click('td[data-cell="A7"]');
    panel = await stack().openPanel('showResearchPanel');
    await panel.fill('#brief', 'Research {Domain}');
    await panel.waitForSelector(
      `#spending-cap:has-text("Spending cap: ${20 - spent} credits left (${spent} of 20 today spent)")`,
    );
  });

  it('researching rows again over the cap asks once, with what fits, and launches exactly that', async () => {
    const { page, control } = stack();
    // The first test's two rows are finished (an hour on: the add-on's timer runs hourly).
    await stack().finishTasks();
    await page.waitForFunction(() =>
      [2, 3].every((row) =>
        Array.from(document.querySelectorAll('td[data-cell]')).some(
          (cell) =>
            new RegExp(`^[A-Z]+${row}$`).test(cell.getAttribute('data-cell') ?? '') &&
            /^Done \(\d+ credits\)$/.test((cell.textContent ?? '').trim()),
        ),
      ),
    );
    // What this spreadsheet spent (the test before checked it against the money oracle); a cap that leaves 15
    // credits: one row of 10 fits, not two.
    const settings = await spentInSettings();
    const charged = Number(/^Spent today (\d+)/.exec(settings.text)?.[1]);
    await saveDailyCap(settings.panel, charged + 15);
    await settings.panel.waitForSelector(
      `#cap-spent:text-is("Spent today ${charged}, this month ${charged}; 15 left")`,
    );
    const before = await control.ledgerDay('sbx_pro_token');

    const panel = await stack().researchPanelOn(2, 3);
    await panel.waitForSelector(
      `#launch-summary .inline-error:has-text("Over this spreadsheet's spending cap: 2 rows reserve 20 credits, 15 left")`,
    );
    await panel.waitForSelector('#launch-fitting:text-is("Launch the first row that fits")');
    await panel.click('#launch-fitting');
    // One question, whose figure is what answering yes reserves: one row at 10 credits.
    const question = panel.locator('#research-again-question');
    await question.waitFor();
    expect(await question.textContent()).toMatch(
      /^2 rows already have a research result: row 2 \(.+\), row 3 \(.+\)\. This spreadsheet's spending cap has 15 credits left: research row 2 again\? Up to 10 credits \(1 row x 10 at medium depth\); the new result replaces the current one\. Row 3 is left as it is\.Research again$/,
    );
    expect(await panel.textContent('#launch-result')).toMatch(/^Nothing was sent: 2 already researched/);
    // The question stands for the cap's button: only one way on.
    expect(await panel.locator('#launch-fitting').count()).toBe(0);
    await panel.locator('#research-again-question').scrollIntoViewIfNeeded();
    await stack().screenshot('spending-guard-again');
    expect((await control.ledgerDay('sbx_pro_token')).tasks).toHaveLength(before.tasks.length);

    await panel.click('#research-again');
    await panel.waitForSelector('#launch-result :text("Queued 1 task at the service")');
    const after = await control.ledgerDay('sbx_pro_token');
    expect(after.tasks).toHaveLength(before.tasks.length + 1);
    expect(after.reserved).toBe(before.reserved + 10);
  });
});
