// Checks a user's output_schema as task creation requires: a valid JSON Schema (2020-12 meta-schema, strict
// keywords and formats, resolvable refs) whose root is `type: object`, within the limits of spec section 8
// (nesting up to 5 levels, up to 50 properties, shared definitions only at root as #/$defs/<name>).
// Also compiles a schema to validate the fields of a schema report before it is returned.
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { issue, isPlainObject, type Loc, type ValidationIssue } from '../http/validation';

export const MAX_SCHEMA_DEPTH = 5;
export const MAX_SCHEMA_PROPERTIES = 50;
const SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DEFS_REF = /^#\/\$defs\/([^/]+)$/;

/** Keywords whose subschemas sit one nesting level deeper (inside an object or array value). */
const NESTING_MAPS = ['properties', 'patternProperties'];
const NESTING_SINGLE = [
  'items',
  'additionalProperties',
  'contains',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
];
const NESTING_LISTS = ['prefixItems'];
/** Keywords whose subschemas describe the same value (no extra level). */
const SAME_LEVEL_SINGLE = ['not', 'if', 'then', 'else'];
const SAME_LEVEL_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SAME_LEVEL_MAPS = ['dependentSchemas'];

/**
 * A fresh compiler per schema, so user `$id`s never collide and compiled code never accumulates. It skips the
 * meta-schema check (done once by META_VALIDATOR), which keeps a compile under a millisecond.
 */
function createCompiler(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
    validateSchema: false,
  });
  addFormats(ajv);
  return ajv;
}

/** Checks schemas against the 2020-12 meta-schema; it never compiles user schemas, so it can be shared. */
const META_VALIDATOR = new Ajv2020({ allErrors: true });
addFormats(META_VALIDATOR);

/** Keywords ajv accepts in strict mode without implementing them (annotations and core identifiers). */
const ANNOTATION_KEYWORDS = new Set([
  '$id',
  '$schema',
  '$defs',
  '$anchor',
  '$dynamicAnchor',
  '$vocabulary',
  'definitions',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

function isKnownKeyword(keyword: string): boolean {
  return ANNOTATION_KEYWORDS.has(keyword) || META_VALIDATOR.getKeyword(keyword) !== false;
}

function decodePointerPart(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Turns an ajv instancePath ("/properties/a/type") into a loc, using numbers for array positions. */
function pointerToLoc(schema: unknown, pointer: string): Loc {
  const loc: Loc = [];
  let node: unknown = schema;
  for (const rawPart of pointer.split('/').slice(1)) {
    const part = decodePointerPart(rawPart);
    if (Array.isArray(node)) {
      loc.push(Number(part));
      node = node[Number(part)];
    } else {
      loc.push(part);
      node = isPlainObject(node) ? node[part] : undefined;
    }
  }
  return loc;
}

function metaSchemaIssues(schema: unknown, errors: ErrorObject[], base: Loc): ValidationIssue[] {
  const byPath = new Map<string, ErrorObject>();
  for (const error of errors) if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, error);
  return [...byPath.values()].map((error) => {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
    const detail = allowed ? `: ${allowed.map((value) => JSON.stringify(value)).join(', ')}` : '';
    return issue(
      [...base, ...pointerToLoc(schema, error.instancePath)],
      `Invalid JSON Schema: ${error.message ?? 'invalid'}${detail}`,
      'json_schema',
    );
  });
}

class LimitWalker {
  readonly issues: ValidationIssue[] = [];
  propertyCount = 0;
  private depthReported = false;

  constructor(
    private readonly root: Record<string, unknown>,
    private readonly base: Loc,
  ) {}

  run(): void {
    this.visit(this.root, [], 1, true, []);
    const defs = this.root.$defs;
    if (isPlainObject(defs)) {
      for (const [name, definition] of Object.entries(defs)) this.visit(definition, ['$defs', name], null, true, []);
    }
    if (this.propertyCount > MAX_SCHEMA_PROPERTIES) {
      this.issues.push(
        issue(
          this.base,
          `output_schema has ${this.propertyCount} properties; the limit is ${MAX_SCHEMA_PROPERTIES}`,
          'value_error',
        ),
      );
    }
  }

  /**
   * `depth` is the nesting level of this node's value (root = 1), or null while walking $defs directly
   * (their depth is measured where they are referenced). `countProperties` is false when following a $ref,
   * so a definition's properties count once.
   */
  private visit(node: unknown, path: Loc, depth: number | null, countProperties: boolean, refStack: string[]): void {
    if (!isPlainObject(node)) return;
    const loc = [...this.base, ...path];
    if (depth !== null && depth > MAX_SCHEMA_DEPTH && this.isContainer(node) && !this.depthReported) {
      this.depthReported = true;
      this.issues.push(
        issue(
          loc,
          `output_schema nesting depth ${depth} exceeds the limit of ${MAX_SCHEMA_DEPTH} levels`,
          'value_error',
        ),
      );
    }
    if (countProperties) this.checkKeywords(node, loc);
    if (countProperties && isPlainObject(node.properties)) this.propertyCount += Object.keys(node.properties).length;
    if ('$defs' in node && path.length > 0 && countProperties) {
      this.issues.push(
        issue([...loc, '$defs'], 'Shared definitions are allowed only at the root, as #/$defs/<name>', 'value_error'),
      );
    }
    if ('definitions' in node && countProperties) {
      this.issues.push(
        issue(
          [...loc, 'definitions'],
          'Use #/$defs/<name> at the root for shared definitions ("definitions" is not supported)',
          'value_error',
        ),
      );
    }
    if ('$ref' in node) this.followRef(node.$ref, [...path, '$ref'], depth, refStack);
    const childDepth = depth === null ? null : depth + 1;
    for (const key of NESTING_MAPS) this.visitMap(node[key], [...path, key], childDepth, countProperties, refStack);
    for (const key of NESTING_SINGLE) this.visit(node[key], [...path, key], childDepth, countProperties, refStack);
    for (const key of NESTING_LISTS) this.visitList(node[key], [...path, key], childDepth, countProperties, refStack);
    for (const key of SAME_LEVEL_SINGLE) this.visit(node[key], [...path, key], depth, countProperties, refStack);
    for (const key of SAME_LEVEL_LISTS) this.visitList(node[key], [...path, key], depth, countProperties, refStack);
    for (const key of SAME_LEVEL_MAPS) this.visitMap(node[key], [...path, key], depth, countProperties, refStack);
  }

  private checkKeywords(node: Record<string, unknown>, loc: Loc): void {
    for (const keyword of Object.keys(node)) {
      if (!isKnownKeyword(keyword))
        this.issues.push(issue([...loc, keyword], `Invalid JSON Schema: unknown keyword "${keyword}"`, 'json_schema'));
    }
    if (typeof node.format === 'string' && !(node.format in META_VALIDATOR.formats)) {
      this.issues.push(
        issue([...loc, 'format'], `Invalid JSON Schema: unknown format "${node.format}"`, 'json_schema'),
      );
    }
  }

  private isContainer(node: Record<string, unknown>): boolean {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    return (
      types.includes('object') ||
      types.includes('array') ||
      'properties' in node ||
      'items' in node ||
      'prefixItems' in node
    );
  }

  private visitMap(
    value: unknown,
    path: Loc,
    depth: number | null,
    countProperties: boolean,
    refStack: string[],
  ): void {
    if (!isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value))
      this.visit(child, [...path, key], depth, countProperties, refStack);
  }

  private visitList(
    value: unknown,
    path: Loc,
    depth: number | null,
    countProperties: boolean,
    refStack: string[],
  ): void {
    if (!Array.isArray(value)) return;
    value.forEach((child, index) => this.visit(child, [...path, index], depth, countProperties, refStack));
  }

  private followRef(ref: unknown, path: Loc, depth: number | null, refStack: string[]): void {
    const loc = [...this.base, ...path];
    const match = typeof ref === 'string' ? DEFS_REF.exec(ref) : null;
    if (!match) {
      this.issues.push(
        issue(loc, 'Only local references to root definitions are supported: #/$defs/<name>', 'value_error'),
      );
      return;
    }
    const name = decodePointerPart(decodeURIComponent(match[1]));
    const defs = this.root.$defs;
    if (!isPlainObject(defs) || !(name in defs)) {
      this.issues.push(
        issue(loc, `Reference ${String(ref)} does not resolve: no such entry in the root $defs`, 'value_error'),
      );
      return;
    }
    if (depth === null) return;
    if (refStack.includes(name)) {
      if (!this.depthReported) {
        this.depthReported = true;
        this.issues.push(
          issue(
            loc,
            `Recursive reference to #/$defs/${name} makes the nesting unbounded (limit ${MAX_SCHEMA_DEPTH} levels)`,
            'value_error',
          ),
        );
      }
      return;
    }
    this.visit(defs[name], ['$defs', name], depth, false, [...refStack, name]);
  }
}

/**
 * Every problem with an output_schema, located under `base` (e.g. ['body', 'output_schema']).
 * Null is not checked here (it means "no schema").
 */
export function checkOutputSchema(schema: unknown, base: Loc): ValidationIssue[] {
  if (!isPlainObject(schema))
    return [issue(base, 'Input should be a valid dictionary or null: a JSON Schema object', 'dict_type')];
  if ('$schema' in schema && schema.$schema !== SCHEMA_2020) {
    return [issue([...base, '$schema'], `Unsupported $schema; use ${SCHEMA_2020} or leave it out`, 'json_schema')];
  }
  if (!META_VALIDATOR.validateSchema(schema)) return metaSchemaIssues(schema, META_VALIDATOR.errors ?? [], base);
  if (schema.type !== 'object')
    return [issue([...base, 'type'], "output_schema must have type 'object' at its root", 'value_error')];
  const walker = new LimitWalker(schema, base);
  walker.run();
  if (walker.issues.length > 0) return walker.issues;
  try {
    createCompiler().compile(schema);
  } catch (error) {
    return [issue(base, `Invalid JSON Schema: ${(error as Error).message}`, 'json_schema')];
  }
  return [];
}

/** A validator for values that must conform to an (already checked) output_schema. */
export function compileOutputSchema(schema: Record<string, unknown>): ValidateFunction {
  return createCompiler().compile(schema);
}
