// Words a failed JSON Schema check for a person: "must be integer", "must be one of "medium", "high"", "must have
// required property 'rows'", with the place in the value it is about. The validators (build/validators.js) say only
// where a check failed: the keyword's place in the schema, followed through `$ref`s and `$dynamicRef`s, and the
// value's place; this follows that place through the schema documents to read the keyword's value, and words it as
// ajv does. Pure; used by the request check (src/shared/request-check.ts) and the output schema check
// (src/research/brief/json-schema-check.ts).
import type { SchemaError } from './generated/validators';

type Schema = Record<string, unknown>;

/** Schema documents by $id, and the one a check starts from. */
export interface SchemaDocuments {
  byId: Record<string, unknown>;
  rootId: string;
}

export interface SchemaProblem {
  /** The place in the value: property names and array indexes from the top. */
  path: string[];
  /** What is wrong there, e.g. `must be array`. */
  message: string;
}

/** The parts of a JSON pointer written as a URI fragment (`#/a/b~1c` -> `a`, `b/c`). */
export function pointerParts(location: string): string[] {
  const pointer = location.replace(/^#/, '');
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The document and node a `$ref` leads to from the document `baseId` (relative addresses as in the meta-schemas). */
function referenced(documents: SchemaDocuments, baseId: string, reference: string): [string, unknown] {
  const [address, fragment = ''] = reference.split('#');
  const id = address === '' ? baseId : /^[a-z]+:/i.test(address) ? address : baseId.replace(/[^/]*$/, '') + address;
  let node = documents.byId[id];
  for (const part of pointerParts(`#${fragment}`))
    node = isSchema(node) || Array.isArray(node) ? node[part as never] : undefined;
  return [id, node];
}

/**
 * The schema holding the keyword a keyword location ends with. A `$dynamicRef` leads back to the root document: the
 * add-in's schemas use it only as the 2020-12 meta-schema does (`#meta`, anchored outermost at the root).
 */
function keywordAt(documents: SchemaDocuments, location: string): { keyword: string; schema: Schema } | null {
  const parts = pointerParts(location);
  const keyword = parts.pop();
  let baseId = documents.rootId;
  let node: unknown = documents.byId[baseId];
  for (const part of parts) {
    if (!isSchema(node) && !Array.isArray(node)) return null;
    if (part === '$dynamicRef') [baseId, node] = [documents.rootId, documents.byId[documents.rootId]];
    else if (part === '$ref' && isSchema(node) && typeof node.$ref === 'string')
      [baseId, node] = referenced(documents, baseId, node.$ref);
    else node = node[part as never];
  }
  return keyword && isSchema(node) ? { keyword, schema: node } : null;
}

const quoted = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

/** What a branch of anyOf/oneOf asks for in a few words (`string`, `null`, `"a" or "b"`), or null when it is more. */
function shape(branch: unknown): string | null {
  if (!isSchema(branch)) return null;
  const keys = Object.keys(branch);
  if (keys.length !== 1) return null;
  if (keys[0] === 'type') return ([] as unknown[]).concat(branch.type).join(' or ');
  if (keys[0] === 'enum' && Array.isArray(branch.enum))
    return branch.enum.map((value) => JSON.stringify(value)).join(' or ');
  if (keys[0] === 'const') return JSON.stringify(branch.const);
  return null;
}

const LIMITS: Record<string, string> = {
  minimum: 'must be >= ',
  maximum: 'must be <= ',
  exclusiveMinimum: 'must be > ',
  exclusiveMaximum: 'must be < ',
  multipleOf: 'must be multiple of ',
};
const COUNTS: Record<string, [string, string]> = {
  minLength: ['fewer', 'characters'],
  maxLength: ['more', 'characters'],
  minItems: ['fewer', 'items'],
  maxItems: ['more', 'items'],
  minProperties: ['fewer', 'properties'],
  maxProperties: ['more', 'properties'],
};

/** Why text is not a regular expression (as `new RegExp` says), for the `regex` format. */
function regexProblem(text: unknown): string | null {
  try {
    new RegExp(String(text), 'u');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The message for `keyword` of `schema` (ajv's wording), about `instance`, the value there. */
function wording(keyword: string, schema: Schema, instance: unknown): string {
  const value = schema[keyword];
  if (keyword in LIMITS) return `${LIMITS[keyword]}${String(value)}`;
  if (keyword in COUNTS) return `must NOT have ${COUNTS[keyword][0]} than ${String(value)} ${COUNTS[keyword][1]}`;
  switch (keyword) {
    case 'type':
      return `must be ${([] as unknown[]).concat(value).join(',')}`;
    case 'enum':
      return `must be one of ${quoted(Array.isArray(value) ? value : [])}`;
    case 'const':
      return `must be ${JSON.stringify(value)}`;
    case 'anyOf':
    case 'oneOf': {
      const shapes = Array.isArray(value) ? value.map(shape) : [null];
      return shapes.every((part) => part !== null)
        ? `must be ${shapes.join(' or ')}`
        : `must match ${keyword === 'oneOf' ? 'exactly one schema' : 'a schema'} in ${keyword}`;
    }
    case 'uniqueItems':
      return 'must NOT have duplicate items';
    case 'pattern':
      return `must match pattern ${JSON.stringify(value)}`;
    case 'format':
      return (value === 'regex' && regexProblem(instance)) || `must match format ${JSON.stringify(value)}`;
    case 'not':
      return 'must NOT be valid';
    default:
      return `must match the schema's ${keyword}`;
  }
}

/** The problem an error of a validator found in `value`, in words, at its place there. */
export function schemaProblem(documents: SchemaDocuments, error: SchemaError, value: unknown): SchemaProblem {
  const path = pointerParts(error.instanceLocation);
  const found = keywordAt(documents, error.keywordLocation);
  // schemasafe places a missing or extra property's error at the property; ajv (and a reader) at its object.
  if (found?.keyword === 'required' || found?.keyword === 'dependentRequired') {
    const missing = path.pop() ?? '';
    return { path, message: `must have required property '${missing}'` };
  }
  if ((found?.keyword === 'additionalProperties' || found?.keyword === 'unevaluatedProperties') && path.length > 0) {
    const extra = path.pop() ?? '';
    return { path, message: `must NOT have additional property '${extra}'` };
  }
  const instance = path.reduce<unknown>(
    (node, part) => (isSchema(node) || Array.isArray(node) ? node[part as never] : undefined),
    value,
  );
  return { path, message: found ? wording(found.keyword, found.schema, instance) : 'is not valid' };
}
