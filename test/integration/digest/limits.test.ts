// Issue 45, point 5, through the built bundle (a published add-on, hourly timers, every panel closed) and the sandbox's
// Slack and Google Chat stand-ins: a spreadsheet named with 40,000 '&' whose 60 sheets have long names carrying a
// right-to-left override and markup, each with a company the refresh finds changed: the week's Slack post holds its
// limit as posted (the text after escaping within 3,500 characters), no control or bidi character reaches the channel,
// nothing but the spreadsheet's link is markup, and every changed row is named or counted. And Google Chat's posts of
// a spreadsheet of the same name (the welcome post, a digest sent at once) stay within the 32,000 bytes its stand-in
// enforces.
import { createProject, SpreadsheetModel } from '../../../dev/gas-runtime';
import { webhookHostRoutes, type ReceivedPost } from '../../../dev/sandbox/webhooks/receiver';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { DigestAnswer } from '../../../src/digest/contract';
import { DIGEST_CHARS } from '../../../src/digest/compose';
import { closeAfterTest, sandboxSuite, sandboxLinkedClock, USER, TOKEN, BUNDLE } from '../harness';
import { DAY, enrich, schedule } from '../scheduler/fleet';

jest.setTimeout(600_000);

const suite = sandboxSuite({ clock: 'manual' });
const SHEETS = 60;
const sheetName = (i: number) =>
  `\u202EQuarterly <!channel> & pipeline review of accounts, region ${i} ${'·'.repeat(40)}`;

/** Control characters (but the line breaks), bidi embeddings, overrides, isolates and marks. */
const CONTROLS = /(?!\n)[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** The text without its one piece of markup, the spreadsheet's link. */
const outsideLink = (text: string) =>
  text.replace(/^(\*Sheet Scout digest\* for )<https:\/\/docs\.google\.com\/[^|\s]+\|([^>\n]*)>/, '$1$2');

/** The rows a digest names ("• " lines under a Keep data fresh heading) and counts ("…and" lines). */
function rowsOf(text: string): { named: number; counted: number } {
  let named = 0;
  let counted = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('• ') && !line.includes('credits')) named += 1;
    const more =
      /^…and ([\d,]+) more changed rows? in /.exec(line) ??
      /^…and [\d,]+ more sheets with ([\d,]+) rows? changed$/.exec(line);
    counted += Number((more?.[1] ?? '0').replace(/,/g, ''));
  }
  return { named, counted };
}

describe('every digest post fits its limit whatever the names (issue 45, point 5)', () => {
  it("a 40,000-'&' spreadsheet name and 60 long sheet names: Slack's 3,500 characters and Chat's 32,000 bytes hold", async () => {
    const clock = closeAfterTest(sandboxLinkedClock(suite.url, await suite.control.now()));
    const project = createProject({
      bundlePath: BUNDLE,
      users: [USER],
      clock,
      addOn: true,
      quotas: 'consumer',
      hostRoutes: webhookHostRoutes(suite.url),
    });
    project.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
    project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, suite.url);
    const companies = await suite.control.companies(SHEETS, true);
    const names = Array.from({ length: SHEETS }, (_, i) => sheetName(i + 1));
    const spreadsheet = new SpreadsheetModel({
      id: 'amp',
      name: '&'.repeat(40_000),
      rows: 20,
      columns: 12,
      sheetNames: names,
    });
    const doc = closeAfterTest(project.addDocument({ spreadsheet }));
    const weekday = new Date(clock.now() + DAY).getUTCDay();
    names.forEach((name, i) => {
      const sheet = spreadsheet.sheet(name);
      sheet.setValues('A1:B2', [
        ['Company', 'Domain'],
        [companies[i].name, companies[i].domain],
      ]);
      spreadsheet.activeSheet = sheet;
      spreadsheet.selection = { sheet, rect: { row: 1, column: 2, numRows: 1, numColumns: 1 } };
      enrich(doc);
      expect(schedule(doc, weekday, 6).ok).toBe(true);
    });
    const slackHook = 'https://hooks.slack.com/services/T0AMP/B0LIMIT/ampersandSecret1';
    expect(
      doc.run<DigestAnswer>('setDigest', [{ webhookUrl: slackHook, cadence: 'weekly', weekday }], { kind: 'sidebar' }),
    ).toMatchObject({ ok: true });
    // Each company's head count moves to one its sheet does not show; the refresh and the digest run that week.
    for (const [i, company] of companies.entries()) {
      const shown = spreadsheet.sheet(names[i]).getDisplayValues()[1][2];
      await suite.control.changeCompany(company.domain, { employee_count: shown === '10001+' ? '1-10' : '10001+' });
    }
    for (let hour = 0; hour < 7 * 24; hour++) {
      clock.advance(3_600_000);
      for (const fired of project.triggers.fireDue()) expect(fired).toMatchObject({ ok: true });
    }
    const slack = (await suite.control.webhookPosts()).at(-1) as ReceivedPost;
    expect(slack).toMatchObject({ service: 'slack', status: 200 });
    expect(slack.text.startsWith('*Sheet Scout digest*')).toBe(true);
    // Slack: the limit holds after escaping (its stand-in keeps the text as posted).
    expect(slack.text.length).toBeLessThanOrEqual(DIGEST_CHARS);
    expect(slack.text).not.toMatch(CONTROLS);
    expect(slack.text).not.toMatch(/&(?!amp;|lt;|gt;)/);
    expect(outsideLink(slack.text)).not.toMatch(/[<>]/);
    const rows = rowsOf(slack.text);
    expect(rows.named).toBeGreaterThan(0);
    expect(rows.named + rows.counted).toBe(SHEETS);

    // Google Chat, in another spreadsheet of the same name: its stand-in refuses a body past 32,000 bytes, the
    // welcome post included.
    const other = new SpreadsheetModel({
      id: 'amp2',
      name: '&'.repeat(40_000),
      rows: 20,
      columns: 12,
      sheetNames: ['Accounts'],
    });
    other.sheet('Accounts').setValues('A1:B2', [
      ['Company', 'Domain'],
      [companies[0].name, companies[0].domain],
    ]);
    const chatDoc = closeAfterTest(project.addDocument({ spreadsheet: other }));
    const chatHook = 'https://chat.googleapis.com/v1/spaces/AAAMP/messages?key=AIzaKey1&token=ampChatSecret';
    expect(
      chatDoc.run<DigestAnswer>('setDigest', [{ webhookUrl: chatHook, cadence: 'weekly', weekday }], {
        kind: 'sidebar',
      }),
    ).toMatchObject({ ok: true });
    expect(chatDoc.run<DigestAnswer>('sendDigestNow', [], { kind: 'sidebar' })).toMatchObject({ ok: true });
    const chats = (await suite.control.webhookPosts()).filter((post) => post.service === 'chat');
    expect(chats.map((post) => post.status)).toEqual([200, 200]);
    for (const chat of chats) {
      expect(Buffer.byteLength(JSON.stringify({ text: chat.text }), 'utf8')).toBeLessThanOrEqual(32_000);
      expect(chat.text.length).toBeLessThanOrEqual(DIGEST_CHARS);
      expect(chat.text).not.toMatch(CONTROLS);
    }
  });
});
