// Test setup: the browser tests drive Debian's Chromium (/usr/bin/chromium) with playwright-core. Install it with
// apt-get when it is missing (CI machines start without it). The setup itself never stops the run: when Chromium
// cannot be installed, each browser suite fails with one test saying so (see test/e2e/harness.ts).
const { execSync } = require('child_process');
const fs = require('fs');

const CHROMIUM = '/usr/bin/chromium';

function main() {
  if (fs.existsSync(CHROMIUM)) return;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    console.error(`!! ${CHROMIUM} is missing and this user cannot install it: run "sudo apt-get install -y chromium".`);
    return;
  }
  console.error(`Installing Debian's chromium for the browser tests (about a minute, once)...`);
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null', {
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 15 * 60 * 1000,
      shell: '/bin/bash',
    });
  } catch (err) {
    console.error(`!! Could not install chromium (${err.message.split('\n')[0]}); browser tests will fail.`);
  }
}

main();
