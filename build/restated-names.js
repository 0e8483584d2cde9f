// A pass over the minified bundle (build/build.js): esbuild's keepNames wraps a property's anonymous function in a
// call that sets its name, `{ read: k((a) => ..., "read") }`, where the property gives the function that name anyway
// (`{ read: (a) => ... }` names it "read", and minifying renames no property). Those calls are dropped: every function
// keeps the same name, with the same attributes. Names kept on renamed variables, functions and classes stay.
const acorn = require('acorn');

/** Calls `callback` with each node of an acorn tree. */
function visit(node, callback) {
  if (!node || typeof node.type !== 'string') return;
  callback(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (Array.isArray(value)) value.forEach((child) => visit(child, callback));
    else if (value && typeof value === 'object') visit(value, callback);
  }
}

/**
 * `code` without keepNames' calls that restate a property's name (about 180 calls, 2.3 KB of the bundle). The helper
 * sets the same value with the same attributes as the language does (not writable, not enumerable, configurable).
 */
function withoutRestatedNames(code) {
  const helper = /var ([\w$]+)=\(([\w$]+),([\w$]+)\)=>[\w$]+\(\2,"name",\{value:\3,configurable:!0\}\)/.exec(code);
  if (!helper) throw new Error("esbuild's keepNames helper is not where build/restated-names.js expects it");
  const dropped = [];
  visit(acorn.parse(code, { ecmaVersion: 2019, sourceType: 'module' }), (node) => {
    if (node.type !== 'Property' || node.computed || node.kind !== 'init' || node.method || node.shorthand) return;
    const call = node.value;
    if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== helper[1]) return;
    const [fn, name] = call.arguments;
    const anonymous = fn.type === 'ArrowFunctionExpression' || (fn.type === 'FunctionExpression' && !fn.id);
    const key = node.key.type === 'Identifier' ? node.key.name : node.key.value;
    // (`__proto__: value` sets the prototype and names nothing.)
    if (key === '__proto__') return;
    // The call's text around the function: `k(` and `,"read")` (the function may hold calls to drop of its own).
    if (anonymous && call.arguments.length === 2 && name.type === 'Literal' && name.value === key)
      dropped.push([call.start, fn.start], [fn.end, call.end]);
  });
  let result = '';
  let at = 0;
  for (const [start, end] of dropped.sort((a, b) => a[0] - b[0])) {
    result += code.slice(at, start);
    at = end;
  }
  return result + code.slice(at);
}

module.exports = { withoutRestatedNames };
