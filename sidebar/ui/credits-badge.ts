// The credits badge at the top of every panel: shows the account's available credits. Each panel fills it once when
// it opens (from an answer it asks for anyway, or with refreshCredits()) and again after any action that spends;
// drawing the badge asks the server nothing (a panel that redraws its header would otherwise start an execution each
// time).
import { server } from '../bridge';
import { h } from './dom';

const badge = h('span', { class: 'badge', id: 'credits-badge', title: 'Available credits' }, '…');

export function creditsBadge(): HTMLElement {
  return badge;
}

/** Shows a known value at once (e.g. from an account check) or asks the server. */
export async function refreshCredits(known?: number | null): Promise<void> {
  if (known !== undefined) {
    badge.textContent = known === null ? 'not connected' : `${known} credits`;
    return;
  }
  try {
    const { availableCredits } = await server.getCredits();
    badge.textContent = availableCredits === null ? 'not connected' : `${availableCredits} credits`;
  } catch {
    badge.textContent = 'credits unavailable';
  }
}

/** Panel header: title plus the credits badge. */
export function panelHeader(title: string): HTMLElement {
  return h('div', { class: 'header' }, h('h1', {}, title), creditsBadge());
}
