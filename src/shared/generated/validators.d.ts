// Types of the validators build/validators.js generates into validators.js beside this file (ajv's standalone code:
// nothing is compiled at run time).
import type { ErrorObject } from 'ajv/dist/2020';

export interface PrecompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The panels' request schemas' validators, by the schema's JSON text. */
export const requestValidators: Record<string, PrecompiledValidator | undefined>;

/** The JSON Schema 2020-12 meta-schema's validator (all errors). */
export const validateJsonSchema2020: PrecompiledValidator;
