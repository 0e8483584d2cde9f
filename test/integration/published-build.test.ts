// The two deployments a build makes (README "Deploying"): without SHEET_SCOUT_BASE_URL, a script bound to its
// spreadsheet whose manifest has no URL allowlist and whose Settings accept any HTTPS address; with it, an editor
// add-on published by version whose manifest allowlists that service's origin (Google requires `urlFetchWhitelist`
// for versioned deployments) and whose Settings keep the service address inside it. Each is built once, into a
// temporary directory, and its bundle run in the emulator.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { createRuntime } from '../../dev/gas-runtime';
import type { SpawnedSandbox } from '../../dev/sandbox/spawn';
import { startSandbox } from './harness';
import type { AccountState } from '../../src/account/service';

const root = path.resolve(__dirname, '../..');
const PUBLISHED_BASE_URL = 'https://api.sheetscout.test/v1-gateway';
const OWNER = 'owner@example.com';

let outDir: string;
let sandbox: SpawnedSandbox;

async function build(into: string, baseUrl: string | null): Promise<void> {
  const env = { ...process.env };
  delete env.SHEET_SCOUT_BASE_URL;
  if (baseUrl !== null) env.SHEET_SCOUT_BASE_URL = baseUrl;
  await promisify(execFile)(process.execPath, [path.join(root, 'build/build.js'), '--out-dir', into], {
    cwd: root,
    env,
  });
}

function manifestOf(build: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(outDir, build, 'appsscript.json'), 'utf8'));
}

/** Runs one Settings server function of a build's bundle, as the panel calls it, in a new emulated spreadsheet. */
async function settingsCall<T>(
  build: string,
  name: string,
  args: unknown[] = [],
): Promise<{ result: T; httpCalls: number }> {
  const runtime = createRuntime({
    bundlePath: path.join(outDir, build, 'Code.js'),
    users: [OWNER],
    addonName: 'Sheet Scout',
  });
  try {
    const result = runtime.run<T>(name, args, { kind: 'sidebar', user: OWNER });
    return { result, httpCalls: runtime.httpLog.length };
  } finally {
    await runtime.close();
  }
}

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-scout-builds-'));
  ({ sandbox } = await startSandbox({ clock: 'manual' }));
  await build(path.join(outDir, 'bound'), null);
  await build(path.join(outDir, 'published'), PUBLISHED_BASE_URL);
}, 300_000);

afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe('a build without SHEET_SCOUT_BASE_URL (script bound to its spreadsheet)', () => {
  it('writes the project manifest as it is, without a URL allowlist', () => {
    const project = JSON.parse(fs.readFileSync(path.join(root, 'appsscript.json'), 'utf8'));
    expect(manifestOf('bound')).toEqual(project);
    expect(manifestOf('bound')).not.toHaveProperty('urlFetchWhitelist');
  });

  it('lets Settings use any service address', async () => {
    const { result, httpCalls } = await settingsCall<AccountState>('bound', 'saveAccountToken', [
      { token: 'sbx_pro_token', baseUrl: sandbox.url },
    ]);
    expect(result).toMatchObject({
      connected: true,
      problem: null,
      baseUrl: sandbox.url,
      urlAllowlist: [],
      defaultBaseUrl: '',
    });
    expect(httpCalls).toBe(1);
  });
});

describe('a build with SHEET_SCOUT_BASE_URL (editor add-on published by version)', () => {
  it("allowlists the service's HTTPS origin and the digest's webhook hosts in the manifest, next to the project's own fields", () => {
    const project = JSON.parse(fs.readFileSync(path.join(root, 'appsscript.json'), 'utf8'));
    expect(manifestOf('published')).toEqual({
      ...project,
      urlFetchWhitelist: [
        'https://api.sheetscout.test/',
        'https://hooks.slack.com/services/',
        'https://chat.googleapis.com/v1/spaces/',
      ],
    });
  });

  it('builds the same files as the bound build', () => {
    expect(fs.readdirSync(path.join(outDir, 'published')).sort()).toEqual(
      fs.readdirSync(path.join(outDir, 'bound')).sort(),
    );
  });

  it('tells the Settings panel the allowlist and refuses a service address outside it before any request', async () => {
    const state = (await settingsCall<AccountState>('published', 'getAccountState')).result;
    expect(state).toMatchObject({
      baseUrl: PUBLISHED_BASE_URL,
      defaultBaseUrl: PUBLISHED_BASE_URL,
      urlAllowlist: ['https://api.sheetscout.test/'],
    });
    const { result, httpCalls } = await settingsCall<AccountState>('published', 'saveAccountToken', [
      { token: 'sbx_pro_token', baseUrl: sandbox.url },
    ]);
    expect(result).toMatchObject({
      connected: false,
      problem: 'Service address refused: this deployment only reaches https://api.sheetscout.test/.',
    });
    expect(httpCalls).toBe(0);
  });

  it('fails the build for a base URL an allowlist cannot hold', async () => {
    await expect(build(path.join(outDir, 'refused'), 'http://api.sheetscout.test')).rejects.toThrow(
      /must be an https:\/\/ address/,
    );
    expect(fs.existsSync(path.join(outDir, 'refused'))).toBe(false);
  });
});
