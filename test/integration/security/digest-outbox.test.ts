// Issue 45, point 4: nobody can post into a digest's channel through the hidden digest sheet. Through the built bundle
// in the emulator (a published add-on, hourly timers, every panel closed) against the sandbox's Slack stand-in, with
// two editors: A sets the digest (only A's timer posts it, and only A knows the webhook); B, who never sees the
// webhook, appends a row of B's own to the hidden "Sheet Scout digest" sheet, and later puts back an older copy of a
// row A's digest already posted. The outbox's rows are sealed and the document's properties keep what was posted:
// neither reaches the channel, and the signals the watch wrote are posted once each.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { DigestAnswer } from '../../../src/digest/contract';
import { sandboxSuite } from '../harness';
import { fleet, hoursPass, watch, DAY, type Fleet } from '../scheduler/fleet';

jest.setTimeout(300_000);

const suite = sandboxSuite({ clock: 'manual' });
const EDITOR = 'ben@example.com';
const SLACK = 'https://hooks.slack.com/services/T0SALES/B0DIGEST/Zx9outboxSecret';
const DIGEST_SHEET = 'Sheet Scout digest';
const FORGED = 'Your Sheet Scout token expired: sign in again at https://sheet-scout.example.net/login';

/** A watched spreadsheet of four companies (weekly, from tomorrow) with a weekly digest two days after, set by A. */
async function digested(): Promise<{ kept: Fleet; doc: GasRuntime }> {
  const kept = await fleet(suite, 1, { rows: 4, users: [EDITOR] });
  const [doc] = kept.docs;
  kept.project.properties.user(EDITOR).set('sheetscout.token', 'sbx_pro2_token');
  kept.project.properties.user(EDITOR).set('sheetscout.baseUrl', suite.control.url);
  const weekday = new Date(kept.clock.now() + DAY).getUTCDay();
  expect(watch(doc, 4, weekday).ok).toBe(true);
  const request = { webhookUrl: SLACK, cadence: 'weekly', weekday: (weekday + 2) % 7 };
  expect(doc.run<DigestAnswer>('setDigest', [request], { kind: 'sidebar' }).ok).toBe(true);
  return { kept, doc };
}

/** B's append of a row to the hidden digest sheet, shaped like the rows the add-in writes there. */
function appendForged(doc: GasRuntime): void {
  const sheet = doc.spreadsheet.getSheet(DIGEST_SHEET) ?? doc.spreadsheet.insertSheet(DIGEST_SHEET);
  const values = sheet.getValues();
  const header = values[0]?.[0] === 'seal';
  const row = [
    new Date(doc.clock.now()).toISOString(),
    doc.spreadsheet.sheet('Accounts').sheetId,
    'acme.com',
    FORGED,
    'w:1',
  ];
  const cells = header ? ['NmY2ZjdhYjI4ZDE0NDk2Yw', ...row] : row;
  const at = Math.max(values.length, 1) + 1;
  if (sheet.maxRows < at) sheet.insertRows(sheet.maxRows + 1, at - sheet.maxRows);
  sheet.setValues(`A${at}:${String.fromCharCode(64 + cells.length)}${at}`, [cells]);
}

describe('the hidden digest sheet (issue 45, point 4)', () => {
  it("a row another editor appends is never posted; the watch's signals are, once", async () => {
    const { kept, doc } = await digested();
    await hoursPass(suite, kept, 36);
    for (const domain of kept.domains[0].slice(0, 2))
      await suite.control.changeCompany(domain, { employee_count: '10001+' });
    appendForged(doc);
    let copy: Array<Array<string | number>> = [];
    // Hour by hour until the next week's digest posts the watch's signals: B keeps a copy of them while they wait in
    // the sheet.
    const postedSignals = async () =>
      (await suite.control.webhookPosts()).some((post) => post.status === 200 && post.text.includes('employee_count'));
    for (let hour = 0; hour < 14 * 24 && !(await postedSignals()); hour++) {
      const waiting = doc.spreadsheet.getSheet(DIGEST_SHEET)?.getValues().slice(1) ?? [];
      if (waiting.some((row) => row.some((cell) => String(cell).includes('employee_count'))))
        copy = waiting as Array<Array<string | number>>;
      await hoursPass(suite, kept, 1);
    }
    expect(await postedSignals()).toBe(true);
    expect(copy.length).toBeGreaterThan(0);
    // B puts the older rows back after their digest went out; another week passes with no change at the service.
    const sheet = doc.spreadsheet.sheet(DIGEST_SHEET);
    if (sheet.maxRows < copy.length + 1) sheet.insertRows(sheet.maxRows + 1, copy.length + 1 - sheet.maxRows);
    sheet.setValues(`A2:${String.fromCharCode(64 + copy[0].length)}${copy.length + 1}`, copy);
    await hoursPass(suite, kept, 8 * 24);
    const texts = (await suite.control.webhookPosts()).filter((post) => post.status === 200).map((post) => post.text);
    expect(texts.filter((text) => text.includes('token expired') || text.includes('sheet-scout.example.net'))).toEqual(
      [],
    );
    for (const domain of kept.domains[0].slice(0, 2))
      expect(texts.filter((text) => text.includes(`• ${domain}: employee_count`))).toHaveLength(1);
    await kept.project.close();
  });
});
