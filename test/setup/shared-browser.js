// The browser tests' Chromium, started once for the whole run (the e2e project's global set-up) and shared by every
// suite over its socket: each suite opens its own context (its own cookies, storage and pages) and closes it, instead of
// launching a browser of its own (about 5 s of CPU each, most of it Chromium's start). Its address goes to the test
// workers in E2E_BROWSER_ENDPOINT; the global tear-down stops it. Without Chromium nothing starts here (harness.ts makes
// each browser suite fail, saying so).
const fs = require('fs');
const { chromium } = require('playwright-core');

const CHROMIUM = '/usr/bin/chromium';
const ENDPOINT_VARIABLE = 'E2E_BROWSER_ENDPOINT';

/** How the tests' Chromium runs: headless, no GPU, nothing fetched on its own. */
const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

async function startSharedBrowser() {
  if (!fs.existsSync(CHROMIUM) || process.env[ENDPOINT_VARIABLE]) return;
  const server = await chromium.launchServer(CHROMIUM_LAUNCH);
  globalThis.sharedBrowserServer = server;
  process.env[ENDPOINT_VARIABLE] = server.wsEndpoint();
}

async function stopSharedBrowser() {
  const server = globalThis.sharedBrowserServer;
  globalThis.sharedBrowserServer = undefined;
  if (server) await server.close();
}

module.exports = startSharedBrowser;
module.exports.stopSharedBrowser = stopSharedBrowser;
module.exports.CHROMIUM_LAUNCH = CHROMIUM_LAUNCH;
module.exports.ENDPOINT_VARIABLE = ENDPOINT_VARIABLE;
