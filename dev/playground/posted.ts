// The playground's "Posted messages" page (/posted): what the sandbox's webhook stand-ins received (the add-in's
// digests, as Slack or Google Chat would show them), newest first, each in a 300 px card. The messages' markup is
// rendered the way both services render it (*bold*, <url|label> links, "•" lines, &lt; &gt; &amp; entities on Slack),
// everything else escaped: a message is service text and never becomes markup of this page.
import type { ReceivedPost } from '../sandbox/webhooks/receiver';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One line of a message as HTML: its links, bold runs and the service's entities. */
function line(service: ReceivedPost['service'], text: string): string {
  const parts = text.split(/(<[^<>|]+\|[^<>]*>)/g);
  return parts
    .map((part) => {
      const link = /^<(https?:\/\/[^<>|]+)\|([^<>]*)>$/.exec(part);
      const shown = (plain: string) => {
        const decoded =
          service === 'slack' ? plain.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') : plain;
        return escapeHtml(decoded).replace(/\*([^*\n]+)\*/g, '<b>$1</b>');
      };
      return link
        ? `<a href="${escapeHtml(link[1])}" target="_blank" rel="noopener">${shown(link[2])}</a>`
        : shown(part);
    })
    .join('');
}

function card(post: ReceivedPost): string {
  const service = post.service === 'slack' ? 'Slack' : 'Google Chat';
  const body =
    post.status === 200
      ? post.text
          .split('\n')
          .map((text) => `<div class="line">${line(post.service, text)}</div>`)
          .join('')
      : `<div class="refused">Refused: ${post.status}</div>`;
  return (
    `<article class="post ${post.service}" data-post="${post.id}"><header><span class="app">Sheet Scout</span>` +
    `<span class="where">${service} · ${escapeHtml(post.hook)}</span>` +
    `</header>${body}</article>`
  );
}

const STYLE = `*{box-sizing:border-box}body{margin:0;padding:12px;background:#f8f9fa;font:13px/1.45 Roboto,Arial,sans-serif;color:#1d1c1d}
h1{font-size:15px;font-weight:500;margin:0 0 10px}.post{width:300px;background:#fff;border:1px solid #dadce0;
border-radius:6px;padding:8px 10px;margin:0 0 10px;overflow-wrap:anywhere}.post header{display:flex;flex-direction:column;
margin-bottom:4px}.app{font-weight:700}.where{color:#616061;font-size:11px}.line{margin:1px 0}.slack{border-left:4px solid #4a154b}
.chat{border-left:4px solid #1e8e3e}.refused{color:#a50e0e}a{color:#1264a3}.none{color:#5f6368}`;

/** The page: every post, newest first. */
export function postedPage(posts: readonly ReceivedPost[]): string {
  const cards = [...posts].reverse().map(card).join('');
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Posted messages</title><style>${STYLE}</style>` +
    `</head><body><h1>Posted messages</h1>${cards || '<p class="none">Nothing posted yet.</p>'}</body></html>`
  );
}
