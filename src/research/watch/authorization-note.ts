// The Signals header's note while the user's timers wait for their authorization (an update of the add-on needs more:
// src/scheduler/authorization.ts): someone looking at a watched sheet with every panel closed sees why no run starts
// and where to authorize; the note goes at the first timer run once they have. Only the watches this timer runs are
// noted (another editor's watch runs on their timer). Best effort while authorization is required: Google may refuse
// this version the spreadsheet itself until then, and the panels and Settings are where the user is told.
import type { KeyValueStore } from '../../ports';
import { researchContext } from '../context';
import { readWatches } from './watch';
import { noteOnSignalsHeader } from './watch-runs';
import { authorizationWords, type AuthorizationNote } from '../../scheduler/authorization';
import { formatInSpreadsheetZone } from '../../platform/spreadsheet';

/** DocumentProperties: the trigger id whose watches' Signals headers carry the note. */
const NOTED_KEY = 'sheetscout.watch.authorization';

/**
 * Notes `note` on the Signals headers of the watches the timer `triggerUid` runs, or clears what was noted (null).
 * Reads nothing but `document` (the document's properties) when there is nothing to change.
 */
export function noteAuthorizationOnSignals(
  document: KeyValueStore | null,
  note: AuthorizationNote | null,
  triggerUid: string | undefined,
): void {
  const noted = document?.get(NOTED_KEY) ?? null;
  if (!document || !triggerUid || (note ? noted === triggerUid : noted === null)) return;
  try {
    const r = researchContext();
    const timer = note ? triggerUid : noted;
    const when = note ? formatInSpreadsheetZone(note.since, 'EEE d MMM HH:mm') : '';
    const text = note ? `Account watch: ${authorizationWords(note, when)}` : null;
    for (const watch of readWatches(r.records.records))
      if (watch.status === 'active' && watch.timer === timer) noteOnSignalsHeader(r, watch.sheetId, text);
    if (note) document.set(NOTED_KEY, triggerUid);
    else document.remove(NOTED_KEY);
  } catch (error) {
    // Until the user authorizes, Google may refuse this version the spreadsheet: the panels and Settings say it.
    if (!note) throw error;
  }
}
