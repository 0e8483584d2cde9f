// The scale benchmark's reuse on request (issue 46): in the contact list's spreadsheet, once its 5,000 questions are
// researched (contacts.ts), a new sheet of 2,300 contacts: 2,000 of 1,000 companies researched there (two contacts
// each) and 300 of companies not researched there (the sandbox's companies after the list's 5,000). The panel's count offers the earlier results of the last 30 days,
// the launch uses them (the user's answer), and the hourly timer alone collects the rest. Printed: the rows, the rows
// given earlier results, what the sandbox's money record reserved and charged for tasks of the reused questions
// created since the launch (held to 0), the tasks paid (one per new question) and what they reserved, the reused rows
// Settings > Spending lists, and the modelled time of the count and of the launch.
import type { GasRuntime } from '../../dev/gas-runtime';
import type { SandboxControl, SeededCompany } from '../../dev/sandbox/control-client';
import type { ResearchTask } from '../../src/api/types';
import type { LaunchResponse, QuestionCountDto } from '../../src/research/contract';
import type { SpendingHistoryDto } from '../../src/spending-history/contract';
import { markModelled, modelledSince } from '../_modelled';
import { advance, fireTimers, statusColumn, HOUR, TOKEN, type World } from './world';

/** Companies of the contact list given new contacts (two each), and new companies (one contact each). */
const REUSE_KNOWN = 1_000;
const REUSE_NEW = 300;
const NEW_SHEET = 'New contacts';
const TEMPLATE = 'Research {Domain}';
const OUTPUT = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' } as const;
/** A row whose research has ended: its result (paid or reused) or its failure written. */
const ENDED = /^(Done|Failed|Reused)/;

export interface ReuseFigures {
  rows: number;
  /** Rows the count offered, and the questions they ask. */
  offeredRows: number;
  offeredQuestions: number;
  /** Rows whose status says they were given an earlier result. */
  reused: number;
  /** Questions not bought before; the tasks the service created since the launch, those of a reused question, and
   * what the latter moved. */
  newQuestions: number;
  tasks: number;
  tasksForReused: number;
  creditsForReused: number;
  /** What the money record reserved since the launch, and the reused rows Settings > Spending lists for it. */
  creditsReserved: number;
  historyReused: number;
  countModelledS: number;
  launchModelledS: number;
  hours: number;
}

type TasksSince = (control: SandboxControl, since: number) => Promise<ResearchTask[]>;

/** The new sheet's contacts: two for each known company, then one for each new company. */
function newContacts(doc: GasRuntime, known: string[], fresh: string[]): number {
  const domains = [...known, ...known, ...fresh];
  const sheet = doc.spreadsheet.insertSheet(NEW_SHEET, undefined, { rows: domains.length + 100, columns: 26 });
  sheet.setValues(`A1:B${domains.length + 1}`, [
    ['Contact', 'Domain'],
    ...domains.map((domain, i) => [`New contact ${i + 1}`, domain]),
  ]);
  return sheet.sheetId;
}

/** The money record's reservations and charges per task id (every day). */
async function movedByTask(control: SandboxControl): Promise<Map<string, number>> {
  const moved = new Map<string, number>();
  for (const day of (await control.ledger(TOKEN)).days)
    for (const task of day.tasks) moved.set(task.id, (moved.get(task.id) ?? 0) + task.reserved + task.charged);
  return moved;
}

export async function reuseAtScale(
  world: World,
  doc: GasRuntime,
  known: string[],
  tasksSince: TasksSince,
): Promise<ReuseFigures> {
  const { control } = world;
  // The sandbox's companies after its first 5,000 (the list's), enriched by now or not.
  const researched = new Set(known);
  const after = await control.call<SeededCompany[]>('GET', `/_sandbox/companies?limit=${REUSE_NEW}&offset=5000`);
  const fresh = after.map((company) => company.domain).filter((domain) => !researched.has(domain));
  const sheetId = newContacts(doc, known.slice(0, REUSE_KNOWN), fresh);
  const rows = Array.from({ length: 2 * REUSE_KNOWN + fresh.length }, (_, i) => i + 2);
  const request = { sheetId, rows, template: TEMPLATE, depth: 'medium', output: OUTPUT };
  const counted = markModelled(world.project.counters);
  const count = doc.run<QuestionCountDto>('countResearchQuestions', [{ ...request, days: 30 }], { kind: 'sidebar' });
  const countModelled = modelledSince(world.project.counters, counted);
  if (!count?.reusable) throw new Error('reuse: the count made no offer');
  const reserved = async () => (await control.ledger(TOKEN)).days.reduce((sum, day) => sum + day.reserved, 0);
  const reservedBefore = await reserved();
  const since = await control.now();
  const launched = markModelled(world.project.counters);
  const reuse = { days: 30, use: true, tasks: count.questions - count.reusable.questions };
  const answer = doc.run<LaunchResponse>('launchResearch', [{ ...request, reuse }], { kind: 'sidebar' });
  const launchModelled = modelledSince(world.project.counters, launched);
  if (!answer.ok) throw new Error(`reuse launch refused: ${answer.message}`);
  let hours = 0;
  for (; hours < 48 && statusColumn(doc, NEW_SHEET).some((status) => !ENDED.test(status)); hours++) {
    await advance(world, HOUR);
    fireTimers(world);
  }
  const tasks = await tasksSince(control, since);
  const reusedBriefs = new Set(known.slice(0, REUSE_KNOWN).map((domain) => `Research ${domain}`));
  const forReused = tasks.filter((task) => reusedBriefs.has(task.brief));
  const moved = await movedByTask(control);
  const history = doc.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' });
  const figures: ReuseFigures = {
    rows: rows.length,
    offeredRows: count.reusable.rows,
    offeredQuestions: count.reusable.questions,
    newQuestions: fresh.length,
    reused: statusColumn(doc, NEW_SHEET).filter((status) => /^Reused \(researched /.test(status)).length,
    tasks: tasks.length,
    tasksForReused: forReused.length,
    creditsForReused: forReused.reduce((sum, task) => sum + (moved.get(task.id) ?? 0), 0),
    creditsReserved: (await reserved()) - reservedBefore,
    historyReused: history.runs.find((run) => run.sheetName === NEW_SHEET)?.reused ?? 0,
    countModelledS: countModelled.ms / 1000,
    launchModelledS: launchModelled.ms / 1000,
    hours,
  };
  console.log(
    `reuse: ${figures.rows} new contacts, ${figures.offeredRows} offered earlier results (${figures.offeredQuestions} ` +
      `questions); launch: ${answer.message}; ${figures.tasks} tasks paid, ${figures.creditsReserved} credits reserved, ` +
      `count ${figures.countModelledS.toFixed(2)} s and launch ${figures.launchModelledS.toFixed(2)} s modelled`,
  );
  return figures;
}
