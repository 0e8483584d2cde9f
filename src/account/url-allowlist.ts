// The URL allowlist a published build carries (appsscript.json `urlFetchWhitelist`, written by build/build.js from
// SHEET_SCOUT_BASE_URL): UrlFetchApp then reaches only addresses under its prefixes, so the service address a user
// enters under Settings > Advanced must stay inside it. A build without a base URL has none (any HTTPS address).

declare const SHEET_SCOUT_URL_ALLOWLIST: readonly string[];

/** This build's allowlisted URL prefixes (each ends with `/`); empty when the build has no allowlist. */
export const URL_ALLOWLIST: readonly string[] =
  typeof SHEET_SCOUT_URL_ALLOWLIST === 'undefined' ? [] : SHEET_SCOUT_URL_ALLOWLIST;

/**
 * Why requests to a service at `baseUrl` (validated and normalized: no trailing slash) would be outside the
 * allowlist, or null when every `${baseUrl}/v1/...` request matches a prefix (or there is no allowlist).
 * Apps Script matches a URL that equals a prefix or continues it, case-sensitively.
 */
export function outsideAllowlist(baseUrl: string, allowlist: readonly string[]): string | null {
  if (allowlist.length === 0 || allowlist.some((prefix) => `${baseUrl}/`.startsWith(prefix))) return null;
  return `this deployment only reaches ${allowlist.join(' or ')}`;
}
