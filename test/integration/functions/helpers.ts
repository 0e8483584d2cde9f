// Shared set-up of the custom-function integration tests, over the common harness (../harness.ts): a sandbox on a
// manual clock with its control client, and an emulated spreadsheet running the built bundle whose formulas use a
// token shared through document properties. formulasSuite() gives a test file its sandbox and closes its runtimes.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { SpawnedSandbox } from '../../../dev/sandbox/spawn';
import type { SandboxControl, SeededCompany } from '../../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../../src/account/settings';
import { runtimeFor, startSandbox as startStack } from '../harness';

export interface Sandbox extends SpawnedSandbox {
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  lookupsServed(): Promise<number>;
  client: SandboxControl;
}

export async function startSandbox(): Promise<Sandbox> {
  const { sandbox, control } = await startStack({ clock: 'manual' });
  return {
    ...sandbox,
    client: control,
    control: (method, path, body) => control.call(method, path, body),
    async lookupsServed() {
      return (await control.stats()).lookup ?? 0;
    },
  };
}

export type SandboxCompany = SeededCompany;

export function companies(sandbox: Sandbox, count: number, enriched = true): Promise<SandboxCompany[]> {
  return sandbox.client.companies(count, enriched);
}

/** An opened spreadsheet (of `rows` rows when given) whose formulas use `token` (null: nobody shared a token with the formulas). */
export function spreadsheetWithFormulas(
  sandbox: Sandbox,
  token: string | null = 'sbx_pro_token',
  rows?: number,
): GasRuntime {
  const runtime = runtimeFor(sandbox.url, {
    token: null,
    user: 'owner@example.com',
    users: ['editor@example.com'],
    addonName: 'Sheet Scout',
    ...(rows === undefined ? {} : { minRows: rows }),
  });
  if (token) {
    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, token);
    runtime.properties.document.set(SETTINGS_KEYS.formulaBaseUrl, sandbox.url);
  }
  // Opening the file builds the add-on menu.
  runtime.open();
  return runtime;
}

/**
 * A test file's formulas world: the sandbox starts before its tests and stops after them, each test starts from a
 * reset sandbox (unless `resetEachTest` is false), and the spreadsheets a test opens are closed after it.
 */
export function formulasSuite(options: { resetEachTest?: boolean } = {}): {
  readonly sandbox: Sandbox;
  open(token?: string | null, rows?: number): GasRuntime;
} {
  const opened: GasRuntime[] = [];
  const suite = {
    sandbox: undefined as unknown as Sandbox,
    open(token?: string | null, rows?: number): GasRuntime {
      const runtime = spreadsheetWithFormulas(suite.sandbox, token, rows);
      opened.push(runtime);
      return runtime;
    },
  };
  beforeAll(async () => {
    suite.sandbox = await startSandbox();
  }, 30_000);
  afterAll(async () => {
    await suite.sandbox.stop();
  });
  if (options.resetEachTest !== false) {
    beforeEach(async () => {
      await suite.sandbox.control('POST', '/_sandbox/reset');
    });
  }
  afterEach(async () => {
    for (const runtime of opened.splice(0)) await runtime.close();
  });
  return suite;
}

/** Puts a column of values into the sheet starting at `a1`'s cell (e.g. "A2"). */
export function fillColumn(runtime: GasRuntime, column: string, firstRow: number, values: string[]): void {
  if (values.length === 0) return;
  runtime.spreadsheet.sheet().setValues(
    `${column}${firstRow}:${column}${firstRow + values.length - 1}`,
    values.map((value) => [value]),
  );
}

export function values(runtime: GasRuntime, a1: string): unknown[][] {
  return runtime.spreadsheet.sheet().getValues(a1);
}
