// `npm ci` prints no unexplained warning: npm 11 lists every installed package whose install scripts the project did
// not review ("npm warn install-scripts ..."), so each package of the lockfile that has one is named in package.json's
// allowScripts (true: it runs; false: it is not needed), and allowScripts names nothing else.
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '../../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

it('reviews the install script of every locked package that has one, and of no other', () => {
  const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([location]) => location.replace(/^.*node_modules\//, ''))
    .sort();
  const reviewed = Object.keys((read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {});
  expect(reviewed.sort()).toEqual(withScripts);
  expect(withScripts).toEqual(expect.arrayContaining(['@swc/core', 'esbuild']));
});
