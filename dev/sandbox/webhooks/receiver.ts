// The sandbox's webhook receiver: stand-ins for Slack's and Google Chat's incoming webhooks, so that the add-in's
// digests can be posted, read back and shown (tests, the benchmark, the playground's "Posted messages" page). The
// emulator's UrlFetchApp reaches them through its host routes (webhookHostRoutes: https://hooks.slack.com/... goes to
// <sandbox>/webhooks/slack/..., https://chat.googleapis.com/... to <sandbox>/webhooks/chat/...), as a hosts file would.
//   Slack: POST /services/T.../B.../<secret> with a JSON body holding `text` (or `blocks`); answers 200 "ok" (text);
//          a path of another shape 404 "no_service", a body that is not JSON 400 "invalid_payload", one without text
//          400 "no_text". Text past 40,000 characters is cut (Slack truncates such messages).
//   Chat:  POST /v1/spaces/<space>/messages?key=..&token=.. with a JSON body holding `text` (or cards); answers 200
//          with the message ({name, text, createTime, space, thread}); without key and token 403 PERMISSION_DENIED, a
//          body that is not JSON or holds no text 400 INVALID_ARGUMENT, a message over 32,000 bytes 400. A post whose
//          `requestId` query parameter the space has seen returns the message made with it and makes none
//          (messages.create's documented idempotency).
// Every post is kept, answered or refused, with the sandbox's time. Scripted answers (control: a status for the next
// posts, e.g. 503 or 429 with Retry-After, or Slack's 404 no_service) make a webhook fail the ways real ones do; a
// lost answer serves the post (its message is made) and then drops the connection unanswered.

/** Limits the stand-ins hold to (Slack's text truncation; Google Chat's largest message). */
export const SLACK_TEXT_CHARS = 40_000;
export const CHAT_MESSAGE_BYTES = 32_000;

export type WebhookService = 'slack' | 'chat';

export interface ReceivedPost {
  id: number;
  service: WebhookService;
  /** The webhook, without its secret: "T012/B034" (Slack) or "spaces/AAAA" (Chat). */
  hook: string;
  /** When it arrived (ISO, the sandbox's clock). */
  at: string;
  /** What the receiver answered. */
  status: number;
  /** The message's text as the service would show it ('' for a refused post or one that made no message). */
  text: string;
  /** A Google Chat post whose requestId an earlier post (this id) used: it returned that message, made none. */
  repeatOf?: number;
  /** The post was served and its answer lost (the connection dropped): the client saw no answer. */
  answerLost?: boolean;
}

export interface WebhookReply {
  status: number;
  type: 'text/html' | 'application/json';
  body: string;
  headers?: Record<string, string>;
  /** Serve the post, then drop the connection without an answer (a lost answer). */
  drop?: boolean;
}

/** The emulator's host routes that send the webhook hosts to the sandbox at `sandboxUrl`. */
export function webhookHostRoutes(sandboxUrl: string): Record<string, string> {
  return {
    'https://hooks.slack.com': `${sandboxUrl}/webhooks/slack`,
    'https://chat.googleapis.com': `${sandboxUrl}/webhooks/chat`,
  };
}

const SLACK_PATH = /^\/services\/([A-Za-z0-9]+)\/([A-Za-z0-9]+)\/[A-Za-z0-9]+$/;
const CHAT_PATH = /^\/v1\/spaces\/([A-Za-z0-9_-]+)\/messages$/;

const slackReply = (status: number, body: string): WebhookReply => ({ status, type: 'text/html', body });

function chatError(code: number, status: string, message: string): WebhookReply {
  return { status: code, type: 'application/json', body: JSON.stringify({ error: { code, message, status } }) };
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export class WebhookReceiver {
  readonly posts: ReceivedPost[] = [];
  /** Statuses the next posts get instead of being served, or 'lost' (served, unanswered): each used once. */
  private scripted: Array<{ status: number | 'lost'; retryAfterSeconds?: number }> = [];
  /** Google Chat: the post that made each message, by space and requestId. */
  private readonly requests = new Map<string, number>();

  /**
   * The next `count` posts get `status` (429 and 503 with a Retry-After of `retryAfterSeconds`, default 30), or, with
   * 'lost', are served and their answers lost.
   */
  script(status: number | 'lost', count: number, retryAfterSeconds?: number): void {
    for (let i = 0; i < count; i++) this.scripted.push({ status, retryAfterSeconds });
  }

  reset(): void {
    this.posts.length = 0;
    this.scripted = [];
    this.requests.clear();
  }

  /** Serves one request to /webhooks/<service><path>. */
  handle(service: WebhookService, path: string, query: URLSearchParams, method: string, body: string, at: string) {
    if (method !== 'POST')
      return service === 'slack' ? slackReply(405, 'invalid_method') : chatError(405, 'METHOD_NOT_ALLOWED', 'POST');
    const shape = service === 'slack' ? SLACK_PATH.exec(path) : CHAT_PATH.exec(path);
    if (!shape) return service === 'slack' ? slackReply(404, 'no_service') : chatError(404, 'NOT_FOUND', 'No space');
    const hook = service === 'slack' ? `${shape[1]}/${shape[2]}` : `spaces/${shape[1]}`;
    const scripted = this.scripted.shift();
    const id = this.posts.length + 1;
    const requestKey = service === 'chat' && query.get('requestId') ? `${hook}\0${query.get('requestId')}` : null;
    const repeatOf = requestKey ? this.requests.get(requestKey) : undefined;
    const reply =
      scripted && scripted.status !== 'lost'
        ? this.scriptedReply(service, { ...scripted, status: scripted.status })
        : service === 'slack'
          ? this.slack(body)
          : this.chat(hook, query, body, at, repeatOf);
    const made = reply.status === 200 && repeatOf === undefined;
    if (made && requestKey) this.requests.set(requestKey, id);
    const text = made ? this.shownText(service, body) : '';
    const lost = scripted?.status === 'lost';
    this.posts.push({
      id,
      service,
      hook,
      at,
      status: reply.status,
      text,
      ...(repeatOf !== undefined && reply.status === 200 ? { repeatOf } : {}),
      ...(lost ? { answerLost: true } : {}),
    });
    return lost ? { ...reply, drop: true } : reply;
  }

  /** The messages the channels show: each post that made one, in order. */
  shown(): ReceivedPost[] {
    return this.posts.filter((post) => post.status === 200 && post.repeatOf === undefined);
  }

  private scriptedReply(service: WebhookService, scripted: { status: number; retryAfterSeconds?: number }) {
    const headers =
      scripted.status === 429 || scripted.status === 503
        ? { 'retry-after': String(scripted.retryAfterSeconds ?? 30) }
        : undefined;
    const reply =
      service === 'slack'
        ? slackReply(scripted.status, scripted.status === 404 ? 'no_service' : 'rollup_error')
        : chatError(scripted.status, scripted.status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE', 'Try again');
    return { ...reply, headers };
  }

  private slack(body: string): WebhookReply {
    const payload = jsonObject(body);
    if (!payload) return slackReply(400, 'invalid_payload');
    const text = typeof payload.text === 'string' ? payload.text : '';
    if (text.trim() === '' && !Array.isArray(payload.blocks)) return slackReply(400, 'no_text');
    return slackReply(200, 'ok');
  }

  private chat(hook: string, query: URLSearchParams, body: string, at: string, repeatOf?: number): WebhookReply {
    if (!query.get('key') || !query.get('token'))
      return chatError(403, 'PERMISSION_DENIED', 'The request is missing a valid API key.');
    const payload = jsonObject(body);
    const text = typeof payload?.text === 'string' ? payload.text : '';
    if (!payload || (text.trim() === '' && !Array.isArray(payload.cardsV2)))
      return chatError(400, 'INVALID_ARGUMENT', 'Message cannot be empty.');
    if (Buffer.byteLength(body, 'utf8') > CHAT_MESSAGE_BYTES)
      return chatError(400, 'INVALID_ARGUMENT', `Message too large: the maximum is ${CHAT_MESSAGE_BYTES} bytes.`);
    // A requestId seen before: the message made then, as it was (not this post's text).
    const earlier = repeatOf === undefined ? undefined : this.posts[repeatOf - 1];
    const name = `${hook}/messages/${repeatOf ?? this.posts.length + 1}`;
    const shown = earlier ? earlier.text : text;
    const message = {
      name,
      text: shown,
      createTime: earlier?.at ?? at,
      space: { name: hook },
      thread: { name: `${hook}/threads/1` },
    };
    return { status: 200, type: 'application/json', body: JSON.stringify(message) };
  }

  /** The text of a served post, as its service shows it. */
  private shownText(service: WebhookService, body: string): string {
    const text = String(jsonObject(body)?.text ?? '');
    return service === 'slack' ? text.slice(0, SLACK_TEXT_CHARS) : text;
  }
}
