// The server bundle's pass over esbuild's output (build/restated-names.js): dropping keepNames' calls that restate the
// name a property gives its function leaves every function with the same name, and its `name` property with the same
// attributes, as esbuild's own output.
import * as vm from 'vm';
import * as esbuild from 'esbuild';
import fc from 'fast-check';

const { withoutRestatedNames } = require('../../../build/restated-names') as {
  withoutRestatedNames(code: string): string;
};

/** esbuild's minified ES2019 output with keepNames, as the build makes it. */
function minified(source: string): string {
  return esbuild.transformSync(source, { minify: true, keepNames: true, target: 'es2019', format: 'esm' }).code;
}

/**
 * Every function reachable from the code's `globalThis.result` (through properties and prototypes), by path, with its
 * name property's descriptor.
 */
function functionNames(code: string): Record<string, PropertyDescriptor | undefined> {
  const context = vm.createContext({});
  vm.runInContext(`(()=>{"use strict";${code}})();`, context);
  const names: Record<string, PropertyDescriptor | undefined> = {};
  const seen = new Set<unknown>();
  const walk = (value: unknown, path: string): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return;
    seen.add(value);
    if (typeof value === 'function') names[path] = Object.getOwnPropertyDescriptor(value, 'name');
    for (const key of Object.keys(value as object)) walk((value as Record<string, unknown>)[key], `${path}.${key}`);
    // (A `__proto__: value` property sets the prototype.)
    if (typeof value === 'object') walk(Object.getPrototypeOf(value), `${path}.[[Prototype]]`);
  };
  walk((context as { result?: unknown }).result, 'result');
  return names;
}

const FUNCTIONS = [
  (body: string) => `(a) => (${body})`,
  (body: string) => `function (a) { return ${body}; }`,
  (body: string) => `function named(a) { return ${body}; }`,
  (body: string) => `async (a) => (${body})`,
  (body: string) => `class { m() { return ${body}; } }`,
  () => 'localHelper',
  (body: string) => `(${body})`,
];

/** A property key as written: an identifier, a quoted string, a number, or any of them computed. */
const keys = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('read', 'build', 'name', 'length', '__proto__', 'constructor', 'default'),
      fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/),
      fc.string({ maxLength: 6 }).map((text) => JSON.stringify(text)),
      fc.nat(20).map(String),
    ),
    fc.boolean(),
  )
  .map(([key, computed]) => (computed ? `[${JSON.stringify(key)}]` : key));

/**
 * An object literal's source: properties whose values are functions of several kinds, or objects of the same kind
 * (which the walk reaches), or functions returning them (whose dropped calls must leave valid code).
 */
const objectSource: fc.Memo<string> = fc.memo((depth) =>
  fc
    .uniqueArray(fc.tuple(keys, fc.nat(FUNCTIONS.length - 1), depth > 1 ? objectSource(depth - 1) : fc.constant('1')), {
      maxLength: 6,
      selector: ([key]) => key,
    })
    .map((properties) => `{ ${properties.map(([key, kind, body]) => `${key}: ${FUNCTIONS[kind](body)}`).join(', ')} }`),
);

describe('server bundle: keepNames calls a property restates', () => {
  it('are dropped, and every function keeps its name as esbuild keeps it', () => {
    const source = [
      'const localHelper = (x) => x + 1;',
      'function renamedFunction() { return localHelper; }',
      'const ports = { read: (a) => a, build: function () { return 2; }, "quoted key": () => 3,',
      '  nested: { inner: () => ({ deeper: () => 4 }) }, helper: renamedFunction, [`computed`]: () => 5 };',
      'globalThis.result = { ports, made: ports.nested.inner(), renamedFunction, localHelper };',
    ].join('\n');
    const code = minified(source);
    const trimmed = withoutRestatedNames(code);
    expect(trimmed.length).toBeLessThan(code.length);
    expect(functionNames(trimmed)).toEqual(functionNames(code));
    expect(functionNames(trimmed)['result.ports.read']?.value).toBe('read');
    expect(functionNames(trimmed)['result.localHelper']?.value).toBe('localHelper');
  });

  it('leave every name and its attributes as they were (generated objects)', () => {
    fc.assert(
      fc.property(objectSource(3), (object) => {
        const code = minified(`const localHelper = () => 0;\nglobalThis.result = ${object};`);
        expect(functionNames(withoutRestatedNames(code))).toEqual(functionNames(code));
      }),
      { seed: 13, numRuns: 200 },
    );
  });

  it('fails the build when esbuild no longer writes its helper as expected', () => {
    expect(() => withoutRestatedNames('const a = { read: () => 1 };')).toThrow('keepNames helper');
  });
});
