// `npm start` (dev/playground/start.ts) as a newcomer sees it: it builds dist/, starts the sandbox and the playground,
// and what it prints ends with the playground's address; the build's details and the sandbox's address only with
// --verbose; it says it keeps nothing when it stops, and starts with the sheets Export sheets saved (--sheets).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnPlayground } from '../../dev/playground/spawn';
import type { KeptSheets } from '../../dev/playground/keep';

/** What start.ts printed once it listened (it is stopped then). */
async function printed(args: string[]): Promise<string[]> {
  const playground = await spawnPlayground(args);
  await playground.stop();
  return playground.output().trim().split('\n');
}

const ADDRESS_LINE = /^Sheet Scout playground: http:\/\/127\.0\.0\.1:\d+\/$/;

it('ends with the playground address, says it keeps nothing, and prints no build details', async () => {
  expect(await printed([])).toEqual([
    'Sandbox service and playground running (account sandbox-pro); Ctrl+C stops them and keeps nothing: save the ' +
      'sheets with Export sheets, start with npm start -- --sheets <file>.',
    expect.stringMatching(ADDRESS_LINE),
  ]);
});

it('starts with the sheets a file of Export sheets holds (--sheets)', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sheets-')), 'sheets.json');
  const kept: KeptSheets = {
    kind: 'Sheet Scout playground sheets',
    sheets: [{ name: 'Leads', cells: [['Domain'], ['stripe.com']], notes: [[''], ['']] }],
  };
  fs.writeFileSync(file, JSON.stringify(kept));
  const lines = await printed(['--no-build', '--sheets', file]);
  expect(lines[0]).toMatch(/^Sandbox service and playground running \(account sandbox-pro, your exported sheets\);/);
  expect(lines[lines.length - 1]).toMatch(ADDRESS_LINE);
});

it('prints the build details and the sandbox address with --verbose, and still ends with the address', async () => {
  const lines = await printed(['--verbose']);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^bundle: Code\.js \d+\.\d KB minified/),
      "scopes: the bundle's service calls and the appsscript.json scope each uses",
      expect.stringMatching(/^built dist\/Code\.js, dist\/appsscript\.json, /),
      expect.stringMatching(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/),
    ]),
  );
  expect(lines[lines.length - 1]).toMatch(ADDRESS_LINE);
});
