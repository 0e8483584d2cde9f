// Which addresses a digest may be posted to (Slack's and Google Chat's incoming webhooks, checked without ever
// repeating what was typed), and what a post's answer means: success, a busy or unreachable service tried again after
// a growing wait, a refusal tried every 6 hours with what to do; no message carries the address.
import { parseWebhook, WEBHOOK_PROBLEM } from '../../../src/digest/webhook';
import { postRequest, postResult } from '../../../src/digest/post';
import type { HttpOutcome } from '../../../src/ports';

const SLACK = 'https://hooks.slack.com/services/T0123ABC/B0456DEF/abcdefghijklmnopqrstuvwx';
const CHAT =
  'https://chat.googleapis.com/v1/spaces/AAAA1234/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=k3y_t0k3n%3D';
const MINUTE = 60_000;

describe('webhook addresses', () => {
  it("takes Slack's and Google Chat's incoming webhooks, showing only their ids", () => {
    expect(parseWebhook(` ${SLACK} `)).toEqual({
      service: 'slack',
      url: SLACK,
      label: 'Slack webhook T0123ABC/B0456DEF',
    });
    expect(parseWebhook(CHAT)).toEqual({ service: 'chat', url: CHAT, label: 'Google Chat space AAAA1234' });
    expect(parseWebhook(`${CHAT}&threadKey=digest`)).toMatchObject({ service: 'chat' });
  });

  it('refuses every other address without repeating it', () => {
    const refused = [
      SLACK.replace('https', 'http'),
      SLACK.replace('hooks.slack.com', 'hooks.slack.com.evil.test'),
      `${SLACK}?x=1`,
      'https://hooks.slack.com/workflows/T1/A1/1/abcdefgh',
      'https://api.sheetscout.test/v1/user',
      CHAT.replace(/&token=[^&]*/, ''),
      `${CHAT}&redirect=https://evil.test`,
      'https://chat.googleapis.com/v1/spaces/AAAA1234/messages',
      'javascript:alert(1)',
      '',
    ];
    for (const typed of refused) {
      const parsed = parseWebhook(typed);
      expect(parsed).toHaveProperty('problem');
      const problem = (parsed as { problem: string }).problem;
      expect(problem).not.toContain('abcdefgh');
      expect(problem).not.toContain('k3y_t0k3n');
      expect(problem).not.toContain('evil');
    }
    expect(parseWebhook('https://example.com/hook')).toEqual({ problem: WEBHOOK_PROBLEM });
  });
});

const answer = (status: number, body: string, headers: Record<string, string> = {}): HttpOutcome => ({
  ok: true,
  status,
  headers,
  body,
});

describe('posting a digest', () => {
  it('sends JSON text to the webhook alone in its markup, without link unfurls on Slack', () => {
    expect(postRequest('slack', SLACK, 'Hi', 'd1-100')).toEqual({
      url: SLACK,
      method: 'post',
      headers: { 'Content-Type': 'application/json' },
      payload: JSON.stringify({ text: 'Hi', mrkdwn: true, unfurl_links: false, unfurl_media: false }),
    });
    const chat = postRequest('chat', CHAT, 'Hi', 'd1-100');
    expect(JSON.parse(chat.payload as string)).toEqual({ text: 'Hi', markupSyntax: 'MARKUP_SYNTAX_CHAT' });
    expect(chat.url).toBe(`${CHAT}&requestId=sheetscout-d1-100`);
  });

  it("gives every try of one digest Google Chat's same request id, and another digest another", () => {
    const idOf = (digestId: string) => new URL(postRequest('chat', CHAT, 'text of this try', digestId).url);
    expect(idOf('cfg-7-1700000000000').searchParams.get('requestId')).toBe('sheetscout-cfg-7-1700000000000');
    expect(idOf('cfg-7-1700000000000').searchParams.get('requestId')).toBe(
      idOf('cfg-7-1700000000000').searchParams.get('requestId'),
    );
    expect(idOf('cfg-7-1700003600000').searchParams.get('requestId')).not.toBe(
      idOf('cfg-7-1700000000000').searchParams.get('requestId'),
    );
    // The webhook's own key and token stay as they were.
    expect(idOf('x').searchParams.get('key')).toBe(new URL(CHAT).searchParams.get('key'));
  });

  it('tries a busy or unreachable service again after 15 minutes, doubling to 6 hours', () => {
    expect(postResult('slack', answer(200, 'ok'), 1, 0)).toEqual({ ok: true });
    expect(postResult('slack', answer(503, 'rollup_error'), 1, 0)).toEqual({
      ok: false,
      refused: false,
      message: 'Slack answered 503 rollup_error',
      retryAfterMs: 15 * MINUTE,
    });
    expect(
      postResult('chat', answer(429, '{"error":{"status":"RESOURCE_EXHAUSTED"}}', { 'retry-after': '3600' }), 2, 0),
    ).toMatchObject({ message: 'Google Chat answered 429 RESOURCE_EXHAUSTED', retryAfterMs: 60 * MINUTE });
    const lost: HttpOutcome = { ok: false, error: `Address unavailable: ${SLACK}`, maybeSent: true };
    expect(postResult('slack', lost, 3, 0)).toEqual({
      ok: false,
      refused: false,
      message: 'Slack could not be reached',
      retryAfterMs: 60 * MINUTE,
    });
    expect(postResult('slack', lost, 9, 0).ok === false && postResult('slack', lost, 9, 0)).toMatchObject({
      retryAfterMs: 6 * 60 * MINUTE,
    });
  });

  it('says what to do when the service refused the post, and never repeats its body beyond a short code', () => {
    const refused = postResult('slack', answer(404, 'no_service'), 1, 0);
    expect(refused).toEqual({
      ok: false,
      refused: true,
      message: 'Slack answered 404 no_service: the webhook may have been removed; set it again in Settings > Digest',
      retryAfterMs: 6 * 60 * MINUTE,
    });
    const odd = postResult('chat', answer(400, `<html>${CHAT} is wrong</html>`), 1, 0);
    expect(odd.ok === false && odd.message).toBe(
      'Google Chat answered 400: the webhook may have been removed; set it again in Settings > Digest',
    );
  });
});
