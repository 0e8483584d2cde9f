// The spending history as the research ledger writes it (src/research/records/stores.ts): a write the document's full
// properties refuse never stops research (its results and money come first); the history notes since when it may
// miss runs instead (Settings > Spending says so). Pure over the store.
import type { KeyValueStore } from '../ports';
import type { RecordOutcome, RunOpening, SpendingHistory } from './history';

/** Set when a write of the history failed (the document's properties full): the history says it may miss runs. */
export const INCOMPLETE_KEY = 'sheetscout.spending.incomplete';

/**
 * The history as the research ledger writes it: a write the document's full properties refuse never stops research
 * (its results and money come first); the history notes since when it may miss runs instead.
 */
export function recordingHistory(history: SpendingHistory, store: KeyValueStore, now: () => number) {
  const guarded =
    <T>(write: (value: T) => void) =>
    (value: T): void => {
      try {
        write(value);
      } catch {
        try {
          if (store.get(INCOMPLETE_KEY) === null) store.set(INCOMPLETE_KEY, String(now()));
        } catch {
          // Nothing more can be written: the history shows what it holds.
        }
      }
    };
  return {
    open: guarded((run: RunOpening) => history.open(run)),
    settle: guarded((outcomes: readonly RecordOutcome[]) => history.settle(outcomes)),
    lose: guarded((lost: Parameters<SpendingHistory['lose']>[0]) => history.lose(lost)),
    unsettled: () => history.unsettled(),
  };
}
