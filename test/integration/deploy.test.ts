// `npm run deploy` = `npm test && node build/deploy.js`: the deploy step is run here on its own (not the test suite),
// from a temporary directory holding the .clasp.json under test (and the dist/ a --base-url build writes), as npm runs
// it from the project's root.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.resolve(__dirname, '../..');
const deployScript = path.join(root, 'build/deploy.js');

let workDir: string;

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-scout-deploy-'));
});

afterEach(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

function deployWith(
  claspJson: string | null,
  args: string[] = [],
): { status: number | null; stdout: string; stderr: string } {
  if (claspJson !== null) fs.writeFileSync(path.join(workDir, '.clasp.json'), claspJson);
  // HOME without clasp credentials: a push can never reach Google from a test.
  const home = path.join(workDir, 'home');
  fs.mkdirSync(home);
  const result = spawnSync(process.execPath, [deployScript, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH, HOME: home, USERPROFILE: home },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run deploy', () => {
  it('checks .clasp.json first, then runs the test suite, then the deploy step (issue 29)', () => {
    const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(packageJson.scripts.deploy).toBe('node build/deploy.js --check && npm test && node build/deploy.js');
  });

  it('--check refuses an empty script id at once, and passes a usable .clasp.json without pushing', () => {
    const empty = deployWith(JSON.stringify({ scriptId: '', rootDir: 'dist' }), ['--check']);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('the script id in .clasp.json is empty');
    fs.rmSync(path.join(workDir, 'home'), { recursive: true });
    const usable = deployWith(JSON.stringify({ scriptId: '1AbCdEfGhIjK', rootDir: 'dist' }), ['--check']);
    expect(usable.status).toBe(0);
    expect(usable.stdout).toContain('.clasp.json names Apps Script project 1AbCdEfGhIjK');
    expect(usable.stdout).not.toContain('Pushing');
  });

  it('ships a .clasp.json that pushes the build output, dist/', () => {
    expect(JSON.parse(fs.readFileSync(path.join(root, '.clasp.json'), 'utf8')).rootDir).toBe('dist');
  });

  it('refuses with an empty script id, saying where to find one or how to create one', () => {
    const { status, stdout, stderr } = deployWith(JSON.stringify({ scriptId: '  ', rootDir: 'dist' }));
    expect(status).toBe(1);
    expect(stderr).toContain('the script id in .clasp.json is empty');
    expect(stderr).toContain(
      'Set scriptId in .clasp.json: Extensions > Apps Script > Project settings > Script ID of your spreadsheet',
    );
    expect(stderr).toContain('npx clasp create-script --type sheets --rootDir dist');
    expect(stdout).not.toContain('Pushing');
  });

  it('refuses without a .clasp.json, and with one that is not JSON', () => {
    const missing = deployWith(null);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`no .clasp.json in ${workDir}`);
    expect(missing.stderr).toContain('Set scriptId in .clasp.json');
    fs.rmSync(path.join(workDir, 'home'), { recursive: true });
    const broken = deployWith('{"scriptId": ');
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('.clasp.json is not valid JSON');
  });

  it('refuses a .clasp.json whose rootDir is not the build output', () => {
    const { status, stdout, stderr } = deployWith(JSON.stringify({ scriptId: '1AbCdEfGhIjK', rootDir: 'src' }));
    expect(status).toBe(1);
    expect(stderr).toContain('rootDir in .clasp.json must be "dist" (the build output), not "src"');
    expect(stdout).not.toContain('Pushing');
  });

  it('with a script id, runs the clasp that npm ci installed (which here finds no login)', () => {
    const { status, stdout, stderr } = deployWith(JSON.stringify({ scriptId: '1AbCdEfGhIjK', rootDir: 'dist' }));
    expect(stdout).toContain(`Pushing ${path.join(workDir, 'dist')} to Apps Script project 1AbCdEfGhIjK`);
    expect(stdout + stderr).toContain('No credentials found.');
    expect(status).toBe(1);
  });

  it('with --base-url, builds the pushed output for that service first: its manifest allowlists it', () => {
    const { status, stdout, stderr } = deployWith(JSON.stringify({ scriptId: '1AbCdEfGhIjK', rootDir: 'dist' }), [
      '--base-url',
      'https://api.sheetscout.test',
    ]);
    const manifest = JSON.parse(fs.readFileSync(path.join(workDir, 'dist/appsscript.json'), 'utf8'));
    expect(manifest.urlFetchWhitelist).toEqual([
      'https://api.sheetscout.test/',
      'https://hooks.slack.com/services/',
      'https://chat.googleapis.com/v1/spaces/',
    ]);
    expect(fs.readFileSync(path.join(workDir, 'dist/Code.js'), 'utf8')).toContain('https://api.sheetscout.test');
    expect(stdout).toContain('Pushing');
    expect(stdout + stderr).toContain('No credentials found.');
    expect(status).toBe(1);
  });

  it('with a --base-url the allowlist cannot hold, stops before pushing', () => {
    const { status, stdout, stderr } = deployWith(JSON.stringify({ scriptId: '1AbCdEfGhIjK', rootDir: 'dist' }), [
      '--base-url',
      'http://api.sheetscout.test',
    ]);
    expect(status).toBe(1);
    expect(stderr).toContain('SHEET_SCOUT_BASE_URL must be an https:// address');
    expect(stdout).not.toContain('Pushing');
  });
});
