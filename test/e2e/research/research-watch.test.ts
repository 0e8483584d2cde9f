// Account watch in the playground at 300 px (issue 27): watch 3 rows weekly with an employee_count field and a Yes/No
// field (the cost of a run and of a month confirmed first, the next run shown), let the timer run it a week later,
// change one company at the service, let the next week's run find it: the row's Signals cell says what changed and the
// changed cell's note says what it was; the Yes/No field, answered the same by the service, is compared by value (its
// cells show TRUE/FALSE): "No change" and no note (issue 36, item 1). The panel says what the run did, each figure as
// the sandbox has it: the tasks it created, the ones that failed, the credits its money record charged (item 2); then
// pause and stop from the panel.
import { describeWithBrowser, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';
import { parseDomain } from '../../../src/shared/domain/domain';
import type { ResearchTask } from '../../../src/api/types';

const DAY_MS = 86_400_000;

describeWithBrowser('account watch in the research panel', () => {
  const stack = stackForSuite();

  it('confirms the cost, runs weekly, signals a change with its note, then pauses and stops', async () => {
    const { page, control, advanceTime, finishTasks } = stack();
    /** The cell of a header's column in a row (`Signals`, 3 -> the td). */
    const cellOf = async (header: string, row: number) => {
      const letter = await page.$$eval(
        'td[data-cell$="1"]',
        (tds, wanted) => {
          const found = tds.find((td) => /^[A-Z]+1$/.test(td.dataset.cell ?? '') && td.textContent?.trim() === wanted);
          return found?.dataset.cell?.replace(/1$/, '') ?? '';
        },
        header,
      );
      return `td[data-cell="${letter}${row}"]`;
    };

    /** The service's tasks of the playground's account (sbx_pro_token), oldest first: what each run asked and got. */
    const serviceTasks = async () =>
      (await control.call<ResearchTask[]>('GET', '/v1/deep_research_tasks?limit=100', undefined, 'sbx_pro_token'))
        .slice()
        .sort((a, b) => a.created_at.localeCompare(b.created_at));
    /** The domain a row's cell holds (typed as a URL, an email or in capitals). */
    const domainOf = async (row: number) => {
      const parsed = parseDomain(((await page.textContent(`td[data-cell="A${row}"]`)) ?? '').trim());
      expect(parsed.kind).toBe('domain');
      return parsed.kind === 'domain' ? parsed.domain : '';
    };
    /** What the service answered for a row's Yes/No field at each run, oldest first (the brief names its domain). */
    const yesNoAnswers = async (row: number) => {
      const brief = `Research ${await domainOf(row)}`;
      return (await serviceTasks())
        .filter((task) => task.brief === brief && task.report?.kind === 'schema')
        .map((task) => (task.report?.kind === 'schema' ? task.report.fields.sells_software : undefined));
    };

    const panel = await stack().researchPanelOn(2, 4);
    await panel.check('#output-fields');
    await panel.fill('[aria-label="Field 1 name"]', 'employee_count');
    await panel.click('#add-field');
    await panel.fill('[aria-label="Field 2 name"]', 'sells_software');
    await panel.selectOption('[aria-label="Field 2 type"]', 'boolean');

    await panel.click('#watch-section summary');
    await panel.selectOption('#watch-cadence', 'weekly');
    await panel.selectOption('#watch-weekday', '3');
    await panel.click('#watch-preview');
    await panel.waitForSelector('#watch-confirm');
    expect(await panel.textContent('#watch-confirm')).toContain(
      'Watching 3 rows costs up to 30 credits a run and up to 150 a month (up to 5 runs).',
    );
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.click('#watch-save');
    await panel.waitForSelector('#watch-next:has-text("Next run: Wed")');
    expect(await panel.textContent('#watch-status')).toContain(
      'Watching 3 rows of "Companies" every Wednesday after 06:00 (America/New_York, within the hour), up to 30 credits a run.',
    );
    expect(await panel.textContent('#watch-last')).toBe('Not run yet.');
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#watch-section').scrollIntoViewIfNeeded();
    await stack().screenshot('research-watch-1-saved');

    // A week on the timer runs the watch with the panel's tabs untouched; the first run is the baseline.
    await advanceTime(8 * DAY_MS);
    await finishTasks();
    const signals = await cellOf('Signals', 2);
    await page.waitForFunction(
      (selector) => /^First look/.test(document.querySelector(selector)?.textContent ?? ''),
      signals,
    );

    // The service learns that the company of row 3 grew; the next week's run signals it.
    const domain = await domainOf(3);
    const before = ((await page.textContent(await cellOf('employee_count', 3))) ?? '').trim();
    expect(before).not.toBe('');
    await control.changeCompany(domain, { employee_count: '10001+' });
    /** What the service charged the playground's account (sbx_pro_token) so far: its money record. */
    const charged = async () => (await control.ledger('sbx_pro_token')).days.reduce((sum, day) => sum + day.charged, 0);
    const chargedBefore = await charged();
    const tasksBefore = (await serviceTasks()).length;
    // The first run came late (the clock jumped 8 days with one tick), so the next keeps the watch's rhythm: the first
    // Wednesday at least 80% of a week after it, which two weeks on has passed.
    await advanceTime(14 * DAY_MS);
    await finishTasks();
    const changed = await cellOf('Signals', 3);
    await page.waitForFunction(
      (selector) => (document.querySelector(selector)?.textContent ?? '').includes('→ 10001+'),
      changed,
    );
    expect(((await page.textContent(changed)) ?? '').trim()).toBe(`employee_count ${before} → 10001+`);
    const signalsOf = async (row: number) => ((await page.textContent(await cellOf('Signals', row))) ?? '').trim();
    expect([await signalsOf(2), await signalsOf(4)]).toEqual(['No change', 'No change']);
    expect(await page.getAttribute(await cellOf('employee_count', 3), 'title')).toMatch(
      new RegExp(`^Was ${before.replace(/[+]/g, '\\+')} until \\d{4}-\\d{2}-\\d{2}`),
    );
    // The Yes/No field: each row's cell shows the service's answer as TRUE/FALSE; answered the same at both runs, it
    // is no change (the Signals cells above do not name it) and its cell gets no note.
    for (const row of [2, 3, 4]) {
      const answers = await yesNoAnswers(row);
      expect(answers).toHaveLength(2);
      expect(typeof answers[1]).toBe('boolean');
      expect(answers[1]).toBe(answers[0]);
      const cell = await cellOf('sells_software', row);
      expect(((await page.textContent(cell)) ?? '').trim()).toBe(answers[1] ? 'TRUE' : 'FALSE');
      expect(await page.getAttribute(cell, 'title')).toBeNull();
    }
    expect(await page.getAttribute(await cellOf('employee_count', 2), 'title')).toBeNull();
    expect(await page.getAttribute(await cellOf('employee_count', 4), 'title')).toBeNull();

    // The panel shows what the last run did, each figure as the sandbox has it: the tasks the run created, those that
    // failed, the credits its money record charged (the rows changed are the Signals cells above); pause, then stop.
    await panel.click('#use-selection');
    const runTasks = (await serviceTasks()).slice(tasksBefore);
    const failed = runTasks.filter((task) => task.status === 'failed').length;
    const secondRun = (await charged()) - chargedBefore;
    const changedRows =
      [2, 3, 4].length - (await Promise.all([2, 3, 4].map(signalsOf))).filter((t) => t === 'No change').length;
    expect(runTasks.every((task) => task.status === 'done' || task.status === 'failed')).toBe(true);
    expect(secondRun).toBeGreaterThan(0);
    await panel.waitForSelector(
      `#watch-last:has-text("Researched ${runTasks.length} rows: ${changedRows} changed, ${failed} failed, ${secondRun} credits charged")`,
    );
    await panel.locator('#watch-status').scrollIntoViewIfNeeded();
    await stack().screenshot('research-watch-2-signal');
    await panel.click('#watch-pause');
    await panel.waitForSelector('#watch-next:has-text("Paused.")');
    await panel.click('#watch-stop');
    await panel.click('#watch-stop-yes');
    await panel.waitForSelector('#watch-section :text("Stopped the watch")');
    expect(await panel.locator('#watch-status').count()).toBe(0);
    expect(await clippedTexts(panel)).toEqual([]);
  });
});
