// Server-side check that a pasted output schema is a valid JSON Schema (2020-12 dialect) before the spec's limit
// walk and before anything is sent: the 2020-12 meta-schema (`maxLength: "10"`, `minItems: -1`), with a validator
// compiled when the add-in is built (build/validators.js: nothing compiles code at run time), then the checks ajv's
// strict mode makes when it compiles a schema, as a walk over it: unknown keywords and formats, a `pattern` that is
// not a regular expression, a `$ref` that does not resolve. As the sandbox reads task creation
// (dev/sandbox/research/output-schema.ts): `required` may name a property `properties` does not define (2020-12 only asks for
// an array of unique strings), and `properties` needs no sibling `type`. Server only (bundled into Code.js): the
// sidebar keeps its light checks (output-schema.ts) and shows these messages.
import {
  knownFormats,
  metaSchemas,
  META_SCHEMA_ID,
  validateJsonSchema2020,
  type SchemaError,
} from '../../shared/generated/validators';
import { schemaProblem } from '../../shared/schema-errors';

const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The keywords of the 2020-12 vocabularies (core, applicator, unevaluated, validation, meta-data, format, content). */
const KEYWORDS = new Set([
  ...['$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs'],
  ...['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items'],
  ...['contains', 'properties', 'patternProperties', 'additionalProperties', 'propertyNames'],
  ...['unevaluatedItems', 'unevaluatedProperties', 'type', 'const', 'enum', 'multipleOf', 'maximum'],
  ...['exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems'],
  ...['minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required'],
  ...['dependentRequired', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples'],
  ...['format', 'contentEncoding', 'contentMediaType', 'contentSchema'],
]);
/** Keywords whose value is a schema, a list of schemas, or an object of schemas by name. */
const ONE_SCHEMA = ['not', 'if', 'then', 'else', 'items', 'contains', 'additionalProperties', 'propertyNames'];
const MORE_SCHEMAS = ['unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const FORMATS = new Set(knownFormats);

/** One message per place in the schema that the meta-schema refused (the first error found there). */
function metaSchemaMessages(schema: unknown, errors: readonly SchemaError[]): string[] {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    const { path, message } = schemaProblem({ byId: metaSchemas, rootId: META_SCHEMA_ID }, error, schema);
    const pointer = path.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
    if (!byPath.has(pointer)) byPath.set(pointer, `Invalid JSON Schema at #${pointer}: ${message}`);
  }
  return [...byPath.values()];
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a `$ref` (within the document: `#`, `#/a/b` JSON pointers) leads to a schema. */
function resolves(root: Schema, ref: string): boolean {
  if (!ref.startsWith('#')) return false;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(node) && !Array.isArray(node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return isSchema(node) || typeof node === 'boolean';
}

/** The checks of ajv's strict compile, over a schema the meta-schema accepted. */
function strictProblems(root: Schema): string[] {
  const problems: string[] = [];
  const walk = (schema: unknown, at: string): void => {
    if (!isSchema(schema)) return;
    for (const [keyword, value] of Object.entries(schema)) {
      if (!KEYWORDS.has(keyword)) problems.push(`strict mode: unknown keyword: "${keyword}" (at ${at})`);
      else if (keyword === 'format' && typeof value === 'string' && !FORMATS.has(value))
        problems.push(`unknown format "${value}" ignored in schema at path "${at}"`);
      else if (keyword === 'pattern' && typeof value === 'string') {
        try {
          new RegExp(value, 'u');
        } catch (error) {
          problems.push(error instanceof Error ? error.message : String(error));
        }
      } else if (keyword === '$ref' && typeof value === 'string' && !resolves(root, value))
        problems.push(`can't resolve reference ${value} from id #`);
      else if (ONE_SCHEMA.includes(keyword) || MORE_SCHEMAS.includes(keyword)) walk(value, `${at}/${keyword}`);
      else if (SCHEMA_LISTS.includes(keyword) && Array.isArray(value))
        value.forEach((item, i) => walk(item, `${at}/${keyword}/${i}`));
      else if (SCHEMA_MAPS.includes(keyword) && isSchema(value))
        for (const [name, item] of Object.entries(value)) walk(item, `${at}/${keyword}/${name}`);
    }
  };
  walk(root, '#');
  return problems;
}

/** The problems that make `schema` an invalid JSON Schema (2020-12, strict); empty when it is valid. */
export function jsonSchemaProblems(schema: unknown): string[] {
  if (!isSchema(schema)) return ['The schema must be a JSON object'];
  const declared = schema.$schema;
  if (declared !== undefined && declared !== DIALECT_2020_12) {
    return [`Unsupported "$schema" ${JSON.stringify(declared)}: use ${DIALECT_2020_12} or leave it out`];
  }
  if (!validateJsonSchema2020(schema)) return metaSchemaMessages(schema, validateJsonSchema2020.errors ?? []);
  return strictProblems(schema).map((problem) => `Invalid JSON Schema: ${problem}`);
}
