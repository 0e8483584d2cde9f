// The import rules that `npm run lint` checks (.dependency-cruiser.js) fail where they should: on a circle anywhere
// (type-only imports counted), on an import in src/ that runs up or sideways a floor (a feature's adapter in the
// ground, the scheduler importing a feature's slice), and on a room of src/ that has no floor; they pass downward
// imports. Each case is a small tree written to a temporary folder and checked with the project's own configuration;
// the checkout itself has no import that breaks them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'node_modules/.bin/depcruise');
const config = path.join(root, '.dependency-cruiser.js');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The rule names and the imports (file -> file) that the rules refuse in the folders `paths` of `dir`. */
function cruise(dir: string, paths: string[]): string[] {
  const args = ['--config', config, '--output-type', 'json', ...paths];
  let output: string;
  try {
    output = execFileSync(cli, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (failure) {
    output = (failure as { stdout: string }).stdout;
  }
  const found = (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
  return found.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
}

/** What the rules refuse in a tree of these files. */
function violations(files: Record<string, string>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  try {
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs' } }));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return cruise(dir, [...new Set(Object.keys(files).map(topFolder))]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const topFolder = (file: string) => file.split('/')[0];

describe('the import rules (npm run lint)', () => {
  // One tree for every case: each run of the checker takes a few seconds.
  const found = violations({
    'src/ports.ts': 'export interface Clock { now(): number }\n',
    // Down: shared stands on the port interfaces; a feature on shared; main.ts on the feature; a test on anything.
    'src/shared/time.ts': "import type { Clock } from '../ports';\nexport const at = (clock: Clock) => clock.now();\n",
    'src/search/service.ts': "import { at } from '../shared/time';\nexport const run = at;\n",
    'src/main.ts': "import { run } from './search/service';\nexport const entry = run;\n",
    'test/unit/a.test.ts': "import { entry } from '../../src/main';\nexport const tested = entry;\n",
    // Up: the ground's adapters importing a feature's port.
    'src/search/ports.ts': 'export interface SearchSheets { names(): string[] }\n',
    'src/platform/sheets.ts': "import type { SearchSheets } from '../search/ports';\nexport type S = SearchSheets;\n",
    // Sideways: two features on one floor.
    'src/account/settings.ts': 'export const KEY = 1;\n',
    'src/spending-history/history.ts': "import { KEY } from '../account/settings';\nexport const key = KEY;\n",
    // A room that is on no floor.
    'src/reports/summary.ts': "import { at } from '../shared/time';\nexport const summary = at;\n",
    // Up: the scheduler handing itself a feature's slice (the timer's room, at the top, does that), and the ground's
    // adapter importing the scheduler; down: the scheduler's own adapter, and the timer's room composing both.
    'src/scheduler/timer.ts': 'export const timer = 2;\n',
    'src/search/timer-slice.ts': "import { timer } from '../scheduler/timer';\nexport const slice = timer;\n",
    'src/scheduler/endpoints.ts': "import { slice } from '../search/timer-slice';\nexport const run = slice;\n",
    'src/platform/timer-triggers.ts': "import { timer } from '../scheduler/timer';\nexport const triggers = timer;\n",
    'src/scheduler/adapters/triggers.ts': "import { timer } from '../timer';\nexport const triggers = timer;\n",
    'src/timer/endpoints.ts':
      "import { slice } from '../search/timer-slice';\nimport { triggers } from '../scheduler/adapters/triggers';\nexport const tick = () => [slice, triggers];\n",
    // A circle outside src/, closed by type-only imports.
    'dev/a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
    'dev/b.ts': "import { make } from './c';\nexport type B = ReturnType<typeof make>;\n",
    'dev/c.ts': "import type { A } from './a';\nexport const make = (a?: A) => ({ a });\n",
  });

  it('refuse an import in src/ that runs up or sideways, and a room without a floor; pass those that go down', () => {
    expect(found.filter((line) => line.startsWith('src-'))).toEqual([
      'src-import-runs-up: src/platform/sheets.ts -> src/search/ports.ts',
      'src-import-runs-up: src/platform/timer-triggers.ts -> src/scheduler/timer.ts',
      'src-import-runs-up: src/scheduler/endpoints.ts -> src/search/timer-slice.ts',
      'src-import-runs-up: src/spending-history/history.ts -> src/account/settings.ts',
      'src-room-without-floor: src/reports/summary.ts -> src/shared/time.ts',
    ]);
  });

  it('refuse a circle anywhere, type-only imports counted', () => {
    const circles = found.filter((line) => line.startsWith('no-circular: '));
    expect(circles.length).toBeGreaterThan(0);
    for (const circle of circles) expect(circle).toMatch(/^no-circular: dev\/[abc]\.ts -> dev\/[abc]\.ts$/);
  });

  it('report nothing else', () => {
    expect(found.filter((line) => !/^(src-|no-circular: )/.test(line))).toEqual([]);
  });
});

describe('the checkout', () => {
  it('has no import in src/ that runs up or sideways, no room without a floor and no circle', () => {
    expect(cruise(root, ['src', 'sidebar', 'dev', 'test', 'bench', 'build'])).toEqual([]);
  });
});
