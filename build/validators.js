// Generates src/shared/generated/validators.js: the add-in's JSON Schema validators compiled ahead of time into plain
// functions by @exodus/schemasafe's module output, so that nothing compiles code at run time (validator libraries
// compile with `new Function`, which Apps Script does not document; the bundle must not depend on it). Two kinds:
//   - the panels' request schemas (each feature's requests.ts), found by a hash of their JSON text, which
//     request-check.ts computes the same way at run time (first error only); the parts several requests repeat are
//     compiled once (build/shared-parts.js);
//   - the JSON Schema 2020-12 meta-schema with its vocabularies, which checks a pasted output schema (all errors;
//     src/research/brief/json-schema-check.ts, where the strict-mode checks of ajv's compile are a walk). The meta-schemas
//     themselves go along, trimmed to what an error's message reads (src/shared/schema-errors.ts), with the format
//     names ajv-formats knows (what the service's ajv accepts).
// Apps Script loads the bundle at the start of every execution: schemasafe's functions are about half the size of
// ajv's standalone code for the same schemas, and build/compact-validators.js writes its error bookkeeping as calls of
// shared helpers (110 KB became 39 KB; the unit tests hold each validator to schemasafe's own code, verdict and errors).
// Run by the build before webpack (build/build.js) and by the tests' global set-up (test/setup/generated.js).
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const zlib = require('zlib');
const esbuild = require('esbuild');
const { validator } = require('@exodus/schemasafe');
const { fullFormats } = require('ajv-formats/dist/formats');
const { compact, shortenLocations, shareStrings, asValidators, HELPERS } = require('./compact-validators');
const { shareRepeatedParts } = require('./shared-parts');
const { base93 } = require('./packed-data');

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
/**
 * Meta-schema keywords no error's message reads (schema-errors.ts reads the keyword that refused, on the way there
 * only `$ref`s): annotations, identifiers, anchors, vocabularies. Left out of the copies the bundle carries.
 */
const NOT_READ = new Set([
  ...['title', 'description', '$comment', 'deprecated', 'default'],
  ...['$schema', '$id', '$dynamicAnchor', '$vocabulary'],
]);

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

/** A schema without the keywords no message reads (kept where they are names of properties or definitions). */
function withoutUnread(schema, names = false) {
  if (Array.isArray(schema)) return schema.map((item) => withoutUnread(item));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => names || !NOT_READ.has(key))
      .map(([key, value]) => [key, withoutUnread(value, !names && (key === 'properties' || key === '$defs'))]),
  );
}

/** schemasafe's options for a request schema's validator: the first error. */
const REQUEST_OPTIONS = { includeErrors: true, allErrors: false, $schemaDefault: META_SCHEMA_ID };

/** The 2020-12 meta-schema, and schemasafe's options for its validator: all errors, its vocabularies to refer to. */
function metaSchemaSource() {
  const metas = metaSchemas();
  const vocabularies = Object.values(metas).filter((schema) => schema.$id !== META_SCHEMA_ID);
  const options = { includeErrors: true, allErrors: true, $schemaDefault: META_SCHEMA_ID, schemas: vocabularies };
  return { schema: metas[META_SCHEMA_ID], options };
}

/** schemasafe's module text for the validator of `schema` (of each, given an array: an array of them), compact. */
function compiled(schema, options) {
  const code = validator(schema, { ...options, multi: Array.isArray(schema) })
    .toModule()
    .replace(/;\s*$/, '');
  return compact(code);
}

/**
 * How a request schema's validator is found: by the length of the schema's JSON text and a 53-bit hash of it (cyrb53,
 * src/functions/hash.ts's hashText), not by the text, which the bundle would otherwise carry (15 KB). The build keys
 * the validators with it here, and the generated module finds them with the same code at run time. Only a schema
 * compiled into no validator (a build out of step with the code) could meet another's key, at odds of 1 in 2^53.
 */
function schemaKeyCode() {
  const hashTs = fs.readFileSync(path.join(root, 'src', 'functions', 'hash.ts'), 'utf8');
  const hashText = esbuild.transformSync(hashTs, { loader: 'ts' }).code.replace(/^export (function hashText\()/m, '$1');
  if (!hashText.startsWith('function hashText(')) throw new Error('src/functions/hash.ts no longer has hashText');
  const source = `${hashText}\nconst schemaKey = (text) => text.length + ":" + hashText(text);`;
  return { source, schemaKey: vm.runInNewContext(`${source}\nschemaKey`) };
}

/**
 * The request schemas' validators (an array of functions), their repeated parts compiled once (shared-parts.js). A
 * failure inside a part is placed where the part is in the request's schema, without the `/$ref` of its reference.
 */
function requestValidators(texts) {
  const { schemas, parts } = shareRepeatedParts(texts.map((text) => JSON.parse(text)));
  return shortenLocations(
    compiled(schemas, { ...REQUEST_OPTIONS, schemas: parts }).replace(
      /(firstViaRef_\(validate, "#(?:\/(?:[^"\\\n]|\\.)*)?)\/\$ref"/g,
      '$1"',
    ),
  );
}

function generate() {
  const texts = requestSchemaTexts();
  const { source: keyCode, schemaKey } = schemaKeyCode();
  const keys = texts.map(schemaKey);
  if (new Set(keys).size !== keys.length)
    throw new Error('two request schemas have the same key: change schemaKeyCode');
  const meta = metaSchemaSource();
  return [
    '// Generated by build/validators.js from the request schemas and the JSON Schema 2020-12 meta-schema.',
    '// Do not edit.',
    '/* eslint-disable */',
    '"use strict";',
    HELPERS,
    `const requests = ${requestValidators(texts)};`,
    keyCode,
    `const byKey = new Map(${JSON.stringify(keys)}.map((key, i) => [key, requests[i]]));`,
    'exports.requestValidator = (text) => byKey.get(schemaKey(text));',
    `exports.validateJsonSchema2020 = ${shortenLocations(compiled(meta.schema, meta.options))};`,
    // Read only to word an error in a pasted schema: packed (build/packed-data.js's form), unpacked on first read.
    'let metaSchemas;',
    'Object.defineProperty(exports, "metaSchemas", {',
    '  enumerable: true,',
    `  get: () => (metaSchemas ??= require("../domain/packed-data").packedJson(${packedJson(withoutUnread(metaSchemas()))})),`,
    '});',
    `exports.META_SCHEMA_ID = ${JSON.stringify(META_SCHEMA_ID)};`,
    `exports.knownFormats = ${JSON.stringify(Object.keys(fullFormats))};`,
    '',
  ].join('\n');
}

/** A JSON value as packed-data.ts's packedJson reads it: its UTF-8 text deflated, in base 93, and the text's length. */
function packedJson(value) {
  const text = Buffer.from(JSON.stringify(value), 'utf8');
  return `["${base93(zlib.deflateRawSync(text, { level: 9 }))}", ${text.length}]`;
}

/** Writes the module (minified: it is not read, and every execution loads it) when its text changed; its path. */
function writeValidators() {
  const text = esbuild.transformSync(shareStrings(asValidators(generate())), {
    minify: true,
    format: 'cjs',
    legalComments: 'none',
  }).code;
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  if (!fs.existsSync(OUTPUT) || fs.readFileSync(OUTPUT, 'utf8') !== text) fs.writeFileSync(OUTPUT, text);
  return OUTPUT;
}

// The tests compare the validators generated with what schemasafe compiles from the same schemas and options.
module.exports = { writeValidators, requestSchemaTexts, REQUEST_OPTIONS, metaSchemaSource };

if (require.main === module) writeValidators();
