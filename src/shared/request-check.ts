// Checks what a panel sends to a server function before anything uses it. google.script.run hands over whatever the
// page sent, so each feature describes its requests as JSON Schemas (its requests.ts) and every server function the
// panels call checks its arguments here: a malformed request is refused with one clear message naming the part that
// is wrong ("filters.includeCountries must be array"), never turned into a wrong service call or a stack trace. The
// validators are compiled when the add-in is built (build/validators.js: nothing compiles code at run time) and
// found by (a hash of) the schema's JSON text; schema-errors.ts words what they find.
import { requestValidator, type PrecompiledValidator } from './generated/validators';
import { schemaProblem } from './schema-errors';

/** A JSON Schema, as the requests.ts files write them. */
export type SchemaObject = Record<string, unknown>;

function validator(schema: SchemaObject): PrecompiledValidator {
  const validate = requestValidator(JSON.stringify(schema));
  // Only a schema no requests.ts exports has none: a build out of step with the code.
  if (!validate) throw new Error('This request has no validator: rebuild Sheet Scout');
  return validate;
}

/** `filters.includeCities[0]`, or `what` for the request itself. */
function named(path: string[], what: string): string {
  const name = path
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  return name || what;
}

/**
 * The value with its objects' undefined properties left out: absent, as JSON has them and as ajv (which the sandbox
 * runs, and which checked requests before) reads them; the compiled validators would check them as present.
 */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value === null || typeof value !== 'object') return value;
  const present = Object.entries(value).filter(([, part]) => part !== undefined);
  return Object.fromEntries(present.map(([key, part]) => [key, withoutUndefined(part)]));
}

/** The first problem of `value` against `schema` as a short message, or null when it conforms. */
export function requestProblem(schema: SchemaObject, sent: unknown, what: string): string | null {
  const validate = validator(schema);
  const value = withoutUndefined(sent);
  if (validate(value)) return null;
  const [error] = validate.errors ?? [];
  if (!error) return `${what} is not valid`;
  const { path, message } = schemaProblem({ byId: { request: schema }, rootId: 'request' }, error, value);
  return `${named(path, what)} ${message}`;
}

/**
 * The value, typed, when it conforms; otherwise throws the message the panel shows. A malformed request only comes
 * from a page out of step with the server (or a crafted call), so it is refused as a whole.
 */
export function checkedRequest<T>(schema: SchemaObject, value: unknown, what: string): T {
  const problem = requestProblem(schema, value, what);
  if (problem) throw new Error(unreadableRequest(problem));
  return value as T;
}

/** The message for a malformed request, for server functions that answer failures instead of throwing. */
export function unreadableRequest(problem: string): string {
  return `Sheet Scout could not read this request (${problem}): reload the panel and try again`;
}

/** Schema helpers for the requests.ts files. */
export const text = { type: 'string' } as const;
export const integer = { type: 'integer' } as const;
export const flag = { type: 'boolean' } as const;
export const textList = { type: 'array', items: text } as const;

/** An object whose listed properties are required unless named in `optional` (other properties are ignored). */
export function record(properties: Record<string, SchemaObject>, optional: readonly string[] = []): SchemaObject {
  return { type: 'object', properties, required: Object.keys(properties).filter((key) => !optional.includes(key)) };
}

/** One of the given values. */
export function oneOfValues(values: readonly (string | number)[]): SchemaObject {
  return { enum: [...values] };
}

/** A value of `schema`, or null. */
export function orNull(schema: SchemaObject): SchemaObject {
  return { anyOf: [schema, { type: 'null' }] };
}
