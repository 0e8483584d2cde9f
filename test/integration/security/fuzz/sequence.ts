// One money-fuzzer sequence (issue 45): a fresh sandbox (its money record empty) and a published add-on project with
// one spreadsheet of six companies and three editors, each signed in with their own account; the steps (actions.ts)
// applied through the built bundle's server functions, the timers and grid edits of the hidden sheets; what each
// account confirmed noted as it confirms it (the launches the panel accepted, the watches saved with their cost
// confirmed); then the world left to settle (timers hourly, every editor's panel) so invariants.ts can hold the end
// state against the sandbox's record.
import {
  createManualClock,
  createProject,
  SpreadsheetModel,
  type GasProject,
  type GasRuntime,
} from '../../../../dev/gas-runtime';
import type { ManualClock } from '../../../../dev/gas-runtime';
import type { SandboxControl } from '../../../../dev/sandbox/control-client';
import { webhookHostRoutes } from '../../../../dev/sandbox/webhooks/receiver';
import { SETTINGS_KEYS } from '../../../../src/shared/connection';
import type { LaunchResponse, ResearchStatusDto } from '../../../../src/research/contract';
import { BUNDLE, SHEET } from '../../research/harness';
import { watch } from '../../scheduler/fleet';
import { ACCOUNTS, COMPANIES, CONTACT_COMPANY, EDITORS, HIDDEN, HOSTILE, ROWS, TOKENS } from './actions';
import type { EditValue, Step } from './actions';

const HOUR = 3_600_000;
const SLACK = 'https://hooks.slack.com/services/T0FUZZ/B0FUZZ/fuzzSecret';

/** What an account confirmed: each (brief, depth, output kind) it may be charged for, how many times. */
export interface Confirmed {
  /** Launches the panel accepted: `brief|depth|report` -> times. */
  launched: Map<string, number>;
  /** Watches saved with their cost confirmed: the briefs of their rows, since when. */
  watched: Array<{ briefs: string[]; since: number }>;
}

export interface Sequence {
  control: SandboxControl;
  project: GasProject;
  doc: GasRuntime;
  clock: ManualClock;
  domains: string[];
  confirmed: Confirmed[];
  /** Raw exceptions and failed timer runs, as the step that met them. */
  failures: string[];
  snapshots: Map<string, unknown[][]>;
  startedAt: number;
  /** A fault the previous step set (cleared after the next step). */
  fault: boolean;
}

export const taskKey = (brief: string, depth: string, kind: 'report' | 'fields') => `${brief}|${depth}|${kind}`;

export async function newSequence(control: SandboxControl): Promise<Sequence> {
  await control.reset();
  for (const name of ['sandbox-pro', 'sandbox-pro-2', 'sandbox-rival'])
    await control.setAccount(name, { credits: 5_000 });
  const clock = createManualClock(await control.now());
  const project = createProject({
    bundlePath: BUNDLE,
    users: [...EDITORS],
    clock,
    addOn: true,
    quotas: 'consumer',
    hostRoutes: webhookHostRoutes(control.url),
  });
  EDITORS.forEach((user, i) => {
    project.properties.user(user).set(SETTINGS_KEYS.token, TOKENS[i]);
    project.properties.user(user).set(SETTINGS_KEYS.baseUrl, control.url);
  });
  // A contact list: rows repeat companies, so launches ask some questions for several rows at once (issue 46).
  const found = await control.companies(COMPANIES);
  const companies = Array.from({ length: ROWS }, (_, i) => found[CONTACT_COMPANY[i]]);
  const spreadsheet = new SpreadsheetModel({ id: 'fuzz-1', name: 'Fuzz', rows: 30, columns: 12, sheetNames: [SHEET] });
  spreadsheet
    .sheet(SHEET)
    .setValues(`A1:B${ROWS + 1}`, [
      ['Company', 'Domain'],
      ...companies.map((company) => [company.name, company.domain]),
    ]);
  const doc = project.addDocument({ spreadsheet });
  const confirmed = EDITORS.map(() => ({ launched: new Map<string, number>(), watched: [] }));
  const domains = companies.map((company) => company.domain);
  return {
    control,
    project,
    doc,
    clock,
    domains,
    confirmed,
    failures: [],
    snapshots: new Map(),
    startedAt: clock.now(),
    fault: false,
  };
}

/** Runs a server function as an editor; a raw exception is a failure of the sequence, never thrown further. */
function serve<T>(seq: Sequence, name: string, args: unknown[], user: string): T | null {
  try {
    return seq.doc.run<T>(name, args, { kind: 'sidebar', user });
  } catch (error) {
    seq.failures.push(`${name} as ${user}: ${String(error).slice(0, 300)}`);
    return null;
  }
}

/** Timer runs a passage of time gets at most: Google may run an hourly timer late or skip it, the add-in copes. */
const FIRES_PER_PASSAGE = 3;

/** Moves both clocks on by `ms`, the due timers fired a few times on the way (each once at most an hour). */
async function passTime(seq: Sequence, ms: number): Promise<void> {
  const stride = Math.max(HOUR, Math.ceil(ms / FIRES_PER_PASSAGE));
  for (let left = ms; left > 0; left -= stride) {
    const step = Math.min(stride, left);
    await seq.control.advanceClock(step);
    seq.clock.advance(step);
    for (const fired of seq.project.triggers.fireDue())
      if (!fired.ok) seq.failures.push(`timer of ${fired.documentId}: ${String(fired.error).slice(0, 300)}`);
  }
}

function launch(seq: Sequence, step: Extract<Step, { kind: 'launch' }>): void {
  const user = EDITORS[step.editor];
  const request = {
    template: 'Research {Domain}',
    depth: step.depth,
    output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
    sheetId: seq.doc.spreadsheet.sheet(SHEET).sheetId,
    rows: step.rows,
    ...(step.again ? { rerun: true, again: true, replacing: [...ACCOUNTS] } : {}),
  };
  const answer = serve<LaunchResponse>(seq, 'launchResearch', [request], user);
  if (!answer?.ok || answer.created + answer.queued === 0) return;
  // An accepted launch confirms each question its rows ask once, however many rows ask it (an upper bound: the rows
  // it skipped are counted too).
  const briefs = new Set(step.rows.map((row) => `Research ${seq.domains[row - 2]}`));
  for (const brief of briefs) {
    const key = taskKey(brief, step.depth, 'report');
    const launched = seq.confirmed[step.editor].launched;
    launched.set(key, (launched.get(key) ?? 0) + 1);
  }
}

/** The cells of a hidden sheet (header row first), or null when it does not exist. */
const grid = (seq: Sequence, sheet: number) => seq.doc.spreadsheet.getSheet(HIDDEN[sheet])?.getValues() ?? null;

function valueOf(seq: Sequence, value: EditValue): string | number {
  if (value.from === 'hostile') return HOSTILE[value.index];
  if (value.from === 'number') return value.value;
  if (value.from === 'blank') return '';
  const cells = grid(seq, value.sheet);
  if (!cells || cells.length === 0) return '';
  const row = cells[value.row % cells.length];
  return (row[value.column % row.length] ?? '') as string | number;
}

/** The JSON a hidden sheet's row keeps after its seal and index cells (one part here), with its cell's column. */
function jsonOf(row: unknown[]): { at: number; value: unknown } | null {
  const at = row.findIndex((cell) => typeof cell === 'string' && /^~[[{]/.test(cell));
  if (at < 0) return null;
  try {
    return { at, value: JSON.parse(String(row[at]).slice(1)) };
  } catch {
    return null;
  }
}

/** A record of a JSON cell: the object itself, or a watch of a list of watches. */
const recordIn = (value: unknown, pick: number): Record<string, unknown> | null => {
  const list = Array.isArray(value) ? value : [value];
  const found = list[pick % Math.max(1, list.length)];
  return found && typeof found === 'object' ? (found as Record<string, unknown>) : null;
};

/** One field of a record's JSON set to that field of another record (any row), or to hostile text; the seal kept. */
function editField(seq: Sequence, step: Extract<Step, { kind: 'editField' }>): void {
  const sheet = seq.doc.spreadsheet.getSheet(HIDDEN[step.sheet]);
  const cells = grid(seq, step.sheet);
  if (!sheet || !cells || cells.length < 2) return;
  const at = 1 + (step.row % (cells.length - 1));
  const target = jsonOf(cells[at]);
  const record = target && recordIn(target.value, step.from);
  if (!target || !record) return;
  const source = jsonOf(cells[1 + (step.from % (cells.length - 1))]);
  const donor = source && recordIn(source.value, step.row);
  record[step.field] = step.hostile !== null ? HOSTILE[step.hostile] : (donor?.[step.field] ?? null);
  sheet.setValues(`${String.fromCharCode(65 + target.at)}${at + 1}`, [[`~${JSON.stringify(target.value)}`]]);
}

/** Grid edits of a hidden sheet, as any editor may make them (nothing happens when the sheet does not exist yet). */
function editHidden(seq: Sequence, step: Step): void {
  if (!('sheet' in step)) return;
  const sheet = seq.doc.spreadsheet.getSheet(HIDDEN[step.sheet]);
  const cells = grid(seq, step.sheet);
  if (!sheet || !cells) {
    if (step.kind === 'restore' && seq.snapshots.has(HIDDEN[step.sheet])) restore(seq, step.sheet);
    return;
  }
  const rows = cells.length;
  const width = cells[0]?.length ?? 1;
  const column = (n: number) => String.fromCharCode(65 + (n % width));
  if (step.kind === 'edit')
    sheet.setValues(`${column(step.column)}${1 + (step.row % rows)}`, [[valueOf(seq, step.value)]]);
  else if (step.kind === 'copyRow' && rows > 1) {
    const from = cells[1 + (step.from % (rows - 1))];
    const to = 2 + (step.to % rows);
    if (to > sheet.maxRows) sheet.insertRows(sheet.maxRows + 1, to - sheet.maxRows);
    sheet.setValues(`A${to}:${column(width - 1)}${to}`, [from as Array<string | number>]);
  } else if (step.kind === 'deleteRow' && rows > 1) sheet.deleteRows(2 + (step.row % (rows - 1)), 1);
  else if (step.kind === 'snapshot')
    seq.snapshots.set(
      HIDDEN[step.sheet],
      cells.map((row) => [...row]),
    );
  else if (step.kind === 'restore' && seq.snapshots.has(HIDDEN[step.sheet])) restore(seq, step.sheet);
}

/** Puts an older copy of a hidden sheet back whole (the sheet made again when it was deleted). */
function restore(seq: Sequence, index: number): void {
  const name = HIDDEN[index];
  const saved = seq.snapshots.get(name) as unknown[][];
  const existing = seq.doc.spreadsheet.getSheet(name);
  if (existing) seq.doc.spreadsheet.deleteSheet(existing);
  const sheet = seq.doc.spreadsheet.insertSheet(name);
  if (saved.length === 0 || saved[0].length === 0) return;
  if (sheet.maxRows < saved.length) sheet.insertRows(sheet.maxRows + 1, saved.length - sheet.maxRows);
  const end = String.fromCharCode(64 + Math.min(26, saved[0].length));
  sheet.setValues(`A1:${end}${saved.length}`, saved.map((row) => row.slice(0, 26)) as Array<Array<string | number>>);
  sheet.hidden = true;
}

/** Applies one step; a fault the previous step set is cleared after it. */
export async function apply(seq: Sequence, step: Step): Promise<void> {
  const faulted = seq.fault;
  await act(seq, step);
  if (faulted && step.kind !== 'fault') {
    await seq.control.clearFaults();
    seq.fault = false;
  }
}

async function act(seq: Sequence, step: Step): Promise<void> {
  const user = 'editor' in step ? EDITORS[step.editor] : EDITORS[0];
  switch (step.kind) {
    case 'launch':
      return launch(seq, step);
    case 'cap':
      serve(seq, 'setSpendingGuard', [{ daily: step.daily, monthly: null }], user);
      return;
    case 'watch': {
      const weekday = new Date(seq.clock.now() + 24 * HOUR).getUTCDay();
      let answer: ReturnType<typeof watch> | null = null;
      try {
        answer = watch(seq.doc, step.rows, weekday, { user });
      } catch (error) {
        seq.failures.push(`saveResearchWatch as ${user}: ${String(error).slice(0, 300)}`);
      }
      if (answer?.ok && answer.watch)
        seq.confirmed[step.editor].watched.push({
          briefs: seq.domains.slice(0, step.rows).map((domain) => `Research ${domain}`),
          since: seq.clock.now(),
        });
      return;
    }
    case 'digest':
      serve(seq, 'setDigest', [{ webhookUrl: SLACK, cadence: 'run', weekday: 1 }], user);
      return;
    case 'panel':
      return panel(seq, user);
    case 'time':
      return passTime(seq, step.hours * HOUR);
    case 'fault':
      await seq.control.setFault(
        step.mode === '503'
          ? { route: 'tasks.create', errorRate: 1, errorStatus: 503 }
          : { route: 'tasks.create', dropAfterServeRate: 1 },
      );
      seq.fault = true;
      return;
    case 'zone':
      seq.doc.spreadsheet.timeZone = step.zone;
      return;
    case 'editField':
      return editField(seq, step);
    default:
      return editHidden(seq, step);
  }
}

/** An editor's Research panel: its poll, and its tick when one is due. */
function panel(seq: Sequence, user: string): void {
  const polled = serve<ResearchStatusDto>(seq, 'pollResearch', [], user);
  if (polled?.tickDue) serve<ResearchStatusDto>(seq, 'tickResearch', [], user);
}

/**
 * Leaves the world to settle: faults cleared, then a day of timers (every few hours) with each editor's panel opened
 * between them (a panel ticks for its own account: creates only its payer may send, tasks only it may read).
 */
export async function settle(seq: Sequence): Promise<void> {
  await seq.control.clearFaults();
  for (let round = 0; round < 6; round++) {
    await passTime(seq, 4 * HOUR);
    EDITORS.forEach((user) => panel(seq, user));
  }
}

/** Every editor's panel as it reads now (for the invariants: what each payer is told). */
export function panels(seq: Sequence): Array<ResearchStatusDto | null> {
  return EDITORS.map((user) => serve<ResearchStatusDto>(seq, 'pollResearch', [], user));
}
