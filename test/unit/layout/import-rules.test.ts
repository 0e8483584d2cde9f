// The import rules that `npm run lint` checks (.dependency-cruiser.js) fail where they should: on a circle anywhere
// (type-only imports counted), on an import in src/ that runs up or sideways a floor, on a room of src/ that has no
// floor, and on a tolerated import that is gone; they pass downward imports and the tolerated ones. Each case is a
// small tree written to a temporary folder and checked with the project's own configuration.
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

/** The rule names and the imports (file -> file) that the rules refuse in a tree of these files. */
function violations(files: Record<string, string>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  try {
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs' } }));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const args = ['--config', config, '--output-type', 'json', ...new Set(Object.keys(files).map(topFolder))];
    let output: string;
    try {
      output = execFileSync(cli, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (failure) {
      output = (failure as { stdout: string }).stdout;
    }
    const found = (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
    return found.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
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
    // A tolerated import (it passes) beside one that is not.
    'src/scheduler/authorization.ts': 'export const note = 1;\n',
    'src/scheduler/timer.ts': 'export const timer = 2;\n',
    'src/platform/authorization.ts':
      "import { note } from '../scheduler/authorization';\nimport { timer } from '../scheduler/timer';\nexport const both = note + timer;\n",
    // Tolerated imports that are gone: this file no longer imports research's rooms.
    'src/platform/sheets/research.ts': 'export const researchSheets = 3;\n',
    // A circle outside src/, closed by type-only imports.
    'dev/a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
    'dev/b.ts': "import { make } from './c';\nexport type B = ReturnType<typeof make>;\n",
    'dev/c.ts': "import type { A } from './a';\nexport const make = (a?: A) => ({ a });\n",
  });

  it('refuse an import in src/ that runs up or sideways, and a room without a floor; pass the tolerated ones', () => {
    expect(found.filter((line) => line.startsWith('src-'))).toEqual([
      'src-import-runs-up: src/platform/authorization.ts -> src/scheduler/timer.ts',
      'src-import-runs-up: src/platform/sheets.ts -> src/search/ports.ts',
      'src-import-runs-up: src/spending-history/history.ts -> src/account/settings.ts',
      'src-room-without-floor: src/reports/summary.ts -> src/shared/time.ts',
    ]);
  });

  it('refuse a circle anywhere, type-only imports counted', () => {
    const circles = found.filter((line) => line.startsWith('no-circular: '));
    expect(circles.length).toBeGreaterThan(0);
    for (const circle of circles) expect(circle).toMatch(/^no-circular: dev\/[abc]\.ts -> dev\/[abc]\.ts$/);
  });

  it('refuse a tolerated import that is gone, so that the list only shrinks', () => {
    expect(found.filter((line) => line.startsWith('tolerated-import-gone: '))).toEqual([
      'tolerated-import-gone: src/platform/sheets/research.ts -> src/platform/sheets/research.ts',
    ]);
  });

  it('report nothing else', () => {
    expect(found.filter((line) => !/^(src-|no-circular: |tolerated-import-gone: )/.test(line))).toEqual([]);
  });
});
