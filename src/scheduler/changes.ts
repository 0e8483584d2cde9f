// When this document's background state last changed, for the open panels: a saved schedule, watch, new-rows setting
// or spending cap, or a token removed notes the time in the document's properties. A panel polls it with when each
// feature's timer work is next due (src/background: one read of the document's properties, which an execution reads
// in one call), so the timer's runs show too without a write of their own (a watch run, a refresh or a check for new
// rows moves its feature's next time), and reads its sections again when the stamp differs from what it last saw: a
// panel follows the menu, another editor's panel and the timer within one poll. Pure over the document store.
import type { KeyValueStore } from '../ports';

const CHANGED_KEY = 'sheetscout.changedAt';

/** Notes a change the open panels should show (its time; a later change replaces it). */
export function noteDocumentChanged(document: KeyValueStore, at: number): void {
  document.set(CHANGED_KEY, String(at));
}

/** When the last change was noted (epoch ms), or null. */
export function documentChangedAt(document: KeyValueStore): number | null {
  const at = Number(document.get(CHANGED_KEY));
  return Number.isFinite(at) && at > 0 ? at : null;
}
