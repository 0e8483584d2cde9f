// The user's authorization of this version of the add-on, as Google's add-on samples check it in trigger code:
// ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL) (no scope needed, so it answers even when the user has not
// authorized what the version needs). See src/scheduler/authorization.ts.
import type { KeyValueStore } from '../../ports';
import {
  noteAuthorization,
  readAuthorizationNote,
  type AuthorizationNote,
  type AuthorizationStatus,
} from '../authorization';

export function authorizationStatus(): AuthorizationStatus {
  const info = ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  const required = info.getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED;
  return { required, url: required ? info.getAuthorizationUrl() || null : null };
}

/**
 * For a panel: the note that the user's timers wait for their authorization, checked again when there is one (so it
 * goes as soon as they have authorized, before their next timer run); null without asking Google when there is none.
 */
export function currentAuthorizationNote(user: KeyValueStore, now: number): AuthorizationNote | null {
  return readAuthorizationNote(user) ? noteAuthorization(user, now, authorizationStatus()) : null;
}
