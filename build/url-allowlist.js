// The URL allowlist of a build (appsscript.json `urlFetchWhitelist`, required by Google for versioned deployments,
// which is how an editor add-on is published): the HTTPS origin of SHEET_SCOUT_BASE_URL plus `/`, so every request to
// the service matches it. Without a base URL there is none and the script may fetch any HTTPS address (a script bound
// to its spreadsheet). webpack.config.js injects the same list into the bundle, where src/account/ keeps the
// Settings panel's service address inside it. The manifest's allowlist adds the paths of the incoming webhooks a digest
// may be posted to (Slack's and Google Chat's: src/digest/webhook.ts accepts only addresses under the same prefixes),
// which are never a service address.

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The allowlist for a build's default base URL ('' or undefined: none). Throws when the address cannot have one. */
function urlAllowlistFor(baseUrl) {
  if (!baseUrl) return [];
  let url;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`SHEET_SCOUT_BASE_URL is not an absolute URL: ${baseUrl}`);
  }
  // A local service (plain HTTP on loopback, as the runtime allows) is a development build: Apps Script cannot reach it.
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return [];
  if (url.protocol !== 'https:') {
    throw new Error(
      `SHEET_SCOUT_BASE_URL must be an https:// address (Google's URL allowlist holds only HTTPS): ${baseUrl}`,
    );
  }
  // What the add-in refuses at run time (src/api/url.ts) would leave the default address outside its own allowlist.
  if (url.username || url.password || url.search || url.hash || /^https:\/\/[^/?#]*:443(?:[/?#]|$)/i.test(baseUrl)) {
    throw new Error(
      `SHEET_SCOUT_BASE_URL must be https://host[:port][/path], without user info, query or :443: ${baseUrl}`,
    );
  }
  return [`${url.origin}/`];
}

/**
 * The incoming webhooks a digest posts to, by their paths only (not the whole hosts: Slack's and Google's other APIs
 * stay out): src/digest/webhook.ts, WEBHOOK_URL_PREFIXES (a unit test holds them equal).
 */
const WEBHOOK_URL_PREFIXES = ['https://hooks.slack.com/services/', 'https://chat.googleapis.com/v1/spaces/'];

/** The manifest's `urlFetchWhitelist` for a build's default base URL: the service's origin and the webhook paths. */
function manifestAllowlistFor(baseUrl) {
  const service = urlAllowlistFor(baseUrl);
  return service.length > 0 ? [...service, ...WEBHOOK_URL_PREFIXES] : [];
}

module.exports = { urlAllowlistFor, manifestAllowlistFor, WEBHOOK_URL_PREFIXES };
