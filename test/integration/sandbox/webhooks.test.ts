// The sandbox's stand-ins for Slack's and Google Chat's incoming webhooks, over HTTP and through the emulator's host
// routes: a well-formed post is answered as each service answers it and listed by the control API with its text; a
// malformed one is refused the service's way (and listed as refused); scripted answers make the next posts fail;
// reset forgets them. The emulator sends https://hooks.slack.com/... and https://chat.googleapis.com/... to the
// sandbox while the script, its request log and its error texts see the addresses it asked for.
import { createRuntime } from '../../../dev/gas-runtime';
import { webhookHostRoutes } from '../../../dev/sandbox/webhooks/receiver';
import { sandboxSuite } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });

const SLACK = '/webhooks/slack/services/T0123/B0456/s3cr3tS3cr3t';
const CHAT = '/webhooks/chat/v1/spaces/AAAA1234/messages?key=k3y&token=t0k3n';

/** Posts a raw body to the sandbox. */
function post(route: string, body: string) {
  return suite.control.request<unknown>('POST', route, { rawBody: body });
}

describe('webhook receiver (sandbox)', () => {
  it("answers Slack's way and lists the post without its secret", async () => {
    const reply = await post(SLACK, JSON.stringify({ text: 'Digest: *3 rows* changed' }));
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('ok');
    expect(await suite.control.webhookPosts()).toEqual([
      expect.objectContaining({
        id: 1,
        service: 'slack',
        hook: 'T0123/B0456',
        status: 200,
        text: 'Digest: *3 rows* changed',
      }),
    ]);
    expect(JSON.stringify(await suite.control.webhookPosts())).not.toContain('s3cr3t');
  });

  it("refuses malformed posts the services' ways", async () => {
    expect((await post('/webhooks/slack/services/T0123', '{}')).text).toBe('no_service');
    expect(await post(SLACK, 'not json')).toMatchObject({ status: 400, text: 'invalid_payload' });
    expect(await post(SLACK, JSON.stringify({ text: '  ' }))).toMatchObject({ status: 400, text: 'no_text' });
    expect((await post('/webhooks/chat/v1/spaces/AAAA1234/messages', '{"text":"x"}')).status).toBe(403);
    const tooLarge = await post(CHAT, JSON.stringify({ text: 'x'.repeat(32_001) }));
    expect(tooLarge.status).toBe(400);
    expect((await suite.control.webhookPosts()).map((entry) => entry.status)).toEqual([400, 400, 403, 400]);
  });

  it('answers Google Chat with the message it made', async () => {
    const reply = await post(CHAT, JSON.stringify({ text: 'Digest' }));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      name: 'spaces/AAAA1234/messages/1',
      text: 'Digest',
      space: { name: 'spaces/AAAA1234' },
    });
  });

  it('answers the scripted statuses first, then serves again; reset forgets everything', async () => {
    await suite.control.scriptWebhookAnswers(503, 2, 60);
    const first = await post(SLACK, '{"text":"a"}');
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('60');
    expect((await post(CHAT, '{"text":"b"}')).status).toBe(503);
    expect((await post(SLACK, '{"text":"c"}')).status).toBe(200);
    await suite.control.reset();
    expect(await suite.control.webhookPosts()).toEqual([]);
  });

  it('is reached through the emulator’s host routes, the script seeing the address it asked for', async () => {
    const bundleSource = `
      function postBoth() {
        const options = { method: 'post', contentType: 'application/json', muteHttpExceptions: true };
        return [
          UrlFetchApp.fetch('https://hooks.slack.com/services/T1/B2/xyz', { ...options, payload: '{"text":"hello"}' }).getContentText(),
          UrlFetchApp.fetch('https://chat.googleapis.com/v1/spaces/S1/messages?key=k&token=t', { ...options, payload: '{"text":"hi"}' }).getResponseCode(),
        ];
      }
      function refused() {
        return UrlFetchApp.fetch('https://hooks.slack.com/services/T1', { method: 'post', payload: '{}' });
      }`;
    const runtime = createRuntime({ bundleSource, hostRoutes: webhookHostRoutes(suite.url) });
    try {
      expect(runtime.run('postBoth')).toEqual(['ok', 200]);
      expect(runtime.httpLog.map((entry) => entry.url)).toEqual([
        'https://hooks.slack.com/services/T1/B2/xyz',
        'https://chat.googleapis.com/v1/spaces/S1/messages?key=k&token=t',
      ]);
      expect(() => runtime.run('refused')).toThrow(
        'Request failed for https://hooks.slack.com returned code 404. Truncated server response: no_service',
      );
      expect((await suite.control.webhookPosts()).map((entry) => [entry.service, entry.text])).toEqual([
        ['slack', 'hello'],
        ['chat', 'hi'],
      ]);
    } finally {
      await runtime.close();
    }
  });
});
