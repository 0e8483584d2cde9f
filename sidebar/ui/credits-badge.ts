// The credits badge at the top of every panel: shows the account's available credits and whose they are ("412
// credits · ana@example.com"; below the title when both do not fit the 300 px row). Each panel fills it once when it
// opens (from an answer it asks for anyway, or with refreshCredits()) and again after any action that spends;
// drawing the badge asks the server nothing (a panel that redraws its header would otherwise start an execution each
// time). The same answer says when the user's timers wait for their authorization (an update of the add-on needs
// more): the header then says so under the title, with the link that gives it.
import type { Credits } from '../../src/account/contract';
import { server } from '../bridge';
import { h, replaceChildren } from './dom';
import { authorizationNotice } from './authorization-notice';

const badge = h('span', { class: 'badge', id: 'credits-badge', title: 'Available credits' }, '…');
const notice = h('div', { id: 'timer-authorization', class: 'header-notice' });

function show(credits: Credits | null): void {
  if (credits?.timerAuthorization) replaceChildren(notice, authorizationNotice(credits.timerAuthorization));
  else replaceChildren(notice);
  if (!credits || credits.availableCredits === null) {
    badge.textContent = 'not connected';
    badge.title = 'Available credits';
    return;
  }
  const amount = `${credits.availableCredits} credits`;
  badge.textContent = credits.email ? `${amount} · ${credits.email}` : amount;
  badge.title = credits.email ? `Available credits of ${credits.email}` : 'Available credits';
}

export function creditsBadge(): HTMLElement {
  return badge;
}

/** Shows a known value at once (e.g. from an account check; null: not connected) or asks the server. */
export async function refreshCredits(known?: Credits | null): Promise<void> {
  if (known !== undefined) return show(known);
  try {
    show(await server.getCredits());
  } catch {
    badge.textContent = 'credits unavailable';
  }
}

/** Panel header: title plus the credits badge (and, below them, whether the user's timers wait for authorization). */
export function panelHeader(title: string): HTMLElement {
  return h('div', { class: 'header' }, h('h1', {}, title), creditsBadge(), notice);
}
