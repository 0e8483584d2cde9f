// The document's background work as a whole, for the Settings panel and every open panel: the saved timer runs (each
// account watch that is on, research on each sheet's new rows) that cannot start as things stand, weighed by one rule
// (src/research/spending/saved-runs.ts) against the spending cap, the payers who removed their token and the acting
// user's credits; and the stamp of the last change (src/scheduler/changes.ts) with when each feature's timer work is
// next due. Pure over its ports (context.ts).
import { readWatches } from '../research/watch/watch';
import { readConfirmation, watchRun } from '../research/watch/confirmation';
import { savedRunProblem, type SavedRun } from '../research/spending/saved-runs';
import { runFacts } from '../research/spending/run-facts';
import { readSettings } from '../new-rows/state';
import { newRowsRun } from '../new-rows/research';
import { documentChangedAt } from '../scheduler/changes';
import { TIMER_FEATURES } from '../scheduler/features';
import { featureWake } from '../scheduler/timer';
import type { KeyValueStore } from '../ports';
import type { Result } from '../api/errors';
import type { User } from '../api/types';
import type { SavedRunProblems } from './contract';

export interface BackgroundPorts {
  /** The document's properties (the watches' confirmations, the settings of new rows, the cap, the payers). */
  document: KeyValueStore;
  /** The document's records (the account watches). */
  records: KeyValueStore;
  /** Who the acting user's token is (one request). */
  user(): Result<User>;
}

/** The saved runs of this spreadsheet that cannot start, and why (one request: the acting user's account). */
export function savedRunProblems(ports: BackgroundPorts): SavedRunProblems {
  const runs: SavedRun[] = [];
  for (const watch of readWatches(ports.records)) {
    const confirmation = readConfirmation(ports.document, watch.id);
    const paused = confirmation ? confirmation.paused : watch.status === 'paused';
    if (!paused) runs.push(watchRun(watch, confirmation));
  }
  for (const setting of readSettings(ports.document))
    if (setting.research) runs.push(newRowsRun(setting.research, setting.sheetName));
  if (runs.length === 0) return { problems: [] };
  const facts = runFacts(ports.document, ports.user());
  return {
    problems: runs.map((run) => savedRunProblem(run, facts)).filter((problem): problem is string => problem !== null),
  };
}

/** The document's change stamp: the last noted change, and when each feature's timer work is next due. */
export function changeStamp(document: KeyValueStore): string {
  const wakes = TIMER_FEATURES.map((feature) => featureWake({ document }, feature) ?? '-');
  return [documentChangedAt(document) ?? '-', ...wakes].join(' ');
}
