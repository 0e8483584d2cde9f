// Issue 14, the first hour in the Enrich, Settings and Research panels and in formula cells: enrichment counts cached
// results in its first answer and shows the domains the service is still enriching as waiting (with the next try and
// an ETA that waits for them), a job paused for its token counts nothing as an error, the panel remembers its fields
// per sheet and heads employee_count "Employees"; formula cells say what to tick, unticking clears their cached
// results, removing and re-adding the token says that sharing stopped, a refused "Replace token" keeps the working
// connection shown; =COMPANY_LOOKUP() explains itself; {Domain} in a brief is the registered domain.
import { describeWithBrowser, stackForSuite } from './harness';

const SHARE_MESSAGE =
  'Formulas can\'t use a token: in Extensions > Sheet Scout > Settings tick "Let formulas in this spreadsheet use my token"';

describeWithBrowser('first hour: enrichment progress, formula tokens, brief domains', () => {
  const stack = stackForSuite();

  async function lastRow(): Promise<number> {
    const cells = await stack().page.$$eval('td[data-cell^="A"]', (tds) =>
      tds.map((td) => [td.getAttribute('data-cell') ?? '', td.textContent ?? '']),
    );
    return Math.max(...cells.filter(([, text]) => text.trim() !== '').map(([a1]) => Number(a1.slice(1))));
  }

  it('enrichment: cached results at once, waiting domains with their next try, a paused job without errors, fields remembered', async () => {
    const { page } = stack();
    await page.click('td[data-cell="A1"]');
    let panel = await stack().openPanel('showEnrichPanel');
    await panel.waitForSelector('#enrich-preview');
    // employee_count is listed and headed "Employees"; the choice is remembered for this sheet.
    expect(await panel.locator('label.check:has([data-field="employee_count"])').textContent()).toContain('Employees');
    await panel.uncheck('[data-field="short_description"]');
    await panel.waitForSelector('[data-field="short_description"]:not(:checked)');
    await panel.check('[data-field="linkedin"]');
    await panel.waitForSelector('[data-field="linkedin"]:checked');
    await page.click('#sidebar-close');
    panel = await stack().openPanel('showEnrichPanel');
    await panel.waitForSelector('#enrich-preview');
    expect(await panel.isChecked('[data-field="short_description"]')).toBe(false);
    expect(await panel.isChecked('[data-field="linkedin"]')).toBe(true);

    // First run: every domain looked up (and cached).
    await panel.click('#enrich-start');
    await panel.waitForSelector('#enrich-progress[aria-valuenow="100"]');
    await page.waitForSelector('td[data-cell^="E"]:text-is("Employees"), td:text-is("Employees")');

    // Three domains the service has not enriched yet (202), then a re-run with Overwrite: all the others are cached.
    const pending = await stack().control.companies(3, false);
    const end = await lastRow();
    for (const [i, company] of pending.entries()) await stack().setCell('Companies', `A${end + 1 + i}`, company.domain);
    await page.waitForSelector(`td[data-cell="A${end + 3}"]:text("${pending[2].domain}")`);
    await panel.click('#enrich-again');
    panel = await stack().sidebar();
    await panel.waitForSelector('#enrich-preview');
    await panel.check('#enrich-overwrite');
    await panel.waitForSelector('#enrich-overwrite:checked');
    await panel.waitForSelector('#enrich-start:not([disabled])');
    await panel.click('#enrich-start');
    // The cached results count at once (before, "0 of N" stayed up while the chunk slept through the 202 retries): the
    // sandbox's clock is manual, so the three domains stay pending until the hour is moved on below, and the counts
    // must show the others before that (no wall-clock bound: the suite may run on a busy machine).
    await panel.waitForFunction(() => {
      const match = /^(\d+) of (\d+) domains$/.exec(document.getElementById('enrich-status')?.textContent ?? '');
      return match !== null && Number(match[1]) >= Number(match[2]) - 3 && Number(match[1]) > 0;
    });
    await panel.waitForSelector('#enrich-waiting:has-text("3 domains still being enriched by the service")');
    expect(await panel.textContent('#enrich-next-try')).toMatch(/^next try in \d+ s$|^trying again now$/);
    // The ETA waits for them: a range up to the last retry the job allows.
    expect(await panel.textContent('#enrich-eta')).toMatch(/^ETA \d+ s to \d+ min$/);
    await stack().screenshot('first-hour-enrich-waiting');
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/time')),
      page.click('[data-advance="3600000"]'),
    ]);
    await panel.waitForSelector('#enrich-progress[aria-valuenow="100"]');

    // A job paused for its token: the domains it stopped at wait for Resume, none is an error.
    const all = await stack().control.companies(200);
    const shown = new Set(
      await page.$$eval('td[data-cell^="A"]', (tds) => tds.map((td) => (td.textContent ?? '').toLowerCase())),
    );
    const fresh = all.filter((company) => ![...shown].some((text) => text.includes(company.domain))).slice(0, 2);
    const below = await lastRow();
    for (const [i, company] of fresh.entries()) await stack().setCell('Companies', `A${below + 1 + i}`, company.domain);
    await page.waitForSelector(`td[data-cell="A${below + 2}"]:text("${fresh[1].domain}")`);
    await panel.evaluate(
      () =>
        new Promise((resolve) =>
          (
            window as unknown as {
              google: {
                script: { run: { withSuccessHandler(f: (v: unknown) => void): { removeAccountToken(): void } } };
              };
            }
          ).google.script.run
            .withSuccessHandler(resolve)
            .removeAccountToken(),
        ),
    );
    await panel.click('#enrich-again');
    panel = await stack().sidebar();
    await panel.waitForSelector('#enrich-preview');
    // "Overwrite non-empty cells" held for the last run only: the next one starts unticked (issue 28).
    expect(await panel.isChecked('#enrich-overwrite')).toBe(false);
    await panel.waitForSelector('#enrich-preview:has-text("Domains to look up2")');
    await panel.click('#enrich-start');
    await panel.waitForSelector('#enrich-resume');
    expect(await panel.textContent('[data-count="Errors"]')).toBe('0');
    expect(Number(await panel.textContent('[data-count="Waiting for Resume"]'))).toBe(2);
    await stack().screenshot('first-hour-enrich-paused');
  });

  it('formula tokens: what to tick, unsharing clears cached results, re-adding says sharing stopped, a refused token keeps the connection', async () => {
    const { page } = stack();
    // Connected as sandbox-pro with formulas sharing the token, as the playground starts.
    await page.selectOption('#account', 'sandbox-solo');
    await page.selectOption('#account', 'sandbox-pro');
    await page.click('[data-sheet="Notes"]');
    const [domain] = await stack().control.companies(1);
    await stack().setCell('Notes', 'B2', `=COMPANY_LOOKUP("${domain.domain}", "company_name")`);
    await page.waitForSelector(`td[data-cell="B2"]:text-is("${domain.name}")`);
    await stack().setCell('Notes', 'B3', '=COMPANY_LOOKUP()');
    await page.waitForSelector('td[data-cell="B3"]:text-matches("^Usage: =COMPANY_LOOKUP\\\\(domain")');

    const panel = await stack().openPanel('showSettingsPanel');
    await panel.waitForSelector('#account-email');
    // A refused "Replace token": the working connection stays, the reason sits beside the new token.
    await panel.fill('#token', 'not-a-real-token');
    await panel.click('#save');
    await panel.waitForSelector('#token-problem :text("rejected this token (401)")');
    expect(await panel.textContent('#account-email')).toBe('pro@sandbox.example.com');
    expect(await panel.textContent('#account-credits')).toBe('500');
    await stack().screenshot('first-hour-settings-refused');

    // Unticking: the cached lookup is cleared, a new cell says exactly what to tick.
    await panel.uncheck('#share-formulas');
    await panel.waitForSelector('#settings-note :text("cached results were cleared")');
    await stack().setCell('Notes', 'B4', `=COMPANY_LOOKUP("${domain.domain}", "company_name")`);
    await page.waitForSelector('td[data-cell="B4"]:not(:empty)');
    expect(await page.textContent('td[data-cell="B4"]')).toBe(SHARE_MESSAGE);

    // Ticked again: the cell that could not use a token runs again with it, and the panel says so (issue 29).
    await panel.check('#share-formulas');
    await panel.waitForSelector('text=Formulas in this spreadsheet now use your token.');
    expect(await panel.textContent('#settings-note')).toBe(
      '1 formula cell that could not use a token is running again with yours.',
    );
    await page.waitForSelector(`td[data-cell="B4"]:text-is("${domain.name}")`);
    // Then the token removed and saved again: the panel says sharing stopped and is off.
    await panel.click('#remove');
    await panel.waitForSelector('#settings-note :text("no longer use it either")');
    // This build names no dashboard: no link.
    expect(await panel.locator('#dashboard-links').count()).toBe(0);
    await panel.fill('#token', 'sbx_pro_token');
    await panel.click('#save');
    await panel.waitForSelector('#account-email');
    expect(await panel.textContent('#settings-note')).toContain('Formulas in this spreadsheet do not use your token');
    expect(await panel.isChecked('#share-formulas')).toBe(false);
    await stack().screenshot('first-hour-settings-readded');
    await panel.check('#share-formulas');
    await panel.waitForSelector('text=Formulas in this spreadsheet now use your token.');
  });

  it('research: {Domain} is the registered domain in the preview and {Domain:raw} the cell', async () => {
    const { page } = stack();
    await page.click('[data-sheet="Companies"]');
    const cells = await page.$$eval('td[data-cell^="A"]', (tds) =>
      tds.map((td) => [td.getAttribute('data-cell') ?? '', td.textContent ?? '']),
    );
    const [emailCell, email] = cells.find(([, text]) => /^sales@/.test(text))!;
    await page.click(`td[data-cell="${emailCell}"]`);
    const panel = await stack().openPanel('showResearchPanel');
    await panel.waitForSelector(`#selection:has-text("1 row selected")`);
    expect(await panel.textContent('#brief-help')).toContain('{Header:raw}');
    await panel.fill('#brief', 'Research {Domain} ({Domain:raw})');
    await panel.waitForSelector('#brief-preview');
    expect(await panel.textContent('#brief-preview')).toBe(`Research ${email.replace(/^sales@/, '')} (${email})`);
  });
});
