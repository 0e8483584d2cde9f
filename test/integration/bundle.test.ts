// The built dist/Code.js is what Apps Script runs: an ES2019 script whose exposed globals are top-level function
// declarations, and whose custom functions carry the JSDoc Sheets reads for its formula help.
import * as fs from 'fs';
import * as path from 'path';
import * as acorn from 'acorn';

const root = path.resolve(__dirname, '../..');
const code = fs.readFileSync(path.join(root, 'dist/Code.js'), 'utf8');
const mainSource = fs.readFileSync(path.join(root, 'src/main.ts'), 'utf8');

/** `global.NAME = ...` assignments in src/main.ts with the JSDoc block directly above each. */
function exposedGlobals(): Array<{ name: string; doc: string }> {
  const found: Array<{ name: string; doc: string }> = [];
  const pattern = /(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)?\s*global\.(\w+)\s*=/g;
  for (const match of mainSource.matchAll(pattern)) found.push({ name: match[2], doc: match[1] ?? '' });
  return found;
}

describe('dist/Code.js', () => {
  const program = acorn.parse(code, { ecmaVersion: 2019, sourceType: 'script', onComment: [] }) as unknown as {
    body: Array<{ type: string; id?: { name: string }; params?: Array<{ name: string }>; start: number }>;
  };
  const topLevelFunctions = new Map(
    program.body.filter((node) => node.type === 'FunctionDeclaration').map((node) => [node.id!.name, node]),
  );

  it('parses as an ES2019 script (no import/export, no newer syntax)', () => {
    expect(() => acorn.parse(code, { ecmaVersion: 2019, sourceType: 'script' })).not.toThrow();
    expect(code).not.toMatch(/@preserve/);
  });

  it('declares every exposed global as a top-level function', () => {
    const globals = exposedGlobals();
    expect(globals.length).toBeGreaterThan(0);
    for (const { name } of globals) expect(topLevelFunctions.has(name)).toBe(true);
  });

  it('exposes as a global every server function the panels are typed to call (ServerFunctions)', async () => {
    const serverFunctions = fs.readFileSync(path.join(root, 'src/server-functions.ts'), 'utf8');
    const modules = [...serverFunctions.matchAll(/import type \* as \w+ from '\.\/([\w/-]+)'/g)].map((m) => m[1]);
    expect(modules.length).toBeGreaterThanOrEqual(5);
    const typed: string[] = [];
    for (const modulePath of modules) {
      const exported = (await import(path.join(root, 'src', modulePath))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) if (typeof value === 'function') typed.push(name);
    }
    const globals = new Set(exposedGlobals().map((g) => g.name));
    expect(typed.filter((name) => !globals.has(name) || !topLevelFunctions.has(name))).toEqual([]);
  });

  it('gives each custom function its JSDoc with @customfunction and its parameter names', () => {
    const customFunctions = exposedGlobals().filter((g) => g.doc.includes('@customfunction'));
    for (const { name, doc } of customFunctions) {
      const node = topLevelFunctions.get(name)!;
      const stubStart = code.lastIndexOf('/**', node.start);
      const stubDoc = code.slice(stubStart, node.start);
      expect(stubDoc).toContain('@customfunction');
      const paramNames = [...doc.matchAll(/@param\s+\{[^}]*\}\s+\[?(\w+)/g)].map((m) => m[1]);
      expect(paramNames.length).toBeGreaterThan(0);
      for (const param of paramNames) expect(stubDoc).toMatch(new RegExp(`@param\\s+\\{[^}]*\\}\\s+\\[?${param}\\b`));
      expect(node.params!.map((p) => p.name)).toEqual(paramNames);
    }
  });

  it("says in COMPANY_LOOKUP's help what sorting does to a range's spill (issue 29)", () => {
    const node = topLevelFunctions.get('COMPANY_LOOKUP')!;
    const stubDoc = code.slice(code.lastIndexOf('/**', node.start), node.start);
    expect(stubDoc).toContain("A range's spill follows the input's order: after sorting the sheet");
  });

  it('runs no Apps Script service at load time (add-ons load the script in AuthMode.NONE)', () => {
    const vm = require('vm') as typeof import('vm');
    const touched: string[] = [];
    const trap = new Proxy(
      {},
      {
        get: (_t, prop) => {
          touched.push(String(prop));
          throw new Error(`service touched: ${String(prop)}`);
        },
      },
    );
    const context = vm.createContext({
      SpreadsheetApp: trap,
      PropertiesService: trap,
      UrlFetchApp: trap,
      CacheService: trap,
      ScriptApp: trap,
      LockService: trap,
    });
    vm.runInContext(code, context);
    expect(touched).toEqual([]);
  });
});

describe('dist/*.html (sidebar panels and dialogs)', () => {
  const pages = fs.readdirSync(path.join(root, 'dist')).filter((file) => file.endsWith('.html'));

  it('builds one page per sidebar entry', () => {
    const entries = fs.readdirSync(path.join(root, 'sidebar/entries')).filter((file) => file.endsWith('.ts'));
    expect(pages.sort()).toEqual(entries.map((file) => file.replace(/\.ts$/, '.html')).sort());
  });

  it.each(pages)('%s is self-contained and carries no server code', (file) => {
    const html = fs.readFileSync(path.join(root, 'dist', file), 'utf8');
    // No external scripts, stylesheets or fonts: everything is inlined.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//i);
    // Browser code reaches the server only through google.script.run, never Apps Script services.
    expect(html).not.toMatch(
      /\b(SpreadsheetApp|PropertiesService|UrlFetchApp|CacheService|LockService|ScriptApp|HtmlService)\./,
    );
  });
});
