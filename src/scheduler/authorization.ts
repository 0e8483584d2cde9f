// Whether the user's timers wait for their authorization. A newer version of an add-on may need more authorization
// than the user gave; Google keeps running their installable triggers without asking and "throws an exception if the
// script attempts to call the unauthorized service" (AuthorizationStatus.REQUIRED), so each timer run first asks
// (ScriptApp.getAuthorizationInfo(AuthMode.FULL), as Google's add-on samples do: adapters/authorization.ts). While it
// is required the run does nothing: every feature's pending work stays as it is, nothing is sent or spent, and the
// user property below says since when and where to authorize, for the panels (every panel's header, Settings' list
// of kept spreadsheets) and the Signals headers of watched sheets. The first run or panel that finds the user
// authorized again drops it. Pure over the user's store.
import type { KeyValueStore } from '../ports';

/** UserProperties: the timers wait for the user's authorization (JSON AuthorizationNote). */
export const AUTHORIZATION_KEY = 'sheetscout.timer.authorization';

export interface AuthorizationStatus {
  required: boolean;
  /** Google's consent page for this version (null when none is required, or Google gives none). */
  url: string | null;
}

/** Since when the user's timers wait, and the one click that authorizes the add-on again. */
export interface AuthorizationNote {
  since: number;
  url: string;
}

export function readAuthorizationNote(user: KeyValueStore): AuthorizationNote | null {
  try {
    const note = JSON.parse(user.get(AUTHORIZATION_KEY) ?? 'null') as AuthorizationNote | null;
    return note && typeof note.since === 'number' && typeof note.url === 'string' ? note : null;
  } catch {
    return null;
  }
}

/**
 * Keeps the note as `status` says at `now`: set (keeping since when) while authorization is required, dropped once it
 * is not. The note to show, or null. Writes only when it changes.
 */
export function noteAuthorization(
  user: KeyValueStore,
  now: number,
  status: AuthorizationStatus,
): AuthorizationNote | null {
  const note = readAuthorizationNote(user);
  if (!status.required) {
    if (note) user.remove(AUTHORIZATION_KEY);
    return null;
  }
  const next = { since: note?.since ?? now, url: status.url ?? note?.url ?? '' };
  if (!note || note.url !== next.url) user.set(AUTHORIZATION_KEY, JSON.stringify(next));
  return next;
}

/** The note in words, for a place that shows text only (a cell's note): `when` is its time as the sheet shows it. */
export function authorizationWords(note: AuthorizationNote, when: string): string {
  return (
    `Sheet Scout's timers wait for your authorization since ${when}: an update of the add-on needs more access. ` +
    'Nothing runs or is spent with the panels closed until you allow it' +
    (note.url ? ` once at ${note.url}` : ' (open any Sheet Scout panel: Google asks)') +
    '; then the waiting work goes on.'
  );
}
