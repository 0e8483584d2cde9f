// Where the connection settings live, and how everything that sends a request reads them. The acting user's token and
// base URL are in their UserProperties (used by everything a user launches: sidebar, menu, bulk jobs, research).
// Custom functions cannot read a collaborator's user store, so formulas use a copy in DocumentProperties that exists
// only while a user has chosen "Let formulas in this spreadsheet use my token"; every editor's formulas then spend
// from that account. The account feature writes them (src/account/settings.ts).
import type { KeyValueStore } from '../ports';

declare const SHEET_SCOUT_DEFAULT_BASE_URL: string;

export const SETTINGS_KEYS = {
  token: 'sheetscout.token',
  baseUrl: 'sheetscout.baseUrl',
  formulaToken: 'sheetscout.formulaToken',
  formulaBaseUrl: 'sheetscout.formulaBaseUrl',
  formulaTokenOwner: 'sheetscout.formulaTokenOwner',
} as const;

/** The base URL the build was configured with (`SHEET_SCOUT_BASE_URL=... npm run build`), or '' when none. */
export const DEFAULT_BASE_URL: string =
  typeof SHEET_SCOUT_DEFAULT_BASE_URL === 'string' ? SHEET_SCOUT_DEFAULT_BASE_URL : '';

export interface Connection {
  baseUrl: string;
  token: string | null;
}

export interface SettingsStores {
  user: KeyValueStore;
  document: KeyValueStore | null;
}

/** The connection for work the current user launches. */
export function userConnection(stores: SettingsStores): Connection {
  return {
    baseUrl: stores.user.get(SETTINGS_KEYS.baseUrl) || DEFAULT_BASE_URL,
    token: stores.user.get(SETTINGS_KEYS.token),
  };
}

/** The connection custom functions use: the token a user shared with this spreadsheet's formulas, if any. */
export function formulaConnection(document: KeyValueStore | null): Connection {
  if (!document) return { baseUrl: DEFAULT_BASE_URL, token: null };
  return {
    baseUrl: document.get(SETTINGS_KEYS.formulaBaseUrl) || DEFAULT_BASE_URL,
    token: document.get(SETTINGS_KEYS.formulaToken),
  };
}
