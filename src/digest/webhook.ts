// Where a digest may be posted: a Slack or Google Chat incoming webhook, checked before it is kept. The address is a
// secret (anyone holding it can post to the channel), so it is read here once, split into what may be shown (the
// service and the webhook's ids, never its key or token) and the address itself, which only the post uses; no message
// of this module repeats what was typed. Slack's are https://hooks.slack.com/services/T.../B.../<secret>; Google
// Chat's https://chat.googleapis.com/v1/spaces/<space>/messages?key=..&token=.. (threadKey and messageReplyOption
// allowed). A published build's URL allowlist names those webhook paths only, not the hosts (build/url-allowlist.js,
// WEBHOOK_URL_PREFIXES). Pure.

export type WebhookService = 'slack' | 'chat';

/** The URL prefixes of the webhooks (a published build's manifest allowlists them: build/url-allowlist.js). */
export const WEBHOOK_URL_PREFIXES: readonly string[] = [
  'https://hooks.slack.com/services/',
  'https://chat.googleapis.com/v1/spaces/',
];

export const SERVICE_NAMES: Readonly<Record<WebhookService, string>> = { slack: 'Slack', chat: 'Google Chat' };

export interface Webhook {
  service: WebhookService;
  url: string;
  /** What may be shown of it: "Slack webhook T0123/B0456", "Google Chat space AAAA1234". */
  label: string;
}

const SLACK = /^https:\/\/hooks\.slack\.com\/services\/([A-Za-z0-9]{1,40})\/([A-Za-z0-9]{1,40})\/[A-Za-z0-9]{8,80}$/;
const CHAT = /^https:\/\/chat\.googleapis\.com\/v1\/spaces\/([A-Za-z0-9_-]{1,80})\/messages\?([^#\s]{1,1500})$/;
const CHAT_PARAMS = new Set(['key', 'token', 'threadKey', 'messageReplyOption']);
const PARAM_VALUE = /^[A-Za-z0-9_.~%=-]{1,500}$/;

export const WEBHOOK_PROBLEM =
  "That is not a Slack or Google Chat incoming webhook's address: Slack's start with " +
  "https://hooks.slack.com/services/, Google Chat's with https://chat.googleapis.com/v1/spaces/ (copy it from the " +
  "channel's or space's webhook settings)";

function chatParamsProblem(query: string): string | null {
  const seen = new Set<string>();
  for (const pair of query.split('&')) {
    const [name, value, ...rest] = pair.split('=');
    if (!CHAT_PARAMS.has(name) || seen.has(name) || rest.length > 0 || !PARAM_VALUE.test(value ?? '')) {
      return "A Google Chat webhook's address holds only its key, token and thread settings: copy it again from the space";
    }
    seen.add(name);
  }
  return seen.has('key') && seen.has('token')
    ? null
    : "This Google Chat webhook's address lacks its key or token: copy it again from the space's webhook settings";
}

/** The webhook a typed address names, or why it cannot be one (never repeating the address). */
export function parseWebhook(typed: string): Webhook | { problem: string } {
  const url = typed.trim();
  if (/^http:\/\//i.test(url))
    return { problem: 'A webhook address starts with https:// (the digest is sent encrypted)' };
  const slack = SLACK.exec(url);
  if (slack) return { service: 'slack', url, label: `Slack webhook ${slack[1]}/${slack[2]}` };
  const chat = CHAT.exec(url);
  if (!chat) return { problem: WEBHOOK_PROBLEM };
  const problem = chatParamsProblem(chat[2]);
  return problem ? { problem } : { service: 'chat', url, label: `Google Chat space ${chat[1]}` };
}
