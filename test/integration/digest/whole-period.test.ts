// Issue 48, point 5, through the built bundle (a published add-on, hourly timers, every panel closed) and the sandbox's
// Slack stand-in: a week in which "Keep enriching new rows" filled 15 rows, research on new rows launched some of them
// (then its monthly limit held the rest), a scheduled refresh checked nothing (every row newer than its 7 days), the
// account watch ran and a research launch was made from the panel. The week's digest says all of it: the rows filled
// (as the sheet shows them), the runs that did nothing and why, and what each run cost as the sandbox's money record
// says; never "No changes: … found nothing new".
import { REPORT_OUTPUT, launch } from '../research/harness';
import { appendRows, keepNewRows, researchNewRows, rowsOf } from '../new-rows/harness';
import { sandboxSuite } from '../harness';
import { DAY, fleet, hoursPass, schedule, watch } from '../scheduler/fleet';
import { historyAgainstService } from '../spending-history/oracle';
import type { DigestAnswer } from '../../../src/digest/contract';

jest.setTimeout(300_000);

const suite = sandboxSuite({ clock: 'manual' });
const SLACK = 'https://hooks.slack.com/services/T0WEEK/B0DIGEST/wholeWeekSecret1';
const TOKEN = 'sbx_pro_token';

describe('the digest covers the whole period (issue 48, point 5)', () => {
  it('names the rows new rows filled, the runs that did nothing and why, and what every run cost', async () => {
    await suite.control.setAccount('sandbox-pro', { credits: 10_000 });
    const kept = await fleet(suite, 1, { rows: 4 });
    const [doc] = kept.docs;
    const weekday = (days: number) => new Date(kept.clock.now() + days * DAY).getUTCDay();
    expect(keepNewRows(doc)).toMatchObject({ ok: true });
    const research = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };
    expect(researchNewRows(doc, { ...research, monthlyLimit: 30 })).toMatchObject({ ok: true });
    expect(schedule(doc, weekday(3), 6, 7).ok).toBe(true);
    expect(watch(doc, 4, weekday(4)).ok).toBe(true);
    const set = doc.run<DigestAnswer>('setDigest', [{ webhookUrl: SLACK, cadence: 'weekly', weekday: weekday(1) }], {
      kind: 'sidebar',
    });
    expect(set.ok).toBe(true);
    // The first digest goes out tomorrow; the week after it is the one to tell.
    await hoursPass(suite, kept, 36);
    const before = (await suite.control.webhookPosts()).length;
    const weekFrom = kept.clock.now();
    const arriving = (await suite.control.companies(30, true)).slice(10, 25).map((company) => company.domain);
    await hoursPass(suite, kept, 5 * 24, () => {
      const hour = Math.round((kept.clock.now() - weekFrom) / 3_600_000);
      if (hour % 24 === 2 && hour < 5 * 24)
        appendRows(
          doc,
          'Accounts',
          arriving.slice((hour - 2) / 8, (hour - 2) / 8 + 3).map((d) => ['', d]),
        );
      if (hour === 50) expect(launch(doc, research, [2])).toMatchObject({ ok: true, created: 1 });
    });
    await hoursPass(suite, kept, 2 * 24);
    const posts = (await suite.control.webhookPosts()).slice(before);
    const digests = posts.filter((post) => post.text.startsWith('*Sheet Scout digest*'));
    expect(digests).toHaveLength(1);
    const text = digests[0].text;

    // The rows filled, as the sheet shows them.
    const filled = arriving.filter((domain) => rowsOf(doc, 'Accounts', 'Domain', domain)[0]?.Employees !== '');
    expect(filled).toHaveLength(15);
    expect(text).toContain('*Keep enriching new rows*: 15 rows filled');
    expect(text).toContain('• Accounts: 15 rows filled');
    // The runs that did nothing, and why.
    expect(text).toMatch(/\n\*Runs that did nothing\*: \d+\n/);
    expect(text).toMatch(
      /\n• Keep data fresh, Accounts, \w{3} \d+ \w{3} \d\d:\d\d: no row checked: every row was refreshed less than 7 days ago\n/,
    );
    expect(text).toMatch(
      /\n• Research on new rows, Accounts, \w{3} \d+ \w{3} \d\d:\d\d: 3 new rows not researched: this month's limit is reached/,
    );
    expect(text).not.toContain('No changes');
    // What each run of the week cost, as the sandbox's money record says.
    const runs = (await historyAgainstService(suite.control, doc, [TOKEN])).filter(({ run }) => run.at > weekFrom);
    expect(runs.map(({ run }) => run.kind).sort()).toEqual(['launch', 'new-rows', 'watch']);
    for (const { run, service } of runs) {
      expect(service.tasks).toBe(run.rows);
      expect(text).toContain(
        `(Accounts, ${run.rows} row${run.rows === 1 ? '' : 's'}): ${service.reserved} credits reserved, ${service.charged} charged, ${service.givenBack} given back`,
      );
    }
    const reserved = runs.reduce((sum, { service }) => sum + service.reserved, 0);
    expect(text).toMatch(new RegExp(`\\nResearch in all: ${reserved} credits reserved, `));
    await kept.project.close();
  });
});
