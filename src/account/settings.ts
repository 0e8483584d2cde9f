// The account's writes of the connection settings (src/shared/connection.ts says where they live and reads them):
// saving and removing the user's token, sharing it with this spreadsheet's formulas and stopping, and who shared it.
import type { KeyValueStore } from '../ports';
import { DEFAULT_BASE_URL, SETTINGS_KEYS, type Connection, type SettingsStores } from '../shared/connection';

/** Who shared their token with this spreadsheet's formulas (their service email), or null. */
export function formulaTokenOwner(document: KeyValueStore | null): string | null {
  return document ? document.get(SETTINGS_KEYS.formulaTokenOwner) : null;
}

export function saveUserConnection(stores: SettingsStores, token: string, baseUrl: string): void {
  stores.user.set(SETTINGS_KEYS.token, token);
  if (baseUrl && baseUrl !== DEFAULT_BASE_URL) stores.user.set(SETTINGS_KEYS.baseUrl, baseUrl);
  else stores.user.remove(SETTINGS_KEYS.baseUrl);
}

/** Removes the user's token; a copy this user shared with the spreadsheet's formulas goes with it. */
export function removeUserConnection(stores: SettingsStores): void {
  const token = stores.user.get(SETTINGS_KEYS.token);
  stores.user.remove(SETTINGS_KEYS.token);
  if (stores.document && token && stores.document.get(SETTINGS_KEYS.formulaToken) === token)
    stopSharingWithFormulas(stores.document);
}

export function shareWithFormulas(
  document: KeyValueStore,
  connection: Connection & { token: string },
  ownerEmail: string,
): void {
  document.set(SETTINGS_KEYS.formulaToken, connection.token);
  document.set(SETTINGS_KEYS.formulaBaseUrl, connection.baseUrl);
  document.set(SETTINGS_KEYS.formulaTokenOwner, ownerEmail);
}

export function stopSharingWithFormulas(document: KeyValueStore): void {
  document.remove(SETTINGS_KEYS.formulaToken);
  document.remove(SETTINGS_KEYS.formulaBaseUrl);
  document.remove(SETTINGS_KEYS.formulaTokenOwner);
}
