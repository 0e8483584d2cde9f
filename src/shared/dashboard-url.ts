// The service's dashboard address for this deployment, where tokens are made and plans upgraded: set at build time
// (`SHEET_SCOUT_DASHBOARD_URL=https://… npm run build`, checked in build/dashboard-url.js, injected by
// webpack.config.js). Empty when the build has none: then no message or panel offers a link.

declare const SHEET_SCOUT_DASHBOARD_URL: string;

export const DASHBOARD_URL: string = typeof SHEET_SCOUT_DASHBOARD_URL === 'string' ? SHEET_SCOUT_DASHBOARD_URL : '';

/** " at https://…" to follow "on the dashboard" in a message, or '' without a dashboard address. */
export function dashboardSuffix(dashboardUrl: string = DASHBOARD_URL): string {
  return dashboardUrl ? ` at ${dashboardUrl}` : '';
}
