// Shared set-up of the custom-function integration tests, over the common harness (../harness.ts): the common sandbox
// suite on a manual clock, and an emulated spreadsheet running the built bundle whose formulas use a token shared
// through document properties.
import { createManualClock, type Behaviours, type Clock, type GasRuntime } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { closeAfterTest, runtimeFor, sandboxLinkedClock, sandboxSuite, type SandboxSuite } from '../harness';

/** An opened spreadsheet (of `rows` rows when given) whose formulas use `token` (null: nobody shared a token with the formulas). */
function spreadsheetWithFormulas(
  url: string,
  token: string | null = 'sbx_pro_token',
  rows?: number,
  behaviours?: Partial<Behaviours>,
  clock?: Clock,
): GasRuntime {
  const runtime = runtimeFor(url, {
    clock,
    token: null,
    user: 'owner@example.com',
    users: ['editor@example.com'],
    addonName: 'Sheet Scout',
    behaviours,
    ...(rows === undefined ? {} : { minRows: rows }),
  });
  if (token) {
    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, token);
    runtime.properties.document.set(SETTINGS_KEYS.formulaBaseUrl, url);
  }
  // Opening the file builds the add-on menu.
  runtime.open();
  return runtime;
}

/**
 * A test file's formulas world: the common sandbox suite on a manual clock, and `open` for a spreadsheet whose
 * formulas use a token, closed after the test.
 */
export function formulasSuite(
  options: {
    resetEachTest?: boolean;
    behaviours?: Partial<Behaviours>;
    /**
     * The spreadsheet's clock (default the real one). `manual`: the formulas see the modelled time of their calls
     * (costs.ts), as in Google, where on a real clock they see only the emulator's own, shorter time. `sandbox`: a
     * manual clock that moves the sandbox's clock with it (sandboxLinkedClock), so the sandbox's rate limit sees the
     * formulas' time and waits.
     */
    clock?: 'real' | 'manual' | 'sandbox';
  } = {},
): SandboxSuite & {
  open(token?: string | null, rows?: number): GasRuntime;
} {
  const { behaviours, clock = 'real', ...suiteOptions } = options;
  const suite = sandboxSuite({ clock: 'manual', ...suiteOptions });
  const clockFor = (): Clock | undefined => {
    if (clock === 'manual') return createManualClock(Date.now());
    if (clock === 'sandbox') return closeAfterTest(sandboxLinkedClock(suite.url, Date.now()));
    return undefined;
  };
  // Object.create keeps the suite's getters lazy (the sandbox starts in beforeAll).
  return Object.assign(Object.create(suite) as SandboxSuite, {
    open: (token?: string | null, rows?: number) =>
      closeAfterTest(spreadsheetWithFormulas(suite.url, token, rows, behaviours, clockFor())),
  });
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
