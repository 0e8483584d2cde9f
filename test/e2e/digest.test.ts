// The digest in the playground at 300 px (issue 40, item 2): the Companies sheet enriched, three rows watched and the
// sheet refreshed weekly, the digest set in Settings to a Slack webhook (the sandbox's stand-in); two weeks of the
// timer with the panel left alone and, between them, one company grown at the service. The second week's digest, as
// the playground's Posted messages page shows it, names the spreadsheet with its link, the watched row's signal as its
// Signals cell says it, the refreshed row's changed cells, the new rows "Keep enriching new rows" filled that week
// (issue 48, point 5), and the watch run's cost as the sandbox's money record has it; the Settings section says when it
// was posted. Its picture is docs/pictures/digest-slack.png.
import * as path from 'path';
import { ARTIFACTS, describeWithBrowser, stackForSuite } from './harness';
import { clippedTexts } from './layout-check';
import type { EnrichProgress, StartResult } from '../../src/enrichment/contract';
import type { WatchAnswer } from '../../src/research/contract';

jest.setTimeout(180_000);

const DAY_MS = 86_400_000;
const USER = 'demo@sheetscout.test';
const WEBHOOK = 'https://hooks.slack.com/services/T0SALES/B0DIGEST/playground01';

describeWithBrowser('digest in the playground', () => {
  const stack = stackForSuite();

  it("posts the week's signal, the refresh's changes and the run's cost where the team works", async () => {
    const { control, playground, advanceTime, finishTasks } = stack();
    const runtime = playground.runtime;
    const run = <T>(name: string, args: unknown[] = []) => runtime.run<T>(name, args, { kind: 'sidebar', user: USER });

    // The sheet enriched (company name, employees) as the Enrich panel does it.
    const companies = runtime.spreadsheet.sheet('Companies');
    runtime.spreadsheet.selection = { sheet: companies, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
    const started = run<StartResult>('startEnrichment', [{ fields: ['company_name', 'employee_count'] }]);
    if (!started.ok) throw new Error(started.message);
    let progress = started.progress;
    for (let step = 0; step < 50 && progress.status === 'running'; step++) {
      progress = run<EnrichProgress>('runEnrichmentChunk');
      if (progress.nextStepInMs > 0) await advanceTime(progress.nextStepInMs);
    }
    expect(progress.status).toBe('done');
    // Its new rows kept enriched (the rows other tools add during the weeks).
    expect(run<{ ok: boolean }>('setNewRows', [{ on: true }]).ok).toBe(true);
    // Tomorrow's weekday in the spreadsheet's time zone: the watch, the refresh and the digest all go then.
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(
      new Intl.DateTimeFormat('en-US', { timeZone: runtime.spreadsheet.timeZone, weekday: 'short' }).format(
        new Date(runtime.clock.now() + DAY_MS),
      ),
    );
    const request = {
      sheetId: companies.sheetId,
      rows: [2, 3, 4],
      template: 'Research {Domain}',
      depth: 'medium',
      output: {
        kind: 'fields',
        statusHeader: 'Watch status',
        fields: [{ name: 'employee_count', type: 'string', required: true, evidence: false }],
        schemaText: '',
        columns: {},
      },
      cadence: 'weekly',
      weekday,
    };
    const asked = run<WatchAnswer>('saveResearchWatch', [{ ...request, confirmedCreditsPerRun: null }]);
    expect(
      run<WatchAnswer>('saveResearchWatch', [{ ...request, confirmedCreditsPerRun: asked.confirm?.creditsPerRun }]).ok,
    ).toBe(true);
    expect(run<{ ok: boolean }>('setRefreshSchedule', [{ cadence: 'weekly', weekday, days: 0 }]).ok).toBe(true);

    // The digest, set in Settings like a user does it.
    const settings = await stack().openPanel('showSettingsPanel');
    await settings.waitForSelector('#digest-webhook');
    await settings.fill('#digest-webhook', WEBHOOK);
    await settings.selectOption('#digest-weekday', String(weekday));
    await settings.click('#digest-save');
    await settings.waitForSelector('#digest :text("The digest goes to Slack every")');
    // The webhook's address is not shown again: nowhere in the panel, in its markup or in a field's value.
    const shownText = await settings.evaluate(
      () =>
        document.documentElement.outerHTML +
        Array.from(document.querySelectorAll('input'), (input) => input.value).join(' '),
    );
    expect(shownText).not.toContain(WEBHOOK);
    expect(await clippedTexts(settings)).toEqual([]);

    // The first week: the watch's first look; then the service learns that a watched company grew.
    await advanceTime(8 * DAY_MS);
    await finishTasks();
    await finishTasks();
    const domain = (await control.companies(46, true))[1].domain;
    await control.changeCompany(domain, { employee_count: '10001+' });
    const charged = async () => (await control.ledger('sbx_pro_token')).days.reduce((sum, day) => sum + day.charged, 0);
    const chargedBefore = await charged();
    const postsBefore = (await control.webhookPosts()).length;
    // During the second week, another tool adds two companies under the list: the timer fills them.
    const listed = companies.getDisplayValues().map((row) => row[0].toLowerCase());
    const added = (await control.companies(200, true))
      .filter((company) => !listed.some((cell) => cell.includes(company.domain)))
      .slice(0, 2);
    const next = companies.lastRow() + 1;
    companies.setValues(`A${next}:A${next + 1}`, [[added[0].domain], [added[1].domain]]);
    // The time jumps: the first run started a week late (the jump landed past its slot), so the next is at the first
    // slot at least 80% of a week after that start, which a jump of 8 more days passes.
    await advanceTime(8 * DAY_MS);
    await finishTasks();
    await finishTasks();
    const posts = (await control.webhookPosts()).slice(postsBefore);
    expect(posts.map((post) => post.status)).toEqual([200]);
    const digest = posts[0].text;
    const signals = companies.getDisplayValues()[0].indexOf('Signals');
    const signal = companies.getDisplayValues()[2][signals];
    expect(signal).toMatch(/^employee_count .* → 10001\+$/);
    // The row is named by the values its brief reads, as the sheet shows them (the domain typed as a URL here).
    const label = companies.getDisplayValues()[2][0];
    expect(label).toContain(domain);
    expect(digest).toContain(`• ${label}: ${signal.replace(/>/g, '&gt;')}`);
    expect(digest).toContain('*Keep data fresh, Companies*: 1 row changed');
    expect(digest).toContain(`(Companies, 3 rows): 30 credits reserved, ${(await charged()) - chargedBefore} charged`);
    expect(digest).not.toContain('playground01');
    // The week's other work: the rows "Keep enriching new rows" filled, as the sheet holds them.
    const shownNow = companies.getDisplayValues();
    const nameColumn = shownNow[0].findIndex((header) => /company name/i.test(header));
    expect(shownNow.slice(next - 1, next + 1).map((row) => row[nameColumn])).toEqual(added.map((c) => c.name));
    expect(digest).toContain('*Keep enriching new rows*: 2 rows filled');
    expect(digest).toContain('• Companies: 2 rows filled');

    // The Settings section says it was posted; the Posted messages page shows it as Slack would.
    const reopened = await stack().openPanel('showSettingsPanel');
    await reopened.waitForSelector('#digest-last:has-text("Last posted")');
    const posted = await stack().browser.newPage({ viewport: { width: 1280, height: 800 } });
    await posted.goto(`${playground.url}posted`);
    const card = posted.locator('article.post').first();
    expect(await card.textContent()).toContain(`${label}: ${signal}`);
    await card.screenshot({ path: path.join(ARTIFACTS, 'digest-slack.png') });
    await posted.close();
  });
});
