// The sidebar's one way to reach the server: gas-client promisifies google.script.run, typed by the server's
// endpoint map (a type-only import, so no server code is bundled into the page).
import { GASClient } from 'gas-client';
import type { ServerFunctions } from '../src/server-functions';

const client = new GASClient<ServerFunctions>();

export const server = client.serverFunctions;

/** The dialog's own host functions (close). */
export const host = client.scriptHostFunctions;

/** The message of a failed server call, without Apps Script's "Exception: " / "ScriptError: " prefixes. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^(Exception|ScriptError|Error):\s*/, '') || 'Something went wrong. Try again.';
}
