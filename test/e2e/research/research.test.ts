// Research in the playground: select 3 rows, launch with fields (one with evidence), launch a markdown report for a
// fourth row, advance time (the poll trigger fires), then see the fields in the grid and the rendered, sanitized
// report with clickable citations in the panel. The field builder says what "required" changes.
import * as path from 'path';
import * as esbuild from 'esbuild';
import { describeWithBrowser, stackForSuite } from '../harness';

describeWithBrowser('research panel in the playground', () => {
  const stack = stackForSuite();

  it('launches fields for 3 rows and a report for one, then shows the fields and the rendered report', async () => {
    const { page } = stack();
    const panel = await stack().researchPanelOn(2, 4);
    await panel.waitForSelector('#brief-preview');
    expect(await panel.textContent('#brief-preview')).toMatch(/^Research \S+/);
    // An unknown header is caught before anything is sent.
    await panel.fill('#brief', 'Research {Website}');
    await panel.waitForSelector('#template-check .inline-error:has-text("Unknown column \\"{Website}\\"")');
    expect(await panel.isDisabled('#launch')).toBe(true);
    await panel.fill('#brief', 'Research {Domain}');
    await panel.selectOption('#depth', 'medium');
    await panel.check('#output-fields');
    // The field builder says what "required" changes.
    expect(await panel.textContent('#required-hint')).toBe(
      'A required field the research cannot fill fails the task (refunded). An optional one it cannot fill stays empty, with a note saying so.',
    );
    await panel.fill('[aria-label="Field 1 name"]', 'headquarters');
    await panel.check('[aria-label="Field 1 with evidence"]');
    await panel.click('#add-field');
    await panel.fill('[aria-label="Field 2 name"]', 'employee_count');
    await panel.selectOption('[aria-label="Field 2 type"]', 'integer');
    await panel.waitForSelector('#estimate:has-text("3 rows x 10 = 30 credits reserved of 500 available")');
    await stack().screenshot('research-1-fields');
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result :text("Queued 3 tasks at the service")');

    await page.click('td[data-cell="A5"]');
    await panel.click('#use-selection');
    await panel.waitForSelector('#selection:has-text("1 row selected")');
    await panel.check('#output-report');
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result :text("Queued 1 task at the service")');

    // An hour later the poll trigger has run (hourly for an add-on) and the sandbox has finished the tasks.
    await stack().finishTasks();
    const text = async (cell: string) => ((await page.textContent(`td[data-cell="${cell}"]`)) ?? '').trim();
    await page.waitForFunction(() => /^Done/.test(document.querySelector('td[data-cell="D5"]')?.textContent ?? ''));
    expect([await text('D1'), await text('E1'), await text('F1'), await text('G1'), await text('H1')]).toEqual([
      'Research status',
      'headquarters',
      'employee_count',
      'Research report',
      'Research sources',
    ]);
    for (const row of [2, 3, 4]) {
      expect(await text(`D${row}`)).toMatch(/^Done \(\d+ credits\)$/);
      expect(await text(`E${row}`)).not.toBe('');
      expect(await page.getAttribute(`td[data-cell="E${row}"]`, 'title')).toContain('Sources:');
      expect(await text(`F${row}`)).toMatch(/^\d+$/);
    }
    expect(await text('G5')).toMatch(/^# /);
    await stack().screenshot('research-2-fields-written');
    // The badge follows the account once the tasks are done: what they reserved and did not use is back (issue 29).
    const credits = await stack().control.credits('sbx_pro_token');
    await panel.waitForSelector(`#credits-badge:text-is("${credits} credits · pro@sandbox.example.com")`);
    // The launch's answer no longer says "Queued": the tasks have finished (issue 29).
    await panel.click('#tab-launch');
    await panel.waitForSelector('#launch-result :text("The 1 launched task has finished: results are in their rows.")');

    await page.click('td[data-cell="A5"]');
    await panel.click('#tab-report');
    await panel.waitForSelector('#report-html h1');
    const citation = panel.locator('#report-html a:has-text("[1]")').first();
    expect(await citation.getAttribute('href')).toMatch(/^https?:\/\//);
    expect(await citation.getAttribute('target')).toBe('_blank');
    expect(await panel.locator('#report-html script').count()).toBe(0);
    await stack().screenshot('research-3-report');

    // The Tasks tab lists this sheet's rows and the account's history (newest first).
    await panel.click('#tab-tasks');
    await panel.waitForSelector('#pending:has-text("0 tasks pending")');
    await panel.waitForSelector('.task:has-text("Write to selected row")');
    const history = await panel.locator('.task .meta').allTextContents();
    expect(history.filter((line) => /^done · medium · /.test(line))).toHaveLength(4);
    await stack().screenshot('research-4-tasks');

    // Research on a row that already holds its result asks first, with the cost and the result's date (issues 28 and
    // 46): use that result (0 credits) or research it again, paid.
    const tasksBefore = (await stack().control.call<unknown[]>('GET', '/_sandbox/tasks')).length;
    await panel.click('#tab-launch');
    await page.click('td[data-cell="A5"]');
    await panel.click('#use-selection');
    await panel.waitForSelector('#selection:has-text("1 row selected")');
    const offer = panel.locator('#reuse-offer');
    await offer.waitFor();
    expect(await offer.textContent()).toMatch(
      /^This row asks a question researched in this spreadsheet in.*The oldest was researched on (\d{1,2} \w+ \d{4}|\w+ \d{1,2}, \d{4})\. Use those results, or research them again\?Use those results: 0 credits for 1 rowResearch again: 1 task, up to 10 credits$/,
    );
    expect(await panel.isDisabled('#launch')).toBe(true);
    expect((await stack().control.call<unknown[]>('GET', '/_sandbox/tasks')).length).toBe(tasksBefore);
    await panel.check('#reuse-again');
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result :text("Queued 1 task at the service")');
    expect((await stack().control.call<unknown[]>('GET', '/_sandbox/tasks')).length).toBe(tasksBefore + 1);
  });

  // Issue 13 item 8: the Report tab's renderer (the panel's own module, with DOMPurify in Chromium) on hostile and
  // huge reports: 5,000 nested blockquotes made marked throw and left the tab on "Loading..." forever.
  it('renders any report: too deep falls back to escaped text with a note, 1 MB renders (time printed), both sanitized', async () => {
    const built = await esbuild.build({
      entryPoints: [path.resolve(__dirname, '../../../sidebar/research/markdown.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'reportMarkdown',
      platform: 'browser',
      target: 'es2019',
      write: false,
    });
    const page = await stack().browser.newPage();
    try {
      await page.setContent('<!doctype html><article id="out"></article>');
      await page.addScriptTag({ content: built.outputFiles[0].text });
      const show = (markdown: string) =>
        page.evaluate((md) => {
          const render = (window as unknown as { reportMarkdown: { renderMarkdown(m: string, s: unknown[]): string } })
            .reportMarkdown.renderMarkdown;
          const out = document.getElementById('out')!;
          const started = performance.now();
          out.innerHTML = render(md, [{ id: 1, url: 'https://example.com/source' }]);
          return {
            ms: Math.round(performance.now() - started),
            note: out.querySelector('.report-fallback')?.textContent ?? null,
            plain: out.querySelector('pre.report-plain')?.textContent ?? null,
            h2: out.querySelectorAll('h2').length,
            citations: out.querySelectorAll('a[href="https://example.com/source"][target="_blank"]').length,
            unsafe: out.querySelectorAll('script, img, [onerror]').length,
          };
        }, markdown);

      const hostile = '<img src=x onerror="window.hit=1"><script>window.hit=1</script>';
      const deep = `${'> '.repeat(5000)}deep ${hostile}`;
      const shownDeep = await show(deep);
      expect(shownDeep).toMatchObject({
        note: 'This report could not be formatted, so it is shown as plain text.',
        plain: deep,
        unsafe: 0,
      });

      let large = '';
      for (let i = 0; large.length < 1_000_000; i++) {
        large += `## Section ${i}\n\n${'Acme sells **widgets** in 40 countries [1]. Revenue grew 12%.\n\n'.repeat(10)}- one\n  - two\n\n> quote ${hostile}\n\n`;
      }
      const shownLarge = await show(large);
      console.log(`Chromium: 1 MB report (${large.length} characters) rendered and sanitized in ${shownLarge.ms} ms`);
      expect(shownLarge).toMatchObject({ note: null, unsafe: 0 });
      expect(shownLarge.h2).toBeGreaterThan(1000);
      expect(shownLarge.citations).toBeGreaterThan(10000);
      expect(await page.evaluate(() => (window as unknown as { hit?: number }).hit)).toBeUndefined();
    } finally {
      await page.close();
    }
  });
});
