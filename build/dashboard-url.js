// The dashboard address a build links to (SHEET_SCOUT_DASHBOARD_URL: where tokens are made and plans upgraded, see
// src/shared/dashboard-url.ts). Only an absolute https:// address is accepted: it is shown to users as a link.

/** The checked address ('' when unset). Throws on anything but https://host[/path]. */
function dashboardUrlFor(value) {
  if (!value) return '';
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`SHEET_SCOUT_DASHBOARD_URL is not an absolute URL: ${value}`);
  }
  if (url.protocol !== 'https:' || url.username || url.password) {
    throw new Error(`SHEET_SCOUT_DASHBOARD_URL must be an https:// address without user info: ${value}`);
  }
  return url.href;
}

module.exports = { dashboardUrlFor };
