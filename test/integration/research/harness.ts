// Shared by the research integration tests and benchmark, on top of the common harness (test/integration/harness.ts):
// a sandbox on a manual clock, a runtime whose clock follows the sandbox's with a sheet of companies, and helpers that
// act like the Research panel (launch, poll) and the trigger (tick), advancing both clocks together.
import { createManualClock, type GasRuntime, type ManualClock } from '../../../dev/gas-runtime';
import { SandboxControl } from '../../../dev/sandbox/control-client';
import type { LaunchResponse, ResearchStatusDto } from '../../../src/research/contract';
import type { LaunchRequest, OutputRequest } from '../../../src/research/launch-request';
import { runtimeFor as commonRuntime, startSandbox, USER, BUNDLE, type SandboxStack } from '../harness';

export { USER, BUNDLE };
export const SHEET = 'Accounts';

/** The usual report output: status, report and sources columns by those headers. */
export const REPORT_OUTPUT: Extract<OutputRequest, { kind: 'report' }> = {
  kind: 'report',
  statusHeader: 'Status',
  reportHeader: 'Report',
  sourcesHeader: 'Sources',
};

/** The sandbox's control API plus the account's task list, as the tests check it. */
export class Control extends SandboxControl {
  tasks(token: string): Promise<Array<{ id: string; brief: string; status: string; agents: number }>> {
    return this.call('GET', '/v1/deep_research_tasks?limit=100', undefined, token);
  }
}

export type World = SandboxStack<Control>;

export function startWorld(): Promise<World> {
  return startSandbox({ clock: 'manual' }, (url) => new Control(url));
}

/** Runtimes opened for the running test (closed after it by researchSuite; closing is idempotent). */
const opened: GasRuntime[] = [];

/** Registers a runtime made outside runtimeFor to be closed after the test. */
export function closeAfterTest<T extends GasRuntime>(runtime: T): T {
  opened.push(runtime);
  return runtime;
}

/**
 * A test file's world: the sandbox starts before its tests and stops after them, each test starts from a reset
 * sandbox (unless `resetEachTest` is false), and the runtimes a test opened are closed after it.
 */
export function researchSuite(options: { resetEachTest?: boolean } = {}): { readonly world: World } {
  const suite = {} as { world: World };
  beforeAll(async () => {
    suite.world = await startWorld();
  });
  afterAll(async () => {
    await suite.world.sandbox.stop();
  });
  if (options.resetEachTest !== false) {
    beforeEach(async () => {
      await suite.world.control.reset();
    });
  }
  afterEach(async () => {
    for (const runtime of opened.splice(0)) await runtime.close();
  });
  return suite;
}

/** A runtime with one sheet of `rows` (row 1 = headers), the token set for USER, and a clock at the sandbox's time. */
export async function runtimeFor(
  world: World,
  rows: Array<Array<string | number>>,
  token = 'sbx_pro_token',
  options: { metadataFollowsSort?: boolean; urlFetchTimeoutMs?: number; addOn?: boolean } = {},
): Promise<GasRuntime> {
  const clock: ManualClock = createManualClock(await world.control.now());
  const runtime = commonRuntime(world.control.url, {
    sheets: { [SHEET]: rows },
    token,
    clock,
    limits: options.urlFetchTimeoutMs ? { urlFetchTimeoutMs: options.urlFetchTimeoutMs } : {},
    addOn: options.addOn,
    spreadsheetOptions: { metadataFollowsSort: options.metadataFollowsSort },
  });
  return closeAfterTest(runtime);
}

/** Advances the sandbox's and the runtime's clocks together. */
export async function advance(world: World, runtime: GasRuntime, ms: number): Promise<void> {
  await world.control.call('POST', '/_sandbox/clock/advance', { ms });
  (runtime.clock as ManualClock).advance(ms);
}

export function sheetId(runtime: GasRuntime): number {
  return runtime.spreadsheet.sheet(SHEET).sheetId;
}

export function launch(runtime: GasRuntime, request: LaunchRequest, rows: number[]): LaunchResponse {
  return runtime.run<LaunchResponse>('launchResearch', [{ ...request, sheetId: sheetId(runtime), rows }], {
    kind: 'sidebar',
  });
}

export function poll(runtime: GasRuntime): ResearchStatusDto {
  return runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' });
}

/** Runs the trigger handler as the trigger would. */
export function tick(runtime: GasRuntime, opts: { killAtServiceCall?: number } = {}): void {
  runtime.run('sheetScoutTimer', [], { kind: 'trigger', ...opts });
}

/** Advances time in steps and ticks until nothing is pending (or `maxRounds`). */
export async function runUntilSettled(
  world: World,
  runtime: GasRuntime,
  stepMs = 20000,
  maxRounds = 120,
): Promise<number> {
  for (let round = 0; round < maxRounds; round++) {
    await advance(world, runtime, stepMs);
    tick(runtime);
    if (poll(runtime).pending === 0) return round + 1;
  }
  throw new Error('research did not settle');
}

/** Values of a column by header (rows 2..n). */
export function column(runtime: GasRuntime, header: string): string[] {
  const values = runtime.spreadsheet.sheet(SHEET).getDisplayValues();
  const index = values[0].indexOf(header);
  if (index < 0) return [];
  return values.slice(1).map((row) => row[index]);
}

export function noteAt(runtime: GasRuntime, header: string, row: number): string {
  const sheet = runtime.spreadsheet.sheet(SHEET);
  const index = sheet.getDisplayValues()[0].indexOf(header);
  return sheet.getNotes()[row - 1]?.[index] ?? '';
}
