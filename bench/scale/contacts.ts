// The scale benchmark's contact lists (issue 46): a project of its own, one user, the sandbox shared with the other
// parts. `contacts`: 10,000 contact rows over 5,000 companies launched at once with the brief `Research {Domain}`,
// then the hourly timer alone until every row has its result: the tasks the sandbox created (one per distinct
// question), the briefs it was asked more than once (paid twice), the rows written, what the sandbox's money record
// reserved, and the document's properties at their peak. `per_row`: the same list with a brief that names the
// contact, so each row asks its own question (10,000 tasks over 5,000 companies), launched at once; the user sorts
// the sheet by company right after (every task still running), then the hourly timer alone until every row has its
// result: the tasks, the rows written, and those whose report is another row's (its brief, quoted at the report's
// top, names another contact or company).
// `reuse` (reuse.ts): new contacts in the researched spreadsheet given its earlier results on request.
import { createManualClock, createProject, type GasRuntime } from '../../dev/gas-runtime';
import type { SandboxControl } from '../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import type { ResearchTask } from '../../src/api/types';
import { BUNDLE } from '../../test/integration/harness';
import { reuseAtScale, type ReuseFigures } from './reuse';
import {
  advance,
  documentWith,
  fireTimers,
  launchRows,
  statusColumn,
  FINAL,
  HOUR,
  SHEET,
  TOKEN,
  USER,
  type World,
} from './world';

export const CONTACT_ROWS = 10_000;
export const CONTACT_COMPANIES = 5_000;

export interface ContactFigures {
  rows: number;
  distinct: number;
  tasks: number;
  rowsWritten: number;
  paidTwice: number;
  creditsReserved: number;
  propertiesKbPeak: number;
  hours: number;
  perRow: {
    rows: number;
    keys: number;
    tasks: number;
    rowsWritten: number;
    misplacedAfterSort: number;
    propertiesKbPeak: number;
    refusal: string;
  };
  reuse: ReuseFigures;
}

/** The account's research tasks created since `since` (the public list, newest first, paged). */
export async function tasksSince(control: SandboxControl, since: number): Promise<ResearchTask[]> {
  const found: ResearchTask[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await control.call<ResearchTask[]>(
      'GET',
      `/v1/deep_research_tasks?offset=${offset}&limit=100`,
      undefined,
      TOKEN,
    );
    const recent = page.filter((task) => Date.parse(task.created_at) >= since);
    found.push(...recent);
    if (page.length < 100 || recent.length < page.length) return found;
  }
}

/** A sheet of contacts: the n-th row's company is the (n mod 5,000)-th. */
function contactDocument(world: World, id: string, domains: string[]): GasRuntime {
  const contacts = Array.from({ length: CONTACT_ROWS }, (_, i) => [`Contact ${i + 1}`, domains[i % CONTACT_COMPANIES]]);
  return documentWith(world, id, SHEET, [['Contact', 'Domain'], ...contacts]);
}

const everyRow = Array.from({ length: CONTACT_ROWS }, (_, i) => i + 2);
const PER_ROW_BRIEF = 'Research {Domain} for {Contact}';

/** Rows whose report is another row's: written, and the brief its report quotes is not the row's own. */
function misplacedReports(doc: GasRuntime): number {
  const [header, ...rows] = doc.spreadsheet.sheet(SHEET).getDisplayValues();
  const [contact, domain, status, report] = ['Contact', 'Domain', 'Status', 'Report'].map((name) =>
    header.indexOf(name),
  );
  return rows.filter(
    (row) => /^Done/.test(row[status]) && !row[report].includes(`Brief: Research ${row[domain]} for ${row[contact]}`),
  ).length;
}

/** The hourly timer alone until every row's research has ended (72 hours at most); the hours and the peak. */
async function timerUntilWritten(world: World, doc: GasRuntime): Promise<{ hours: number; propertiesPeak: number }> {
  let propertiesPeak = doc.properties.document.size();
  let hours = 0;
  for (; hours < 72 && statusColumn(doc).some((status) => !FINAL.test(status)); hours++) {
    await advance(world, HOUR);
    fireTimers(world);
    propertiesPeak = Math.max(propertiesPeak, doc.properties.document.size());
  }
  return { hours, propertiesPeak };
}

export async function contactLists(control: SandboxControl, companies: string[]): Promise<ContactFigures> {
  const domains = companies.slice(0, CONTACT_COMPANIES);
  const clock = createManualClock(await control.now());
  const project = createProject({ bundlePath: BUNDLE, users: [USER], clock, addOn: true, quotas: 'consumer' });
  project.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
  project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, control.url);
  const world: World = { control, clock, project };
  const reserved = async () => (await control.ledger(TOKEN)).days.reduce((sum, day) => sum + day.reserved, 0);

  // contacts: one launch, then the hourly timer alone.
  const doc = contactDocument(world, 'contacts', domains);
  const since = await control.now();
  const reservedBefore = await reserved();
  const answer = launchRows(doc, everyRow);
  if (!answer.ok) throw new Error(`contacts launch refused: ${answer.message}`);
  const { hours, propertiesPeak } = await timerUntilWritten(world, doc);
  const tasks = await tasksSince(control, since);
  const asked = new Map<string, number>();
  for (const task of tasks) asked.set(task.brief, (asked.get(task.brief) ?? 0) + 1);
  const paidTwice = [...asked.values()].reduce((sum, count) => sum + count - 1, 0);
  const creditsReserved = (await reserved()) - reservedBefore;
  const rowsWritten = statusColumn(doc).filter((status) => /^Done/.test(status)).length;
  // reuse: new contacts in the same spreadsheet, given its earlier results on request.
  const reuse = await reuseAtScale(world, doc, domains, tasksSince);

  // per_row: each row its own question; the sheet sorted by company (descending) while every task runs.
  const perRowDoc = contactDocument(world, 'contacts-per-row', domains);
  const perRowSince = await control.now();
  const perRow = launchRows(perRowDoc, everyRow, PER_ROW_BRIEF);
  let perRowRun = { hours: 0, propertiesPeak: perRowDoc.properties.document.size() };
  if (perRow.ok) {
    const sheet = perRowDoc.spreadsheet.sheet(SHEET);
    sheet.sortRows({ row: 2, column: 1, numRows: CONTACT_ROWS, numColumns: sheet.lastColumn() }, [
      { column: 2, ascending: false },
    ]);
    perRowRun = await timerUntilWritten(world, perRowDoc);
  }
  const perRowTasks = perRow.ok ? (await tasksSince(control, perRowSince)).length : 0;
  const perRowWritten = statusColumn(perRowDoc).filter((status) => /^Done/.test(status)).length;
  console.log(
    `contacts: ${CONTACT_ROWS} rows over ${CONTACT_COMPANIES} companies, one launch: ${tasks.length} tasks, ` +
      `${rowsWritten} rows written in ${hours} hours of the timer, ${creditsReserved} credits reserved, ` +
      `document properties at most ${(propertiesPeak / 1024).toFixed(1)} KB`,
  );
  console.log(
    `per_row: a brief naming the contact: ${perRow.ok ? perRow.message : `refused: ${perRow.message}`}; ` +
      `sorted while they ran; ${perRowTasks} tasks, ${perRowWritten} rows written in ${perRowRun.hours} hours of the ` +
      `timer; document properties at most ${(perRowRun.propertiesPeak / 1024).toFixed(1)} KB`,
  );
  return {
    rows: CONTACT_ROWS,
    distinct: asked.size,
    tasks: tasks.length,
    rowsWritten,
    paidTwice,
    creditsReserved,
    propertiesKbPeak: propertiesPeak / 1024,
    hours,
    perRow: {
      rows: CONTACT_ROWS,
      keys: CONTACT_COMPANIES,
      tasks: perRowTasks,
      rowsWritten: perRowWritten,
      misplacedAfterSort: misplacedReports(perRowDoc),
      propertiesKbPeak: perRowRun.propertiesPeak / 1024,
      refusal: perRow.ok ? '' : perRow.message,
    },
    reuse,
  };
}
