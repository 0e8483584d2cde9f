// The digest through the built bundle, the emulator (a published add-on, hourly timers, every panel closed) and the
// sandbox, whose Slack and Google Chat stand-ins receive it: the account watch's signals as written into the Signals
// cells and the refresh's changes, the spreadsheet linked, what the run cost as the sandbox's money record says;
// a failed post tried again later with nothing lost; only the timer of the editor who set the webhook posts, another
// editor sees who set it and never the address; a webhook the service refuses is not kept; and neither the token nor
// the webhook's address shows up in a cell, a note, a log line, an answer to a panel or a request to another host.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { DigestAnswer, DigestDto } from '../../../src/digest/contract';
import { FIRST_LOOK } from '../../../src/research/watch/watch';
import { sandboxSuite } from '../harness';
import { DAY, fleet, hoursPass, schedule, watch, type Fleet } from '../scheduler/fleet';
import { secretsShown } from '../secrets';
import { agrees, historyAgainstService } from '../spending-history/oracle';

jest.setTimeout(300_000);

const suite = sandboxSuite({ clock: 'manual' });
const EDITOR = 'ben@example.com';
const SECRET = 'Zx9digestSecret4u';
const SLACK = `https://hooks.slack.com/services/T0SALES/B0DIGEST/${SECRET}`;
const TOKENS = ['sbx_pro_token', 'sbx_pro2_token'];

const setDigest = (doc: GasRuntime, request: { webhookUrl: string; cadence: string; weekday: number }, user?: string) =>
  doc.run<DigestAnswer>('setDigest', [request], { kind: 'sidebar', user });
const digestState = (doc: GasRuntime, user?: string) => doc.run<DigestDto>('getDigest', [], { kind: 'sidebar', user });

/** The Signals column's cells that report a change (not "No change" or a first look), by the row's domain. */
function signalCells(doc: GasRuntime): Map<string, string> {
  const values = doc.spreadsheet.sheet('Accounts').getDisplayValues();
  const signals = values[0].indexOf('Signals');
  const domain = values[0].indexOf('Domain');
  const found = new Map<string, string>();
  for (const row of values.slice(1))
    if (signals >= 0 && row[signals] && row[signals] !== 'No change' && row[signals] !== FIRST_LOOK)
      found.set(row[domain], row[signals]);
  return found;
}

/** A day of the week `days` from the fleet's clock (0 = Sunday, UTC: the fleet's spreadsheets' zone). */
const weekdayIn = (kept: Fleet, days: number) => new Date(kept.clock.now() + days * DAY).getUTCDay();

/** A fleet of one spreadsheet of four companies (two editors), watched and refreshed weekly from tomorrow. */
async function watchedSpreadsheet(): Promise<{ kept: Fleet; doc: GasRuntime; weekday: number }> {
  const kept = await fleet(suite, 1, { rows: 4, users: [EDITOR] });
  const [doc] = kept.docs;
  kept.project.properties.user(EDITOR).set('sheetscout.token', 'sbx_pro2_token');
  kept.project.properties.user(EDITOR).set('sheetscout.baseUrl', suite.control.url);
  const weekday = weekdayIn(kept, 1);
  expect(watch(doc, 4, weekday).ok).toBe(true);
  expect(schedule(doc, weekday, 6).ok).toBe(true);
  return { kept, doc, weekday };
}

describe('digest (integration)', () => {
  it("posts each week's signals and changes with every panel closed, with what the run cost", async () => {
    const { kept, doc, weekday } = await watchedSpreadsheet();
    const saved = setDigest(doc, { webhookUrl: SLACK, cadence: 'weekly', weekday });
    expect(saved).toMatchObject({
      ok: true,
      state: { digest: { label: 'Slack webhook T0SALES/B0DIGEST', postedByYou: true } },
    });
    const [hello] = await suite.control.webhookPosts();
    expect(hello.text).toContain(
      'Sheet Scout will post a digest of <https://docs.google.com/spreadsheets/d/kept-1/edit|Accounts 1>',
    );
    // The first week: the watch takes its first look; then two companies change.
    await hoursPass(suite, kept, 36);
    expect((await suite.control.webhookPosts()).length).toBe(2);
    for (const domain of kept.domains[0].slice(1, 3))
      await suite.control.changeCompany(domain, { employee_count: '10001+' });
    await hoursPass(suite, kept, 7 * 24);
    const posts = await suite.control.webhookPosts();
    expect(posts.map((post) => post.status)).toEqual([200, 200, 200]);
    const digest = posts[2].text;
    expect(digest).toMatch(
      /^\*Sheet Scout digest\* for <https:\/\/docs\.google\.com\/spreadsheets\/d\/kept-1\/edit\|Accounts 1>/,
    );
    // Every signal the cells show is in the digest, as written.
    const cells = signalCells(doc);
    expect(cells.size).toBe(2);
    for (const [domain, signals] of cells) expect(digest).toContain(`• ${domain}: ${signals.replace(/>/g, '&gt;')}`);
    expect(digest).toContain('*Keep data fresh, Accounts*: 2 rows changed');
    // What the run cost: the spending history's figures, which are the sandbox's.
    const [run] = (await historyAgainstService(suite.control, doc, TOKENS)).filter(
      ({ run }) => run.at > kept.clock.now() - 8 * DAY,
    );
    expect(agrees(run)).toBe(true);
    expect(digest).toContain(
      `(Accounts, 4 rows): ${run.service.reserved} credits reserved, ${run.service.charged} charged, ${run.service.givenBack} given back`,
    );
    expect(digestState(doc).digest).toMatchObject({ posts: 2, problem: null, lastPost: { rows: 4 } });
    // The address went to its own host alone, and shows nowhere.
    const carrying = kept.project.httpLog.filter((entry) => entry.url.includes(SECRET));
    expect(carrying.every((entry) => entry.url === SLACK)).toBe(true);
    expect(secretsShown(doc, [SECRET, ...TOKENS])).toEqual([]);
    expect(JSON.stringify(digestState(doc))).not.toContain(SECRET);
    expect(JSON.stringify(doc.properties.document.all())).not.toContain(SECRET);
    await kept.project.close();
  });

  it('tries a failed post again later: its signals wait, nothing is lost', async () => {
    const { kept, doc, weekday } = await watchedSpreadsheet();
    expect(setDigest(doc, { webhookUrl: SLACK, cadence: 'run', weekday }).ok).toBe(true);
    await hoursPass(suite, kept, 36);
    for (const domain of kept.domains[0].slice(0, 2))
      await suite.control.changeCompany(domain, { employee_count: '10001+' });
    await suite.control.scriptWebhookAnswers(503, 3, 60);
    // Hour by hour until the week's run has written its signals and the first post of them failed.
    let failing: DigestDto['digest'] = null;
    for (let hour = 0; hour < 8 * 24 && !failing?.problem; hour++) {
      await hoursPass(suite, kept, 1);
      failing = digestState(doc).digest;
    }
    expect(failing?.problem?.message).toBe('Slack answered 503 rollup_error');
    expect(JSON.stringify(failing)).not.toContain(SECRET);
    expect(signalCells(doc).size).toBe(2);
    // Tried again after a growing wait (15 min, 30 min, 1 h: at the hourly timer's ticks) until the service takes it.
    await hoursPass(suite, kept, 4);
    const posts = await suite.control.webhookPosts();
    expect(posts.map((post) => post.status).slice(-4)).toEqual([503, 503, 503, 200]);
    const delivered = posts.at(-1)?.text ?? '';
    for (const [domain, signals] of signalCells(doc))
      expect(delivered).toContain(`• ${domain}: ${signals.replace(/>/g, '&gt;')}`);
    expect(digestState(doc).digest?.problem).toBeNull();
    await kept.project.close();
  });

  it('shows a Google Chat digest once though the answer to its post was lost and the post tried again', async () => {
    const { kept, doc, weekday } = await watchedSpreadsheet();
    const chat = 'https://chat.googleapis.com/v1/spaces/AAAQ2/messages?key=AIzaKey2&token=chatSecret77';
    expect(setDigest(doc, { webhookUrl: chat, cadence: 'run', weekday }).ok).toBe(true);
    await hoursPass(suite, kept, 36);
    for (const domain of kept.domains[0].slice(0, 2))
      await suite.control.changeCompany(domain, { employee_count: '10001+' });
    // Chat makes the message, and the answer never arrives: the add-in cannot tell it was posted.
    await suite.control.scriptWebhookAnswers('lost', 1);
    let failing: DigestDto['digest'] = null;
    for (let hour = 0; hour < 8 * 24 && !failing?.problem; hour++) {
      await hoursPass(suite, kept, 1);
      failing = digestState(doc).digest;
    }
    expect(failing?.problem?.message).toBe('Google Chat could not be reached');
    // Tried again at a later tick: the space shows the digest once.
    await hoursPass(suite, kept, 2);
    expect(digestState(doc).digest?.problem).toBeNull();
    const posts = await suite.control.webhookPosts();
    const lost = posts.find((post) => post.answerLost);
    expect(posts.filter((post) => post.repeatOf === lost?.id)).toHaveLength(1);
    const [changedDomain] = kept.domains[0];
    const shown = posts.filter((post) => post.status === 200 && post.repeatOf === undefined);
    expect(shown.filter((post) => post.text.includes(`• ${changedDomain}: `))).toHaveLength(1);
    // Chat's own markup, pinned: *bold* stays bold whatever the space's default.
    const digestPosts = kept.project.httpLog.filter((entry) => entry.url.startsWith(chat));
    expect(digestPosts.every((entry) => JSON.parse(String(entry.body)).markupSyntax === 'MARKUP_SYNTAX_CHAT')).toBe(
      true,
    );
    expect(secretsShown(doc, ['chatSecret77', ...TOKENS])).toEqual([]);
    await kept.project.close();
  });

  it("posts from the setter's timer only: another editor sees who set it, never the address, and may replace it", async () => {
    const { kept, doc, weekday } = await watchedSpreadsheet();
    expect(setDigest(doc, { webhookUrl: SLACK, cadence: 'weekly', weekday }).ok).toBe(true);
    const seen = digestState(doc, EDITOR).digest;
    expect(seen).toMatchObject({
      setBy: 'pro@sandbox.example.com',
      postedByYou: false,
      label: 'Slack webhook T0SALES/B0DIGEST',
    });
    expect(doc.run<DigestAnswer>('sendDigestNow', [], { kind: 'sidebar', user: EDITOR })).toMatchObject({
      ok: false,
      message: "This digest is posted by pro@sandbox.example.com's Sheet Scout: ask them, or set your own",
    });
    expect(JSON.stringify(kept.project.properties.user(EDITOR).all())).not.toContain(SECRET);
    // The editor sets a Google Chat space instead: their timer posts it from now on; the first setter's address goes.
    const chat = 'https://chat.googleapis.com/v1/spaces/AAAQ1/messages?key=AIzaKey1&token=chatSecret99';
    const replaced = setDigest(doc, { webhookUrl: chat, cadence: 'weekly', weekday }, EDITOR);
    expect(replaced.state.digest).toMatchObject({ setBy: 'pro2@sandbox.example.com', postedByYou: true });
    await hoursPass(suite, kept, 36);
    const posts = await suite.control.webhookPosts();
    expect(posts.map((post) => [post.service, post.status])).toEqual([
      ['slack', 200],
      ['chat', 200],
      ['chat', 200],
    ]);
    expect(JSON.stringify(kept.project.properties.user().all())).not.toContain(SECRET);
    expect(secretsShown(doc, [SECRET, 'chatSecret99', ...TOKENS])).toEqual([]);
    await kept.project.close();
  });

  it('keeps nothing of an address that is no webhook, or of a webhook its service refuses', async () => {
    const { kept, doc, weekday } = await watchedSpreadsheet();
    const typed = `https://hooks.slack.com.example.net/services/T1/B2/${SECRET}`;
    const refused = setDigest(doc, { webhookUrl: typed, cadence: 'weekly', weekday });
    expect(refused.ok).toBe(false);
    expect(refused.message).not.toContain(SECRET);
    await suite.control.scriptWebhookAnswers(404);
    expect(setDigest(doc, { webhookUrl: SLACK, cadence: 'weekly', weekday })).toMatchObject({
      ok: false,
      message: 'Nothing was saved: Slack answered 404 no_service',
      state: { digest: null },
    });
    expect(JSON.stringify(kept.project.properties.user().all())).not.toContain(SECRET);
    await kept.project.close();
  });
});
