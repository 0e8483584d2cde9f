// A failure that reaches the service says what was sent, created and reserved (issue 48, point 3), at 300 px, each
// figure held against the sandbox's record: a research launch whose first request got no answer launched nothing and
// was charged nothing; creates the service would not take (503) created and reserved nothing, and the timer sends them
// once it answers; an enrichment whose lookups the service refuses says what they met and that lookups cost nothing.
import { describeWithBrowser, stackForSuite } from '../harness';
import { clippedTexts } from '../layout-check';

const TOKEN = 'sbx_pro_token';

describeWithBrowser('failures say what was sent, created and reserved', () => {
  const stack = stackForSuite();

  afterEach(async () => {
    await stack().control.clearFaults();
  });

  /** What the sandbox's money record holds for the account: credits reserved so far, all days. */
  const reserved = async () => (await stack().control.ledger(TOKEN)).days.reduce((sum, day) => sum + day.reserved, 0);

  it('a launch the service did not answer: nothing launched, nothing charged', async () => {
    const { control } = stack();
    const credits = await control.credits(TOKEN);
    const panel = await stack().researchPanelOn(2, 4);
    await control.setFault({ route: 'user', dropRate: 1 });
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result .message');
    expect(await panel.textContent('#launch-result')).toMatch(
      /^Nothing was launched and nothing charged: the service could not be reached \(no answer\)\. No task was created and no credits were reserved; launch again when the service answers\./,
    );
    await control.clearFaults();
    expect(await control.tasks(TOKEN)).toEqual([]);
    expect(await reserved()).toBe(0);
    expect(await control.credits(TOKEN)).toBe(credits);
    expect(await clippedTexts(panel)).toEqual([]);
    await panel.locator('#launch-result').scrollIntoViewIfNeeded();
    await stack().screenshot('launch-unreachable');
  });

  it('creates the service did not take: nothing created or reserved, sent by the timer once it answers', async () => {
    const { control } = stack();
    const panel = await stack().researchPanelOn(2, 4);
    await control.setFault({ route: 'tasks.create', errorRate: 1, errorStatus: 503 });
    await panel.click('#launch');
    await panel.waitForSelector('#launch-result .message');
    expect(await panel.textContent('#launch-result')).toMatch(
      /^3 not created yet: the service did not take them, so nothing was reserved or charged for them; the timer sends them when it answers/,
    );
    expect(await control.tasks(TOKEN)).toEqual([]);
    expect(await reserved()).toBe(0);
    await control.clearFaults();
    await stack().finishTasks();
    await stack().finishTasks();
    expect(await control.tasks(TOKEN)).toHaveLength(3);
    expect(await reserved()).toBe(30);
  });

  it('lookups the service refuses: what they met, and that lookups are free', async () => {
    const { page, control } = stack();
    const domains = (await control.companies(3, true)).map((company) => company.domain);
    await page.click('[data-sheet="Notes"]');
    await stack().setCell('Notes', 'C1', 'Domain');
    for (const [i, domain] of domains.entries()) await stack().setCell('Notes', `C${i + 2}`, domain);
    await page.waitForSelector(`td[data-cell="C4"]:text-is("${domains[2]}")`);
    await page.click('td[data-cell="C1"]');
    const credits = await control.credits(TOKEN);
    const panel = await stack().openPanel('showEnrichPanel');
    await panel.waitForSelector('#enrich-preview');
    await control.setFault({ route: 'lookup', errorRate: 1, errorStatus: 503 });
    await panel.click('#enrich-start');
    await panel.waitForSelector('#enrich-waiting');
    expect(await panel.textContent('#enrich-waiting')).toMatch(
      /^Waiting: 3 lookups to try again \(the service was unavailable \(HTTP 503\); lookups cost 0 credits: nothing was charged\); /,
    );
    expect(await control.credits(TOKEN)).toBe(credits);
    expect(await clippedTexts(panel)).toEqual([]);
    await stack().screenshot('enrich-unavailable');
  });
});
