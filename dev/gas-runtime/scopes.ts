// The OAuth scopes each emulated service method needs (method-scopes.json: the "Authorization" section of Google's
// reference page of the method; any one of the listed scopes suffices), and the check of a call against the scopes
// the project's manifest declares. A manifest that lists `oauthScopes` gets exactly those (Google then skips its own
// detection); a call whose scopes the manifest lacks throws Google's "You do not have permission to call X. Required
// permissions: Y". Custom functions run without authorization (AuthMode CUSTOM_FUNCTION has its own rules), so they
// are not checked. The build checks the bundle against the same table (build/scope-check.js).
import { GasError, Msg } from './errors';
import table from './method-scopes.json';

export const SCOPE = {
  spreadsheetsCurrentOnly: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  externalRequest: 'https://www.googleapis.com/auth/script.external_request',
  containerUi: 'https://www.googleapis.com/auth/script.container.ui',
  scriptApp: 'https://www.googleapis.com/auth/script.scriptapp',
} as const;

const METHODS: Record<string, readonly string[] | undefined> = table.methods;
const CLASSES: Record<string, readonly string[] | undefined> = table.classes;

/** The scopes (any one) a call of `className.method` needs; empty when it needs none. */
export function requiredScopes(className: string, method: string): readonly string[] {
  return METHODS[`${className}.${method}`] ?? CLASSES[className] ?? [];
}

/**
 * A trigger's call when the user has not granted some of the project's scopes (a newer version of the add-on added
 * them): Google runs the trigger without asking and "throws an exception if the script attempts to call the
 * unauthorized service" (AuthorizationStatus.REQUIRED). `any-scope`: every call that needs a scope throws instead
 * (how field reports read it: the whole grant lapses). Throws Google's error, or returns.
 */
export function checkGrant(
  className: string,
  method: string,
  ungranted: ReadonlySet<string>,
  rule: 'missing-scope' | 'any-scope',
): void {
  if (ungranted.size === 0) return;
  const needed = requiredScopes(className, method);
  if (needed.length === 0) return;
  if (rule === 'any-scope' || needed.every((scope) => ungranted.has(scope)))
    throw new GasError(Msg.authorizationRequired);
}

/**
 * Throws Google's refusal when `declared` (the manifest's oauthScopes; null: not listed, so Google detects what the
 * code uses and every call is allowed) holds none of the scopes the call needs.
 */
export function checkScopes(className: string, method: string, declared: ReadonlySet<string> | null): void {
  if (declared === null) return;
  const needed = requiredScopes(className, method);
  if (needed.length === 0 || needed.some((scope) => declared.has(scope))) return;
  throw new GasError(Msg.noPermissionScope(`${className}.${method}`, needed.join(', ')));
}
