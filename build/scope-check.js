// The build's scope check: every Apps Script service method the bundle calls directly on a service (`Session.x`,
// `ScriptApp.y`, `SpreadsheetApp.z`, ...) against the scopes appsscript.json declares, by the table of Google's
// reference pages that the emulator enforces too (dev/gas-runtime/method-scopes.json). A method on an object a
// service returned (a Range's getValues) needs its service's class scopes, which the service's own calls already
// require. Prints the table; a needed scope the manifest lacks fails the build, and a declared scope nothing needs is
// named (Marketplace review asks for the fewest scopes).
const acorn = require('acorn');
const table = require('../dev/gas-runtime/method-scopes.json');

const SERVICES = new Set([
  'CacheService',
  'HtmlService',
  'LockService',
  'Logger',
  'PropertiesService',
  'ScriptApp',
  'Session',
  'SpreadsheetApp',
  'UrlFetchApp',
  'Utilities',
]);
/** Classes reached only through a service's call, whose methods need scopes of their own. */
const REACHED_THROUGH = { 'ScriptApp.newTrigger': ['ClockTriggerBuilder.create', 'SpreadsheetTriggerBuilder.create'] };

function isServiceMember(node) {
  return (
    node.type === 'MemberExpression' &&
    !node.computed &&
    node.object.type === 'Identifier' &&
    SERVICES.has(node.object.name)
  );
}

function required(call) {
  const [service] = call.split('.');
  return table.methods[call] ?? table.classes[service] ?? [];
}

/**
 * `Service.method` names the bundle calls on the service globals. A service passed on as a value (to an adapter that
 * calls it) counts as calling every method of it that the table lists.
 */
function serviceCalls(code) {
  const calls = new Set();
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'CallExpression' && isServiceMember(node.callee))
      calls.add(`${node.callee.object.name}.${node.callee.property.name}`);
    else if (
      node.type === 'Identifier' &&
      SERVICES.has(node.name) &&
      !(parent?.type === 'MemberExpression' && parent.object === node)
    )
      for (const call of Object.keys(table.methods)) if (call.startsWith(`${node.name}.`)) calls.add(call);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((child) => visit(child, node));
      else if (value && typeof value === 'object') visit(value, node);
    }
  };
  visit(acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'script' }), null);
  for (const [call, reached] of Object.entries(REACHED_THROUGH))
    if (calls.has(call)) reached.forEach((r) => calls.add(r));
  return [...calls].sort();
}

/** Checks `code` against `manifest`: the report's lines, and the calls whose scopes are missing. */
function checkScopes(code, manifest) {
  const declared = new Set(manifest.oauthScopes ?? []);
  const lines = [];
  const missing = [];
  const used = new Set();
  for (const call of serviceCalls(code)) {
    const scopes = required(call);
    if (scopes.length === 0) continue;
    const granted = scopes.find((scope) => declared.has(scope));
    if (granted) used.add(granted);
    else missing.push(call);
    const short = (scope) => scope.replace('https://www.googleapis.com/auth/', '');
    lines.push(`  ${call.padEnd(34)} ${granted ? short(granted) : `MISSING: ${scopes.map(short).join(' or ')}`}`);
  }
  const unused = [...declared].filter((scope) => !used.has(scope));
  return { lines, missing, unused };
}

module.exports = { checkScopes, serviceCalls };
