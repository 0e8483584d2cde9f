// Types of the validators build/validators.js generates into validators.js beside this file (schemasafe's module
// output, made compact: nothing is compiled at run time).

/** Where a value failed: JSON pointers as URI fragments, into the schema (through its references) and the value. */
export interface SchemaError {
  keywordLocation: string;
  instanceLocation: string;
}

export interface PrecompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/**
 * The validator (first error) of the request schema whose JSON text this is (found by a hash of the text: the bundle
 * does not carry the texts); undefined for a schema the build compiled none for.
 */
export function requestValidator(schemaText: string): PrecompiledValidator | undefined;

/** The JSON Schema 2020-12 meta-schema's validator (all errors). */
export const validateJsonSchema2020: PrecompiledValidator;

/** The 2020-12 meta-schema and its vocabularies' (annotations left out), by $id; unpacked when first read. */
export const metaSchemas: Record<string, Record<string, unknown>>;

/** The $id of the 2020-12 meta-schema. */
export const META_SCHEMA_ID: string;

/** The format names ajv-formats knows (what an output schema may name). */
export const knownFormats: string[];
