// Shared set-up of the custom-function integration tests: a sandbox in a child process with a small control client,
// and an emulated spreadsheet running the built bundle whose formulas use a token shared through document properties.
import { createRuntime, type GasRuntime } from '../../../dev/gas-runtime';
import { spawnSandbox, type SpawnedSandbox } from '../../../dev/sandbox/spawn';
import { SETTINGS_KEYS } from '../../../src/account/settings';

export interface Sandbox extends SpawnedSandbox {
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  lookupsServed(): Promise<number>;
}

export async function startSandbox(): Promise<Sandbox> {
  const spawned = await spawnSandbox({ clock: 'manual' });
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(spawned.url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    ...spawned,
    control,
    async lookupsServed() {
      const stats = await control<Record<string, number>>('GET', '/_sandbox/stats');
      return stats.lookup ?? 0;
    },
  };
}

export interface SandboxCompany {
  domain: string;
  name: string;
  hq_country: string;
  employee_count: string;
  enriched: boolean;
}

export function companies(sandbox: Sandbox, count: number, enriched = true): Promise<SandboxCompany[]> {
  return sandbox.control<SandboxCompany[]>('GET', `/_sandbox/companies?limit=${count}&enriched=${enriched}`);
}

/** An opened spreadsheet whose formulas use `token` (null: nobody shared a token with the formulas). */
export function spreadsheetWithFormulas(sandbox: Sandbox, token: string | null = 'sbx_pro_token'): GasRuntime {
  const runtime = createRuntime({ users: ['owner@example.com', 'editor@example.com'], addonName: 'Sheet Scout' });
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
