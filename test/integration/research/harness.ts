// Shared by the research integration tests and benchmark, on top of the common harness (test/integration/harness.ts,
// whose sandbox they start on a manual clock): a runtime whose clock follows the sandbox's with a sheet of companies
// (for one editor, or for two each with their own Sheet Scout account), helpers that act like the Research panel (launch, poll) and the trigger (tick), advancing both clocks together, and
// readings of the sandbox's money oracle (what a token's research reserved, charged and refunded) to check figures by.
import {
  createManualClock,
  type Behaviours,
  type GasRuntime,
  type ManualClock,
  type RunOptions,
} from '../../../dev/gas-runtime';
import type { CreditMovements } from '../../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { LaunchResponse, ResearchStatusDto, WatchRequest } from '../../../src/research/contract';
import type { OutputRequest } from '../../../src/research/launch/launch-request';
import type { LaunchRowsRequest } from '../../../src/research/launch/launch-service';
import { closeAfterTest, runtimeFor as commonRuntime, USER, BUNDLE, type SandboxStack } from '../harness';

export { USER, BUNDLE };
export const SHEET = 'Accounts';

/** The usual report output: status, report and sources columns by those headers. */
export const REPORT_OUTPUT: Extract<OutputRequest, { kind: 'report' }> = {
  kind: 'report',
  statusHeader: 'Status',
  reportHeader: 'Report',
  sourcesHeader: 'Sources',
};

/** A started sandbox, alone (startSandbox) or a test file's (sandboxSuite). */
type World = Pick<SandboxStack, 'control'>;

interface RuntimeOptions {
  metadataFollowsSort?: boolean;
  urlFetchTimeoutMs?: number;
  addOn?: boolean;
  behaviours?: Partial<Behaviours>;
  /** Other editors of the spreadsheet (each with their own properties, caches and triggers). */
  users?: string[];
}

/** A runtime with one sheet of `rows` (row 1 = headers), the token set for USER, and a clock at the sandbox's time. */
export async function runtimeFor(
  world: World,
  rows: Array<Array<string | number>>,
  token = 'sbx_pro_token',
  options: RuntimeOptions = {},
): Promise<GasRuntime> {
  const clock: ManualClock = createManualClock(await world.control.now());
  const runtime = commonRuntime(world.control.url, {
    sheets: { [SHEET]: rows },
    token,
    clock,
    limits: options.urlFetchTimeoutMs ? { urlFetchTimeoutMs: options.urlFetchTimeoutMs } : {},
    addOn: options.addOn,
    behaviours: options.behaviours,
    users: options.users,
    spreadsheetOptions: { metadataFollowsSort: options.metadataFollowsSort },
  });
  return closeAfterTest(runtime);
}

/** runtimeFor with a sheet of the sandbox's first `count` companies (headers Company and Domain). */
export async function companiesRuntime(
  world: World,
  count: number,
  token?: string,
  options?: RuntimeOptions,
): Promise<GasRuntime> {
  const companies = await world.control.companies(count);
  return runtimeFor(world, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])], token, options);
}

/** The spreadsheet's second editor in the two-editor tests (USER, the first, holds the pro token). */
export const EDITOR = 'ben@example.com';

/** companiesRuntime's sheet with two editors: USER on the pro token, EDITOR signed in with `editorToken`. */
export async function twoEditorsRuntime(
  world: World,
  count: number,
  editorToken: string,
  addOn: boolean,
): Promise<GasRuntime> {
  const runtime = await companiesRuntime(world, count, 'sbx_pro_token', { addOn, users: [EDITOR] });
  runtime.properties.user(EDITOR).set(SETTINGS_KEYS.token, editorToken);
  runtime.properties.user(EDITOR).set(SETTINGS_KEYS.baseUrl, world.control.url);
  return runtime;
}

/** Advances the sandbox's and the runtime's clocks together. */
export async function advance(world: World, runtime: GasRuntime, ms: number): Promise<void> {
  await world.control.advanceClock(ms);
  (runtime.clock as ManualClock).advance(ms);
}

export function sheetId(runtime: GasRuntime): number {
  return runtime.spreadsheet.sheet(SHEET).sheetId;
}

/**
 * A weekly account watch (Wednesdays, `Research {Domain}`, medium depth) of the sheet's first `rows` data rows, as the
 * panel sends it; `confirmed`: the credits a run the user confirmed (null to be asked).
 */
export function weeklyWatch(
  runtime: GasRuntime,
  rows: number,
  output: OutputRequest,
  confirmed: number | null,
): WatchRequest {
  return {
    sheetId: sheetId(runtime),
    rows: Array.from({ length: rows }, (_, i) => i + 2),
    template: 'Research {Domain}',
    depth: 'medium',
    output,
    cadence: 'weekly',
    weekday: 3,
    confirmedCreditsPerRun: confirmed,
  };
}

/** The panel's launch of `rows` of the sheet (the request as the panel sends it, less the sheet and rows). */
export function launch(
  runtime: GasRuntime,
  request: Omit<LaunchRowsRequest, 'sheetId' | 'rows'>,
  rows: number[],
): LaunchResponse {
  return runtime.run<LaunchResponse>('launchResearch', [{ ...request, sheetId: sheetId(runtime), rows }], {
    kind: 'sidebar',
  });
}

/** The panel's poll cycle: pollResearch, then tickResearch when the poll says a tick is due (its answer returned). */
export function poll(runtime: GasRuntime, options: Omit<RunOptions, 'kind'> = {}): ResearchStatusDto {
  const polled = runtime.run<ResearchStatusDto>('pollResearch', [], { ...options, kind: 'sidebar' });
  return polled.tickDue ? runtime.run<ResearchStatusDto>('tickResearch', [], { ...options, kind: 'sidebar' }) : polled;
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

/** The money oracle's totals for the token over every day so far: what its research reserved, charged and refunded. */
export async function oracleTotals(world: World, token = 'sbx_pro_token'): Promise<CreditMovements> {
  const totals: CreditMovements = { reserved: 0, charged: 0, refunded: 0 };
  for (const day of (await world.control.ledger(token)).days) {
    totals.reserved += day.reserved;
    totals.charged += day.charged;
    totals.refunded += day.refunded;
  }
  return totals;
}

/** The money oracle's credits charged per task id (over every day) for the token's research. */
export async function oracleCharges(world: World, token = 'sbx_pro_token'): Promise<Map<string, number>> {
  const charged = new Map<string, number>();
  for (const day of (await world.control.ledger(token)).days)
    for (const task of day.tasks) charged.set(task.id, (charged.get(task.id) ?? 0) + task.charged);
  return charged;
}

/**
 * Each row's "Done (N credits)" Status cell beside what the oracle charged for the row's latest task (the poll lists
 * the newest first): `shown` null when the cell says something else.
 */
export async function doneFiguresAndCharges(
  world: World,
  runtime: GasRuntime,
  token = 'sbx_pro_token',
): Promise<Array<{ row: number; shown: number | null; charged: number | undefined }>> {
  const charged = await oracleCharges(world, token);
  const statuses = column(runtime, 'Status');
  const seen = new Set<number>();
  return poll(runtime).rows.flatMap((entry) => {
    if (entry.row === null || entry.taskId === null || seen.has(entry.row)) return [];
    seen.add(entry.row);
    const shown = /^Done \((\d+) credits?(?:, shared by \d+ rows)?\)$/.exec(statuses[entry.row - 2] ?? '');
    return [{ row: entry.row, shown: shown ? Number(shown[1]) : null, charged: charged.get(entry.taskId) }];
  });
}
