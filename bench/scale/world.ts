// The scale benchmark's world and the steps its days share: one published add-on project on consumer quotas, one
// user, the sandbox on a manual clock moved together with the emulator's, documents made from rows, research
// launches as the panel sends them, and reading a sheet's status column.
import { SpreadsheetModel, type GasProject, type GasRuntime, type ManualClock } from '../../dev/gas-runtime';
import type { SandboxControl } from '../../dev/sandbox/control-client';
import type { LaunchResponse } from '../../src/research/contract';
import { columnLetter } from '../../src/shared/a1';

export const USER = 'ana@example.com';
export const TOKEN = 'sbx_pro_token';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const SHEET = 'Accounts';
/** A row whose research has ended (its result or its failure written). */
export const FINAL = /^(Done|Failed)/;

export interface World {
  control: SandboxControl;
  clock: ManualClock;
  project: GasProject;
}

/** Moves the sandbox's and the emulator's clocks together. */
export async function advance(world: World, ms: number): Promise<void> {
  await world.control.advanceClock(ms);
  world.clock.advance(ms);
}

export function documentWith(world: World, id: string, sheet: string, rows: Array<Array<string | number>>): GasRuntime {
  const spreadsheet = new SpreadsheetModel({ id, rows: rows.length + 100, columns: 26, sheetNames: [sheet] });
  const width = Math.max(...rows.map((row) => row.length));
  const padded = rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  spreadsheet.sheet(sheet).setValues(`A1:${columnLetter(width)}${rows.length}`, padded);
  return world.project.addDocument({ spreadsheet });
}

/** A document whose sheet lists domains under a "Domain" header. */
export function domainsDocument(world: World, id: string, domains: string[]): GasRuntime {
  return documentWith(world, id, SHEET, [['Domain'], ...domains.map((domain) => [domain])]);
}

/** Requests the project sent so far (all documents). */
export const sent = (world: World) => world.project.counters.urlFetch.total;

export function statusColumn(doc: GasRuntime, sheet = SHEET): string[] {
  const values = doc.spreadsheet.sheet(sheet).getDisplayValues();
  const at = values[0].indexOf('Status');
  return at < 0 ? [] : values.slice(1).map((row) => row[at]);
}

/** Rows of the sheet with research that has not ended. */
export const pendingRows = (doc: GasRuntime) =>
  statusColumn(doc).filter((status) => status !== '' && !FINAL.test(status)).length;

/** Launches research on `rows` as the panel does (report output, `template` the brief); the answer, refused or not. */
export function launchRows(doc: GasRuntime, rows: number[], template = 'Research {Domain}'): LaunchResponse {
  const sheetId = doc.spreadsheet.sheet(SHEET).sheetId;
  const output = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' };
  return doc.run<LaunchResponse>('launchResearch', [{ template, depth: 'medium', output, sheetId, rows }], {
    kind: 'sidebar',
  });
}

/** Launches research on `rows`; throws when refused. */
export function launch(doc: GasRuntime, rows: number[]): LaunchResponse {
  const response = launchRows(doc, rows);
  if (!response.ok) throw new Error(`launch refused: ${response.message}`);
  return response;
}

/** Rows 2..count + 1. */
export const dataRows = (count: number) => Array.from({ length: count }, (_, i) => i + 2);

export function timerOf(world: World, doc: GasRuntime): boolean {
  return world.project.triggers
    .list()
    .some((trigger) => trigger.handler === 'sheetScoutTimer' && trigger.documentId === doc.spreadsheet.id);
}

/** Fires the due timers of every document; throws when one fails. */
export function fireTimers(world: World): void {
  for (const result of world.project.triggers.fireDue())
    if (!result.ok) throw new Error(`timer failed: ${result.error}`);
}
