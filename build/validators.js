// Generates src/shared/generated/validators.js: the add-in's JSON Schema validators compiled ahead of time into plain
// functions by @exodus/schemasafe's module output, so that nothing compiles code at run time (validator libraries
// compile with `new Function`, which Apps Script does not document; the bundle must not depend on it). Two kinds:
//   - the panels' request schemas (each feature's requests.ts), keyed by their JSON text, which request-check.ts
//     computes the same way at run time (first error only);
//   - the JSON Schema 2020-12 meta-schema with its vocabularies, which checks a pasted output schema (all errors;
//     src/research/brief/json-schema-check.ts, where the strict-mode checks of ajv's compile are a walk). The meta-schemas
//     themselves go along, trimmed to what validates, so that an error's keyword can be read for its message
//     (src/shared/schema-errors.ts), with the format names ajv-formats knows (what the service's ajv accepts).
// schemasafe's functions are about half the size of ajv's standalone code for the same schemas: Apps Script loads the
// bundle at the start of every execution. Run by the build before webpack (build/build.js) and by the tests' global
// set-up (test/setup/generated.js).
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const esbuild = require('esbuild');
const { validator } = require('@exodus/schemasafe');
const { fullFormats } = require('ajv-formats/dist/formats');

const root = path.resolve(__dirname, '..');
const OUTPUT = path.join(root, 'src', 'shared', 'generated', 'validators.js');
const FEATURES = ['account', 'enrichment', 'new-rows', 'research', 'search', 'tables', 'spending-history', 'digest'];
const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';
const META_SCHEMAS = path.join(
  path.dirname(require.resolve('ajv/package.json')),
  'dist',
  'refs',
  'json-schema-2020-12',
);
/** Meta-schema keywords that only annotate: left out of the copies the bundle carries for messages. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'deprecated', 'default']);

/** The exports of each feature's requests.ts, evaluated from TypeScript with esbuild. */
function requestModules() {
  const entry = FEATURES.map(
    (feature) => `export * as ${feature.replace(/-/g, '_')} from './src/${feature}/requests';`,
  ).join('\n');
  const bundled = esbuild.buildSync({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    // The schemas' module imports the validators this generates; reading the schemas needs none of them.
    external: ['./generated/validators'],
  });
  const module = { exports: {} };
  const load = (id) => (id === './generated/validators' ? {} : require(id));
  vm.runInNewContext(bundled.outputFiles[0].text, { module, exports: module.exports, require: load });
  return module.exports;
}

/**
 * The JSON text of every request schema the features export (plain objects), each once. Compiled from the text:
 * schemasafe takes only objects of this realm, and the exports come from a vm context.
 */
function requestSchemaTexts() {
  const texts = new Set();
  for (const exported of Object.values(requestModules()))
    for (const value of Object.values(exported))
      if (value && typeof value === 'object' && !Array.isArray(value)) texts.add(JSON.stringify(value));
  return [...texts];
}

/** The 2020-12 meta-schema and its vocabularies' (as ajv ships them), by $id. */
function metaSchemas() {
  const vocabularies = fs
    .readdirSync(path.join(META_SCHEMAS, 'meta'))
    .map((file) => path.join(META_SCHEMAS, 'meta', file));
  const documents = [path.join(META_SCHEMAS, 'schema.json'), ...vocabularies].map((file) => require(file));
  return Object.fromEntries(documents.map((document) => [document.$id, document]));
}

/** A schema without its annotation keywords (kept where they are names of properties). */
function withoutAnnotations(schema, inPropertyNames = false) {
  if (Array.isArray(schema)) return schema.map((item) => withoutAnnotations(item));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => inPropertyNames || !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, withoutAnnotations(value, key === 'properties' || key === '$defs')]),
  );
}

/** schemasafe's module text for one validator: an expression giving the function. */
function compiled(schema, options) {
  return validator(schema, { includeErrors: true, $schemaDefault: META_SCHEMA_ID, ...options })
    .toModule()
    .replace(/;\s*$/, '');
}

function generate() {
  const texts = requestSchemaTexts();
  const metas = metaSchemas();
  const vocabularies = Object.values(metas).filter((schema) => schema.$id !== META_SCHEMA_ID);
  const meta = compiled(metas[META_SCHEMA_ID], { schemas: vocabularies, allErrors: true });
  return [
    '// Generated by build/validators.js from the request schemas and the JSON Schema 2020-12 meta-schema.',
    '// Do not edit.',
    '/* eslint-disable */',
    '"use strict";',
    `const requests = [\n${texts.map((text) => compiled(JSON.parse(text), { allErrors: false })).join(',\n')}\n];`,
    `const keys = ${JSON.stringify(texts)};`,
    'exports.requestValidators = Object.fromEntries(keys.map((text, i) => [text, requests[i]]));',
    `exports.validateJsonSchema2020 = ${meta};`,
    `exports.metaSchemas = ${JSON.stringify(withoutAnnotations(metas))};`,
    `exports.META_SCHEMA_ID = ${JSON.stringify(META_SCHEMA_ID)};`,
    `exports.knownFormats = ${JSON.stringify(Object.keys(fullFormats))};`,
    '',
  ].join('\n');
}

/** Writes the module (minified: it is not read, and every execution loads it) when its text changed; its path. */
function writeValidators() {
  const text = esbuild.transformSync(generate(), { minify: true, format: 'cjs', legalComments: 'none' }).code;
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  if (!fs.existsSync(OUTPUT) || fs.readFileSync(OUTPUT, 'utf8') !== text) fs.writeFileSync(OUTPUT, text);
  return OUTPUT;
}

module.exports = { writeValidators };

if (require.main === module) writeValidators();
