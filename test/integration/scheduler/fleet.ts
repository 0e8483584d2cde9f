// A user who keeps many spreadsheets current, for the scheduler's integration tests: one published add-on project on
// consumer quotas, one user, the sandbox on a manual clock moved together with the emulator's, and spreadsheets of a
// few companies each, enriched through the Enrich panel's calls so that a refresh schedule may be set on them; and
// the steps the tests share (a schedule, a watch, hours of hourly timers with every panel closed).
import {
  createManualClock,
  createProject,
  SpreadsheetModel,
  type Behaviours,
  type GasProject,
  type GasRuntime,
  type ManualClock,
} from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { EnrichProgress, RefreshScheduleAnswer, StartResult } from '../../../src/enrichment/contract';
import type { OutputRequest, WatchAnswer } from '../../../src/research/contract';
import type { SandboxStack } from '../harness';
import { webhookHostRoutes } from '../../../dev/sandbox/webhooks/receiver';
import { BUNDLE, SHEET, USER } from '../research/harness';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const TOKEN = 'sbx_pro_token';

export interface Fleet {
  project: GasProject;
  clock: ManualClock;
  docs: GasRuntime[];
  /** The companies of each document, by document. */
  domains: string[][];
}

type World = Pick<SandboxStack, 'control'>;

/** `count` spreadsheets named "Accounts 1"... of `rows` companies each, every one enriched (name, employees). */
export async function fleet(
  world: World,
  count: number,
  options: { rows?: number; behaviours?: Partial<Behaviours>; users?: string[] } = {},
): Promise<Fleet> {
  const rows = options.rows ?? 3;
  const clock = createManualClock(await world.control.now());
  const project = createProject({
    bundlePath: BUNDLE,
    users: [USER, ...(options.users ?? [])],
    clock,
    addOn: true,
    quotas: 'consumer',
    behaviours: options.behaviours,
    // A digest's webhook posts reach the sandbox's Slack and Google Chat stand-ins.
    hostRoutes: webhookHostRoutes(world.control.url),
  });
  project.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
  project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, world.control.url);
  const companies = await world.control.companies(count * rows, true);
  const docs: GasRuntime[] = [];
  const domains: string[][] = [];
  for (let i = 0; i < count; i++) {
    const mine = companies.slice(i * rows, (i + 1) * rows);
    const spreadsheet = new SpreadsheetModel({
      id: `kept-${i + 1}`,
      name: `Accounts ${i + 1}`,
      rows: 50,
      columns: 26,
      sheetNames: [SHEET],
    });
    spreadsheet
      .sheet(SHEET)
      .setValues(`A1:B${rows + 1}`, [['Company', 'Domain'], ...mine.map((company) => [company.name, company.domain])]);
    spreadsheet.selection = { sheet: spreadsheet.sheet(SHEET), rect: { row: 1, column: 2, numRows: 1, numColumns: 1 } };
    const doc = project.addDocument({ spreadsheet });
    enrich(doc);
    docs.push(doc);
    domains.push(mine.map((company) => company.domain));
  }
  return { project, clock, docs, domains };
}

/** Enriches the document's active sheet (name, employees) through the Enrich panel's calls, to the end. */
export function enrich(doc: GasRuntime): void {
  const started = doc.run<StartResult>('startEnrichment', [{ fields: ['company_name', 'employee_count'] }], {
    kind: 'sidebar',
  });
  if (!started.ok) throw new Error(`enrichment did not start: ${started.message}`);
  let progress: EnrichProgress = started.progress;
  for (let step = 0; step < 200 && progress.status === 'running'; step++)
    progress = doc.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
  if (progress.status !== 'done') throw new Error(`enrichment ended ${progress.status}`);
}

/** The Enrich panel's "Save schedule": weekly on `weekday` (0 = Sunday) after `hour`, data older than `days`. */
export function schedule(doc: GasRuntime, weekday: number, hour: number, days = 0): RefreshScheduleAnswer {
  return doc.run<RefreshScheduleAnswer>('setRefreshSchedule', [{ cadence: 'weekly', weekday, hour, days }], {
    kind: 'sidebar',
  });
}

export const WATCH_OUTPUT: OutputRequest = {
  kind: 'fields',
  statusHeader: 'Status',
  fields: [{ name: 'employee_count', type: 'string', required: true, evidence: false }],
  schemaText: '',
  columns: {},
};

/** What a watch differs in: its sheet, the editor saving it, its brief and output (defaults: the fleet's). */
export interface WatchOptions {
  sheet?: string;
  user?: string;
  template?: string;
  output?: OutputRequest;
}

/** The Research panel's weekly watch of rows 2..rows + 1, its cost confirmed as asked: the answer. */
export function watch(doc: GasRuntime, rows: number, weekday: number, options: WatchOptions = {}): WatchAnswer {
  const request = {
    sheetId: doc.spreadsheet.sheet(options.sheet ?? SHEET).sheetId,
    rows: Array.from({ length: rows }, (_, i) => i + 2),
    template: options.template ?? 'Research {Domain}',
    depth: 'medium',
    output: options.output ?? WATCH_OUTPUT,
    cadence: 'weekly',
    weekday,
  };
  const save = (confirmed: number | null) =>
    doc.run<WatchAnswer>('saveResearchWatch', [{ ...request, confirmedCreditsPerRun: confirmed }], {
      kind: 'sidebar',
      user: options.user,
    });
  const asked = save(null);
  return asked.confirm ? save(asked.confirm.creditsPerRun) : asked;
}

/** Moves both clocks an hour at a time for `hours` hours, firing every due timer as Google would; throws on a failed run. */
export async function hoursPass(world: World, fleet: Fleet, hours: number, each?: () => void): Promise<void> {
  for (let hour = 0; hour < hours; hour++) {
    await world.control.advanceClock(HOUR);
    fleet.clock.advance(HOUR);
    for (const result of fleet.project.triggers.fireDue())
      if (!result.ok) throw new Error(`timer of ${result.documentId} failed: ${result.error}`);
    each?.();
  }
}

/** The user's timers (time-driven triggers), by the spreadsheet they serve. */
export function timerDocuments(fleet: Fleet): string[] {
  return fleet.project.triggers
    .list()
    .filter((trigger) => trigger.handler === 'sheetScoutTimer')
    .map((trigger) => trigger.documentId);
}
