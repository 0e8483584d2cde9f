// Keeps an open panel in step with changes made elsewhere (the menu, another editor's panel, the timer): it polls the
// document's change stamp (src/background) every CHANGE_POLL_MS, the next poll only once the last answered, and calls
// the panel's `reload` when the stamp differs from the one it last saw. A panel's own change moves the stamp too; its
// reload then reads what it already shows. A failed poll is tried again at the next interval. The stamp last seen is
// kept on the page's body (data-seen-changes): a panel shows from then on every change made after it.
import { CHANGE_POLL_MS } from '../../src/background/contract';
import { server } from '../bridge';

export function followChanges(reload: () => Promise<void> | void): void {
  let seen: string | null = null;
  const poll = async () => {
    try {
      const stamp = await server.getChangeStamp();
      const changed = seen !== null && stamp !== seen;
      seen = stamp;
      if (changed) await reload();
      document.body.dataset.seenChanges = stamp;
    } catch {
      // Tried again at the next interval.
    }
    window.setTimeout(() => void poll(), CHANGE_POLL_MS);
  };
  void poll();
}
