// Settings of a published build (SHEET_SCOUT_BASE_URL set, so its manifest carries a URL allowlist) in Chromium: the
// panel says under the service address which addresses this deployment reaches, and shows the server's refusal of
// an address outside them; without a token it links to the build's dashboard (SHEET_SCOUT_DASHBOARD_URL). The build goes into a temporary directory; the playground runs that bundle.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { describeWithBrowser, startStack, type Stack } from './harness';

const root = path.resolve(__dirname, '../..');

describeWithBrowser('settings panel of a published build', () => {
  let outDir: string;
  let stack: Stack;

  beforeAll(async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-scout-published-'));
    const env = {
      ...process.env,
      SHEET_SCOUT_BASE_URL: 'https://api.sheetscout.test',
      SHEET_SCOUT_DASHBOARD_URL: 'https://app.sheetscout.test/settings/api',
    };
    await promisify(execFile)(process.execPath, [path.join(root, 'build/build.js'), '--out-dir', outDir], {
      cwd: root,
      env,
    });
    stack = await startStack({ bundlePath: path.join(outDir, 'Code.js') });
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('names the allowlisted address under the field and shows the refusal of another one', async () => {
    const panel = await stack.openPanel('showSettingsPanel');
    await panel.waitForSelector('#account-email');
    await panel.click('summary');
    expect(await panel.textContent('#base-url-allowlist')).toBe(
      'This deployment only reaches https://api.sheetscout.test/',
    );
    expect(await panel.isVisible('#base-url-allowlist')).toBe(true);
    await stack.screenshot('settings-published-allowlist');

    await panel.fill('#token', 'sbx_pro_token');
    await panel.fill('#base-url', stack.sandboxUrl);
    await panel.click('#save');
    await panel.waitForSelector(
      'text=Service address refused: this deployment only reaches https://api.sheetscout.test/.',
    );
    expect(await panel.locator('#dashboard-links').count()).toBe(0);
  });

  it('links to the dashboard where tokens are made and plans upgraded once no token is saved', async () => {
    const panel = await stack.sidebar();
    await panel.click('#remove');
    await panel.waitForSelector('#dashboard-links');
    expect(await panel.getAttribute('#dashboard-token', 'href')).toBe('https://app.sheetscout.test/settings/api');
    expect(await panel.getAttribute('#dashboard-upgrade', 'href')).toBe('https://app.sheetscout.test/settings/api');
    expect(await panel.textContent('#dashboard-links')).toBe(
      'No token yet? Create one on the dashboard. Plans and credits: upgrade there.',
    );
  });
});
