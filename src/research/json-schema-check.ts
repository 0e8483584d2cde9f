// Server-side check that a pasted output schema is a valid JSON Schema (2020-12 dialect) before the spec's limit
// walk and before anything is sent: the 2020-12 meta-schema (`maxLength: "10"`, `minItems: -1`), then a compile in
// ajv's strict mode (unknown keywords and formats, a `pattern` that is not a regular expression, unresolvable refs).
// Strict mode as the sandbox reads task creation (dev/sandbox/output-schema.ts): ajv's strictSchema and
// strictNumbers; strictRequired stays off because 2020-12 lets `required` name a property that `properties` does not
// define (the keyword only asks for an array of unique strings), and strictTypes/strictTuples stay off because they
// reject valid schemas (`properties` without a sibling `type`). Server only (bundled into Code.js): ajv with its
// meta-schemas is too large for the sidebar page, which keeps its light checks (output-schema.ts) and shows these
// messages.
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** A fresh validator per check, built only when a schema is checked (never at script load). */
function createValidator(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
  });
  addFormats(ajv);
  return ajv;
}

function metaSchemaMessages(errors: readonly ErrorObject[]): string[] {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    if (byPath.has(error.instancePath)) continue;
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
    const detail = allowed ? ` (${allowed.map((value) => JSON.stringify(value)).join(', ')})` : '';
    byPath.set(
      error.instancePath,
      `Invalid JSON Schema at #${error.instancePath}: ${error.message ?? 'invalid'}${detail}`,
    );
  }
  return [...byPath.values()];
}

/** The problems that make `schema` an invalid JSON Schema (2020-12, strict); empty when it is valid. */
export function jsonSchemaProblems(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return ['The schema must be a JSON object'];
  const declared = (schema as Record<string, unknown>).$schema;
  if (declared !== undefined && declared !== DIALECT_2020_12) {
    return [`Unsupported "$schema" ${JSON.stringify(declared)}: use ${DIALECT_2020_12} or leave it out`];
  }
  const ajv = createValidator();
  try {
    if (!ajv.validateSchema(schema)) return metaSchemaMessages(ajv.errors ?? []);
    ajv.compile(schema);
  } catch (error) {
    return [`Invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`];
  }
  return [];
}
