// Structured output for research tasks: the field builder (name, type, required, "with evidence") turned into the
// JSON Schema the service takes, the list of fields of a pasted schema, and the check of any schema against the
// spec's limits (type object at the root, nesting <= 5 levels, <= 50 properties, shared definitions only at the root
// as #/$defs/<name>) before anything is sent. The limit walk is hand-written rather than a validator: the sidebar
// page must stay under 150 KB, and the 2020-12 meta-schema's compiled validator alone is larger than the room left.
// The server passes its full JSON Schema check (json-schema-check.ts) to parsePastedSchema, which runs it before the
// walk.
// Also recognises Evidenced values {value, sources, reasoning} in a schema report. Pure.
import type { Evidenced, JsonSchemaObject } from '../../api/types';

export const SCHEMA_MAX_DEPTH = 5;
export const SCHEMA_MAX_PROPERTIES = 50;

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'list' | 'url';

export const FIELD_TYPES: ReadonlyArray<{ type: FieldType; label: string }> = [
  { type: 'string', label: 'Text' },
  { type: 'number', label: 'Number' },
  { type: 'integer', label: 'Integer' },
  { type: 'boolean', label: 'Yes/No' },
  { type: 'enum', label: 'One of a list' },
  { type: 'list', label: 'List of text' },
  { type: 'url', label: 'URL' },
];

export interface FieldSpec {
  name: string;
  type: FieldType;
  required: boolean;
  /** Wraps the value as Evidenced {value, sources, reasoning}. */
  evidence: boolean;
  /** Allowed values when type is `enum`. */
  options?: string[];
  /** Optional description sent to the service. */
  description?: string;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_ -]{0,63}$/;

function valueSchema(field: FieldSpec): Record<string, unknown> {
  const described = (schema: Record<string, unknown>) =>
    field.description ? { ...schema, description: field.description } : schema;
  switch (field.type) {
    case 'string':
      return described({ type: 'string' });
    case 'number':
      return described({ type: 'number' });
    case 'integer':
      return described({ type: 'integer' });
    case 'boolean':
      return described({ type: 'boolean' });
    case 'url':
      return described({ type: 'string', format: 'uri' });
    case 'list':
      return described({ type: 'array', items: { type: 'string' } });
    case 'enum':
      return described({ type: 'string', enum: [...(field.options ?? [])] });
  }
}

/** The Evidenced wrapper of a value schema (spec 2.3). */
export function evidencedSchema(value: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      value,
      sources: { type: 'array', items: { type: 'string' } },
      reasoning: { type: 'string' },
    },
    required: ['value', 'sources', 'reasoning'],
    additionalProperties: false,
  };
}

export type BuildResult = { ok: true; schema: JsonSchemaObject } | { ok: false; errors: string[] };

/** Builds the output schema of the field builder; every problem is listed (names, duplicates, enum options). */
export function buildSchema(fields: readonly FieldSpec[]): BuildResult {
  const errors: string[] = [];
  if (fields.length === 0) errors.push('Add at least one field');
  const seen = new Set<string>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  fields.forEach((field, index) => {
    const name = field.name.trim();
    const label = name || `field ${index + 1}`;
    if (!FIELD_NAME.test(name)) {
      errors.push(`${label}: a name starts with a letter and uses letters, digits, spaces, - or _ (64 at most)`);
    } else if (seen.has(name.toLowerCase())) {
      errors.push(`${label}: two fields have this name`);
    }
    seen.add(name.toLowerCase());
    if (field.type === 'enum') {
      const options = (field.options ?? []).map((option) => option.trim()).filter(Boolean);
      if (options.length === 0) errors.push(`${label}: list the allowed values`);
      if (new Set(options).size !== options.length) errors.push(`${label}: an allowed value is repeated`);
    }
    const value = valueSchema({ ...field, options: field.options?.map((o) => o.trim()).filter(Boolean) });
    properties[name] = field.evidence ? evidencedSchema(value) : value;
    if (field.required) required.push(name);
  });
  if (errors.length > 0) return { ok: false, errors };
  const schema: JsonSchemaObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  const limits = checkSchemaLimits(schema);
  return limits.length > 0 ? { ok: false, errors: limits } : { ok: true, schema };
}

type Json = Record<string, unknown>;

const KNOWN_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_SINGLE = ['items', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else'];

/** Levels of object/array nesting inside a schema node, following $refs into `definitions` (a cycle is unbounded). */
function nestingDepth(node: unknown, definitions: Json, refs: string[]): number {
  if (!isObject(node)) return 0;
  let inner = 0;
  if (typeof node.$ref === 'string') {
    const match = /^#\/\$defs\/([^/]+)$/.exec(node.$ref);
    if (match && match[1] in definitions) {
      inner = refs.includes(match[1])
        ? Infinity
        : nestingDepth(definitions[match[1]], definitions, [...refs, match[1]]);
    }
  }
  const children: unknown[] = [];
  if (isObject(node.properties)) children.push(...Object.values(node.properties));
  for (const key of SUBSCHEMA_SINGLE) children.push(node[key]);
  const nests =
    node.type === 'object' ||
    node.type === 'array' ||
    (Array.isArray(node.type) && (node.type.includes('object') || node.type.includes('array'))) ||
    isObject(node.properties) ||
    node.items !== undefined;
  let childDepth = 0;
  for (const child of children) childDepth = Math.max(childDepth, nestingDepth(child, definitions, refs));
  for (const key of SUBSCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const child of list) inner = Math.max(inner, nestingDepth(child, definitions, refs));
  }
  return Math.max(inner, (nests ? 1 : 0) + childDepth);
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks a schema against the service's limits and the structural rules the sidebar can verify without a full
 * validator. Depth counts nested levels of objects and arrays (the root object is level 1; a `$ref` counts the
 * depth of its definition where it is used). Properties are counted across the whole schema, definitions included.
 * Returns the problems found (empty when the schema may be sent).
 */
export function checkSchemaLimits(schema: unknown): string[] {
  const errors: string[] = [];
  if (!isObject(schema)) return ['The schema must be a JSON object'];
  if (schema.type !== 'object') errors.push('The schema\'s root must have "type": "object"');
  const defs = schema.$defs;
  if (defs !== undefined && !isObject(defs)) errors.push('"$defs" must be an object of named schemas');
  const definitions = isObject(defs) ? defs : {};
  if (schema.definitions !== undefined) errors.push('Shared definitions go in "$defs" at the root (not "definitions")');
  let properties = 0;
  let deepest = 0;
  const walk = (node: unknown, path: string, level: number): void => {
    if (typeof node === 'boolean') return;
    if (!isObject(node)) {
      errors.push(`${path}: a schema must be an object`);
      return;
    }
    if (path !== '#' && (node.$defs !== undefined || node.definitions !== undefined)) {
      errors.push(`${path}: shared definitions are allowed only at the root ("$defs")`);
    }
    const ref = node.$ref;
    if (ref !== undefined) {
      const match = typeof ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(ref) : null;
      if (!match || !(match[1] in definitions)) {
        errors.push(`${path}: "$ref" must point to a definition of the root "$defs" as "#/$defs/<name>"`);
      } else {
        deepest = Math.max(deepest, level + nestingDepth(definitions[match[1]], definitions, [match[1]]));
      }
    }
    const type = node.type;
    const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
    for (const t of types) {
      if (typeof t !== 'string' || !KNOWN_TYPES.includes(t)) errors.push(`${path}: unknown type ${JSON.stringify(t)}`);
    }
    const nests =
      types.includes('object') || types.includes('array') || isObject(node.properties) || node.items !== undefined;
    const here = nests ? level + 1 : level;
    if (nests) deepest = Math.max(deepest, here);
    if (node.properties !== undefined) {
      if (!isObject(node.properties)) errors.push(`${path}: "properties" must be an object`);
      else {
        for (const [name, child] of Object.entries(node.properties)) {
          properties += 1;
          walk(child, `${path}/properties/${name}`, here);
        }
        // 2020-12 lets "required" name a property that "properties" does not define (the value must then be there).
        if (
          node.required !== undefined &&
          (!Array.isArray(node.required) || node.required.some((r) => typeof r !== 'string'))
        ) {
          errors.push(`${path}: "required" must be a list of property names`);
        }
      }
    }
    if (node.enum !== undefined && (!Array.isArray(node.enum) || node.enum.length === 0)) {
      errors.push(`${path}: "enum" must be a non-empty list`);
    }
    for (const key of SUBSCHEMA_SINGLE) {
      if (node[key] !== undefined && typeof node[key] !== 'boolean') walk(node[key], `${path}/${key}`, here);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = node[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) errors.push(`${path}: "${key}" must be a list of schemas`);
      else list.forEach((child, i) => walk(child, `${path}/${key}/${i}`, level));
    }
  };
  walk(schema, '#', 0);
  // Definitions are checked (and their properties counted) once; their depth counts where a $ref uses them.
  const rootDepth = deepest;
  for (const [name, def] of Object.entries(definitions)) walk(def, `#/$defs/${name}`, 0);
  deepest = rootDepth;
  if (deepest === Infinity)
    errors.push(`A "$ref" is recursive, so the nesting is unbounded; the service allows ${SCHEMA_MAX_DEPTH} levels`);
  else if (deepest > SCHEMA_MAX_DEPTH)
    errors.push(`The schema nests ${deepest} levels; the service allows ${SCHEMA_MAX_DEPTH}`);
  if (properties > SCHEMA_MAX_PROPERTIES)
    errors.push(`The schema has ${properties} properties; the service allows ${SCHEMA_MAX_PROPERTIES}`);
  return [...new Set(errors)];
}

export interface SchemaField {
  name: string;
  evidence: boolean;
}

function looksEvidenced(node: unknown, definitions: Json): boolean {
  let target = node;
  if (isObject(target) && typeof target.$ref === 'string') {
    const match = /^#\/\$defs\/([^/]+)$/.exec(target.$ref);
    target = match ? definitions[match[1]] : undefined;
  }
  if (!isObject(target) || !isObject(target.properties)) return false;
  const keys = Object.keys(target.properties);
  return keys.includes('value') && keys.includes('sources') && keys.includes('reasoning');
}

/** The top-level fields of a schema (each becomes a column), noting which are Evidenced wrappers. */
export function schemaFields(schema: JsonSchemaObject): SchemaField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const definitions = isObject(schema.$defs) ? schema.$defs : {};
  return Object.entries(properties).map(([name, node]) => ({ name, evidence: looksEvidenced(node, definitions) }));
}

/** A full JSON Schema check (the server's): the problems found, empty when the schema is valid. */
export type JsonSchemaCheck = (schema: unknown) => string[];

/**
 * Parses pasted schema text: JSON errors, then `validate`'s problems (the server passes its JSON Schema check; the
 * panel has none), then the spec's limits, as messages. A schema without properties (`{"type":"object"}`) is valid
 * and accepted: its report has no field to write into a column, only the status.
 */
export function parsePastedSchema(text: string, validate?: JsonSchemaCheck): BuildResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      errors: [`The schema is not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const invalid = validate ? validate(parsed) : [];
  if (invalid.length > 0) return { ok: false, errors: invalid };
  const errors = checkSchemaLimits(parsed);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, schema: parsed as JsonSchemaObject };
}

/** True for a value shaped as Evidenced {value, sources, reasoning}. */
export function isEvidenced(value: unknown): value is Evidenced {
  return isObject(value) && 'value' in value && Array.isArray(value.sources) && typeof value.reasoning === 'string';
}
