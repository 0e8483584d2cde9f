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
 * Throws Google's refusal when `declared` (the manifest's oauthScopes; null: not listed, so Google detects what the
 * code uses and every call is allowed) holds none of the scopes the call needs.
 */
export function checkScopes(className: string, method: string, declared: ReadonlySet<string> | null): void {
  if (declared === null) return;
  const needed = requiredScopes(className, method);
  if (needed.length === 0 || needed.some((scope) => declared.has(scope))) return;
  throw new GasError(Msg.noPermissionScope(`${className}.${method}`, needed.join(', ')));
}
