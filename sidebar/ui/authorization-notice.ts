// What a panel says while the user's timers wait for their authorization (an update of the add-on needs more access:
// src/scheduler/authorization.ts): since when, that nothing is lost or spent meanwhile, and the one click that gives
// it (Google's consent page, opened in a new tab; only a Google address is made a link).
import type { TimerAuthorization } from '../../src/account/contract';
import { h } from './dom';

const GOOGLE_CONSENT = /^https:\/\/(script|accounts)\.google\.com\//;

export function authorizationNotice(waiting: TimerAuthorization): HTMLElement {
  const since = new Date(waiting.since).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return h(
    'div',
    { class: 'message warn', role: 'status' },
    `Sheet Scout's timers wait for your authorization since ${since}: an update needs more access. Nothing runs or ` +
      'is spent with the panels closed until you allow it; then the waiting work goes on. ',
    GOOGLE_CONSENT.test(waiting.url)
      ? h('a', { href: waiting.url, target: '_blank', rel: 'noopener', id: 'authorize-link' }, 'Authorize Sheet Scout')
      : 'Reload the spreadsheet and open Sheet Scout from the menu: Google asks.',
  );
}
