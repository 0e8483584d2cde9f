// Shared set-up of the custom-function integration tests: a sandbox in a child process with a small control client,
// and an emulated spreadsheet running the built bundle whose formulas use a token shared through document properties.
import { createRuntime, SpreadsheetModel, type GasRuntime } from '../../../dev/gas-runtime';
import { spawnSandbox, type SpawnedSandbox } from '../../../dev/sandbox/spawn';
import { SandboxControl, type SeededCompany } from '../../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../../src/account/settings';

export interface Sandbox extends SpawnedSandbox {
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  lookupsServed(): Promise<number>;
}

export async function startSandbox(): Promise<Sandbox> {
  const spawned = await spawnSandbox({ clock: 'manual' });
  const client = new SandboxControl(spawned.url);
  return {
    ...spawned,
    control: (method, path, body) => client.call(method, path, body),
    async lookupsServed() {
      return (await client.stats()).lookup ?? 0;
    },
  };
}

export type SandboxCompany = SeededCompany;

export function companies(sandbox: Sandbox, count: number, enriched = true): Promise<SandboxCompany[]> {
  return new SandboxControl(sandbox.url).companies(count, enriched);
}

/** An opened spreadsheet (of `rows` rows when given) whose formulas use `token` (null: nobody shared a token with the formulas). */
export function spreadsheetWithFormulas(sandbox: Sandbox, token: string | null = 'sbx_pro_token', rows?: number): GasRuntime {
  const spreadsheet = rows === undefined ? undefined : new SpreadsheetModel({ rows });
  const runtime = createRuntime({ users: ['owner@example.com', 'editor@example.com'], addonName: 'Sheet Scout', spreadsheet });
  if (token) {
    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, token);
    runtime.properties.document.set(SETTINGS_KEYS.formulaBaseUrl, sandbox.url);
  }
  // Opening the file builds the add-on menu.
  runtime.open();
  return runtime;
}

/** Puts a column of values into the sheet starting at `a1`'s cell (e.g. "A2"). */
export function fillColumn(runtime: GasRuntime, column: string, firstRow: number, values: string[]): void {
  if (values.length === 0) return;
  runtime.spreadsheet.sheet().setValues(`${column}${firstRow}:${column}${firstRow + values.length - 1}`, values.map((value) => [value]));
}

export function values(runtime: GasRuntime, a1: string): unknown[][] {
  return runtime.spreadsheet.sheet().getValues(a1);
}
