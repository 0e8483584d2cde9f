// A test deployment of the add-on runs no installable triggers (Google's add-on testing guide), and Google does not
// say how: creating one may throw, or it may be made and never run. Under either, through the built bundle, the
// emulator and the sandbox: research launches, the Research panel says that results come only while it is open, and
// its polls write every result; an enrichment says the same when it starts.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { StartResult } from '../../../src/enrichment/contract';
import { sandboxSuite } from '../harness';
import { advance, column, launch, poll as panelPoll, runtimeFor, REPORT_OUTPUT, SHEET } from '../research/harness';

const HOUR = 60 * 60 * 1000;
const suite = sandboxSuite({ clock: 'manual' });

const poll = (rt: GasRuntime) => panelPoll(rt);

describe.each(['refused', 'never-fire'] as const)('a test deployment whose triggers are %s', (installableTriggers) => {
  it('launches research, says the panel collects the results, and its polls write them all', async () => {
    const companies = await suite.control.companies(3);
    const rows = [['Company', 'Domain'], ...companies.map((company) => [company.name, company.domain])];
    const rt = await runtimeFor(suite, rows, 'sbx_pro_token', { addOn: true, behaviours: { installableTriggers } });
    // Tasks of about five hours.
    await suite.control.setResearchSpeed(0.001);
    const launched = launch(rt, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3, 4]);
    expect(launched).toMatchObject({ ok: true, created: 3 });
    if (installableTriggers === 'refused')
      expect(launched.message).toMatch(/a test deployment of the add-on runs no timers\. Results are collected while/);

    // The panel is closed for three hours: nothing runs.
    await advance(suite, rt, 3 * HOUR);
    expect(rt.triggers.fireDue()).toEqual([]);
    expect(column(rt, 'Status').filter((status) => status.startsWith('Done'))).toHaveLength(0);

    // The panel opens while the tasks run: it says why they move only while it is open.
    expect(poll(rt).timer?.problem).toMatch(
      installableTriggers === 'refused'
        ? /did not let Sheet Scout set up this spreadsheet's timer/
        : /timer has not run for 3 h\. Google runs no timers for a test deployment/,
    );
    // Later its polls write every result, with nothing lost meanwhile.
    await advance(suite, rt, 3 * HOUR);
    poll(rt);
    expect(column(rt, 'Status').filter((value) => value.startsWith('Done'))).toHaveLength(3);
  });

  it('starts an enrichment that says it runs while the panel is open', async () => {
    // Companies the service is still enriching (for two minutes): the start's execution ends with the job waiting for them.
    const companies = await suite.control.companies(2, false);
    await suite.control.setEnrichmentDelay(120_000);
    const rows = [['Domain'], ...companies.map((company) => [company.domain])];
    const rt = await runtimeFor(suite, rows, 'sbx_pro_token', { addOn: true, behaviours: { installableTriggers } });
    const sheet = rt.spreadsheet.sheet(SHEET);
    rt.spreadsheet.selection = { sheet, rect: { row: 1, column: 1, numRows: 3, numColumns: 1 } };
    const started = rt.run<StartResult>('startEnrichment', [{ fields: ['company_name'] }], { kind: 'sidebar' });
    expect(started.ok).toBe(true);
    if (started.ok && installableTriggers === 'refused')
      expect(started.progress.message).toMatch(/Until then the job runs only while this panel is open\./);
  });
});

// Google stops running every trigger of an account whose daily trigger time (90 minutes on a consumer account) is
// spent, and the account's other scripts and add-ons spend it too: the panel names that cause as well as a test
// deployment, and collects the results meanwhile.
describe("a timer that stops because the user's other scripts spent the day's trigger time", () => {
  it('is explained by both causes, and the panel collects the results meanwhile', async () => {
    const companies = await suite.control.companies(2);
    const rows = [['Company', 'Domain'], ...companies.map((company) => [company.name, company.domain])];
    const rt = await runtimeFor(suite, rows, 'sbx_pro_token', { addOn: true });
    await suite.control.setResearchSpeed(0.001);
    expect(launch(rt, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3])).toMatchObject(
      { ok: true, created: 2 },
    );
    // Another add-on of the user's runs for the day's 90 minutes: Google runs no trigger of theirs until it frees up.
    rt.project.spentElsewhere('triggerRuntimeMs', 90 * 60 * 1000);
    await advance(suite, rt, 3 * HOUR);
    const fired = rt.triggers.fireDue();
    expect(fired).toEqual([
      expect.objectContaining({ ok: false, error: expect.stringMatching(/too much computer time/) }),
    ]);
    const problem = poll(rt).timer?.problem ?? '';
    expect(problem).toMatch(/timer has not run for 3 h/);
    expect(problem).toMatch(/test deployment/);
    expect(problem).toMatch(/daily time for timers is spent \(90 minutes/);
    expect(problem).toMatch(/other scripts and add-ons/);
    await advance(suite, rt, 3 * HOUR);
    poll(rt);
    expect(column(rt, 'Status').filter((value) => value.startsWith('Done'))).toHaveLength(2);
  });
});

// Google does not say whether an add-on's time-driven trigger runs with its spreadsheet active. If it does not, the
// timer can do nothing: it removes itself at its first run, the panels say so, and their polls collect the results.
describe('an add-on timer that Google runs without its spreadsheet', () => {
  it('retires itself, the panel says why, and the panel writes the results', async () => {
    const companies = await suite.control.companies(2);
    const rows = [['Domain'], ...companies.map((company) => [company.domain])];
    const rt = await runtimeFor(suite, rows, 'sbx_pro_token', {
      addOn: true,
      behaviours: { addOnTimerHasDocument: false },
    });
    await suite.control.setResearchSpeed(0.001);
    expect(launch(rt, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3])).toMatchObject(
      { ok: true, created: 2 },
    );
    expect(rt.triggers.list()).toHaveLength(1);
    await advance(suite, rt, HOUR);
    expect(rt.triggers.fireDue()).toEqual([expect.objectContaining({ ok: true })]);
    expect(rt.triggers.list()).toHaveLength(0);
    const status = poll(rt);
    expect(status.timer?.problem).toMatch(/Google runs Sheet Scout's timers without their spreadsheet/);
    // No new timer is made that would do nothing again.
    expect(rt.triggers.list()).toHaveLength(0);
    await advance(suite, rt, 6 * HOUR);
    poll(rt);
    expect(column(rt, 'Status').filter((value) => value.startsWith('Done'))).toHaveLength(2);
  });
});
