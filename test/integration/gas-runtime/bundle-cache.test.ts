// The bundle's compilation kept across processes (dev/gas-runtime/bundle-cache.ts): an entry found on disk gives what
// compiling the text gives (its top-level functions, a script that runs the same), an entry of another text is never
// used, and a damaged or missing entry only costs the compile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { compileBundle, topLevelFunctions } from '../../../dev/gas-runtime/bundle-cache';

const BUNDLE = path.resolve(__dirname, '../../../dist/Code.js');

describe('bundle cache', () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-cache-'));
  });
  afterEach(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

  it("gives the built bundle's own functions, and V8 takes the code cache a first compile stored", () => {
    const source = fs.readFileSync(BUNDLE, 'utf8');
    const first = compileBundle(source, 'first.js', cacheDir);
    expect(fs.readdirSync(cacheDir).sort()).toEqual([
      expect.stringMatching(/\.v8-cache$/),
      expect.stringMatching(/\.functions\.json$/),
    ]);
    const again = compileBundle(source, 'again.js', cacheDir);
    expect(again.script).not.toBe(first.script);
    expect(again.script.cachedDataRejected).toBe(false);
    expect(again.functions).toEqual(topLevelFunctions(source));
    expect(again.functions).toContain('onOpen');
  });

  it('never answers a text with the entry of another, and compiles afresh over a damaged entry', () => {
    const one = 'function alpha() { return 1; }\nvar beta = function () {};';
    const other = 'function gamma() { return 2; }\nfunction delta() {}';
    expect(compileBundle(one, 'one.js', cacheDir).functions).toEqual(['alpha']);
    expect(compileBundle(other, 'other.js', cacheDir).functions).toEqual(['gamma', 'delta']);
    for (const name of fs.readdirSync(cacheDir)) fs.writeFileSync(path.join(cacheDir, name), '{"not": "a list"');
    const compiled = compileBundle(other, 'other-again.js', cacheDir);
    expect(compiled.functions).toEqual(['gamma', 'delta']);
    const context = vm.createContext({});
    compiled.script.runInContext(context);
    expect(vm.runInContext('gamma()', context)).toBe(2);
  });

  it('compiles when its directory cannot be written', () => {
    const blocked = path.join(cacheDir, 'a-file');
    fs.writeFileSync(blocked, '');
    expect(compileBundle('function epsilon() {}', 'blocked.js', blocked).functions).toEqual(['epsilon']);
  });
});
