// The scale benchmark's research day at account scale: an account holding 10,000 older tasks made elsewhere; launches
// that overlap in time from ten documents of 300 rows, one of 5,000 rows and nine small ones (twenty documents with
// research running: Google's limit of triggers), while other tools add tasks; three Research panels open on one
// document for an hour; then the published add-on's hourly timers alone, every panel closed, until every row is
// written; the user's 21st document launching meanwhile; and, after the retention period, the hidden sheets.
import type { GasRuntime } from '../../dev/gas-runtime';
import { FINISHED_KEPT_DAYS } from '../../src/research/contract';
import { poll } from '../../test/integration/research/harness';
import {
  advance,
  dataRows,
  DAY,
  domainsDocument,
  fireTimers,
  HOUR,
  launch,
  launchRows,
  pendingRows,
  sent,
  type World,
} from './world';

const DOCS = 10;
const DOC_ROWS = 300;
const BIG_ROWS = 5_000;
const SMALL_DOCS = 9;
const SMALL_ROWS = 10;
const OLDER_TASKS = 10_000;
/** Tasks other tools of the account create while the documents launch: before each launch. */
const OTHER_TASKS_PER_LAUNCH = 200;
const PANEL_POLL_MS = 15_000;
/** Research pace of the panels' document: a medium task takes about an hour, so its 300 tasks stay pending. */
const SLOW_SPEED = 0.003;

/** Property calls of one execution (its Properties method calls). */
function pollCountingProperties(doc: GasRuntime): number {
  let calls = 0;
  poll(doc, {
    onServiceCall: (call) => {
      if (call.service === 'Properties') calls += 1;
    },
  });
  return calls;
}

/** The hidden sheets research keeps in a document: its ledger and its reports (src/research/context.ts). */
const RESEARCH_SHEETS = ['Sheet Scout research ledger', 'Sheet Scout research reports'];

function hiddenCells(docs: GasRuntime[]): number {
  let cells = 0;
  for (const doc of docs)
    for (const name of RESEARCH_SHEETS) {
      const sheet = doc.spreadsheet.getSheet(name);
      if (sheet) cells += sheet.maxRows * sheet.maxColumns;
    }
  return cells;
}

/** The latest time a task of the account ended at the service (ms). */
async function lastTaskEnd(world: World): Promise<number> {
  const tasks = await world.control.call<Array<{ status: string; updated_at: string; brief: string }>>(
    'GET',
    '/_sandbox/tasks',
  );
  return Math.max(
    ...tasks
      .filter((task) => task.brief.startsWith('Research ') && (task.status === 'done' || task.status === 'failed'))
      .map((task) => Date.parse(task.updated_at)),
  );
}

/** The research day's figures, for the `scale:` line. */
export interface AccountDay {
  launched: number;
  unwrittenPaidTasks: number;
  hoursToLastWrite: number;
  pollRequestsPerTask: number;
  spentBeforeRefusal: number;
  refusal: string;
  propertyOpsPerHour3Panels: number;
  hiddenCellsPerTaskBefore: number;
  hiddenCellsPerTask: number;
  requests: number;
  /** The 5,000-row document's properties (bytes, as Google counts them): its tasks running, then all finished. */
  bigPropertyBytesRunning: number;
  bigPropertyBytesFinished: number;
}

export async function researchAtAccountScale(world: World, domains: string[]): Promise<AccountDay> {
  const requestsBefore = sent(world);
  const logFrom = world.project.httpLog.length;
  await world.control.seedTasks(OLDER_TASKS, { ageMs: DAY, spacingMs: 10_000 });
  const slice = (from: number, count: number) => Array.from({ length: count }, (_, i) => domains[(from + i) % 5000]);
  const panels = domainsDocument(world, 'acct-panels', slice(0, DOC_ROWS));
  const docs = Array.from({ length: DOCS - 1 }, (_, i) =>
    domainsDocument(world, `acct-${i + 2}`, slice((i + 1) * DOC_ROWS, DOC_ROWS)),
  );
  const big = domainsDocument(world, 'acct-big', slice(0, BIG_ROWS));
  const small = Array.from({ length: SMALL_DOCS }, (_, i) =>
    domainsDocument(world, `acct-small-${i + 1}`, slice(4000 + i * SMALL_ROWS, SMALL_ROWS)),
  );
  const last = domainsDocument(world, 'acct-21st', slice(4500, 5));
  const all = [panels, ...docs, big, ...small];
  let launched = 0;

  await world.control.setResearchSpeed(SLOW_SPEED);
  launched += launch(panels, dataRows(DOC_ROWS)).created;
  await world.control.setResearchSpeed(0.05);

  // An hour with three Research panels open on the first document (polling 5 s apart, each every 15 s), while the
  // other documents launch one after another and other tools add tasks.
  const launches = new Map<number, () => Promise<void>>();
  docs.forEach((doc, i) =>
    launches.set(8 * (i + 1), async () => {
      await world.control.seedTasks(OTHER_TASKS_PER_LAUNCH, { spacingMs: 100 });
      launched += launch(doc, dataRows(DOC_ROWS)).created;
    }),
  );
  let bigPropertyBytesRunning = 0;
  launches.set(90, async () => {
    launched += launch(big, dataRows(BIG_ROWS)).created;
    bigPropertyBytesRunning = big.properties.document.size();
  });
  small.forEach((doc, i) =>
    launches.set(100 + 2 * i, async () => {
      launched += launch(doc, dataRows(SMALL_ROWS)).created;
    }),
  );
  let spentBeforeRefusal = -1;
  let refusal = '';
  launches.set(125, async () => {
    const before = (await world.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;
    const answer = launchRows(last, dataRows(5));
    refusal = answer.ok ? '(launched)' : answer.message;
    const after = (await world.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;
    spentBeforeRefusal = (after - before) * 10;
  });
  let panelOps = 0;
  for (let step = 0; step < HOUR / PANEL_POLL_MS; step++) {
    await launches.get(step)?.();
    for (let panel = 0; panel < 3; panel++) {
      await advance(world, PANEL_POLL_MS / 3);
      panelOps += pollCountingProperties(panels);
    }
    fireTimers(world);
  }
  const stillPendingAfterPanels = pendingRows(panels);

  // Every panel closed: the hourly timers alone.
  let lastWriteAt = Infinity;
  for (let hour = 0; hour < 30; hour++) {
    await advance(world, HOUR);
    fireTimers(world);
    if (all.every((doc) => pendingRows(doc) === 0)) {
      lastWriteAt = world.clock.now();
      break;
    }
  }
  const taskEnd = await lastTaskEnd(world);
  const unwritten = all.reduce((sum, doc) => sum + pendingRows(doc), 0);
  const pollRequests = world.project.httpLog
    .slice(logFrom)
    .filter((entry) => entry.method === 'GET' && entry.url.includes('/v1/deep_research_tasks')).length;
  const requests = sent(world) - requestsBefore;
  const before = hiddenCells(all) / launched;
  const bigPropertyBytesFinished = big.properties.document.size();

  // After the retention period, opening each document's panel once compacts its hidden sheets.
  await advance(world, (FINISHED_KEPT_DAYS + 8) * DAY);
  for (const doc of all) poll(doc);
  console.log(
    `R research at account scale: ${OLDER_TASKS} older tasks, ${DOCS} x ${DOC_ROWS} + ${BIG_ROWS} + ${SMALL_DOCS} x ${SMALL_ROWS} rows ` +
      `launched (${launched} tasks), ${(DOCS - 1) * OTHER_TASKS_PER_LAUNCH} made elsewhere meanwhile; ` +
      `three panels for an hour (${stillPendingAfterPanels} of their ${DOC_ROWS} rows still pending after it); ` +
      `21st document: ${refusal}`,
  );
  console.log(
    `R polling: ${pollRequests} list pages and reads for ${launched} tasks; last row written ${((lastWriteAt - taskEnd) / HOUR).toFixed(2)} h ` +
      `after the last task ended; ${requests} requests in all (creates included)`,
  );
  console.log(
    `R document properties of the ${BIG_ROWS}-row document: ${bigPropertyBytesRunning} bytes with its tasks running, ` +
      `${bigPropertyBytesFinished} once all were written (Google allows ${500 * 1024} per document)`,
  );
  return {
    launched,
    unwrittenPaidTasks: unwritten,
    hoursToLastWrite: (lastWriteAt - taskEnd) / HOUR,
    pollRequestsPerTask: pollRequests / launched,
    spentBeforeRefusal,
    refusal,
    propertyOpsPerHour3Panels: panelOps,
    hiddenCellsPerTaskBefore: before,
    hiddenCellsPerTask: hiddenCells(all) / launched,
    requests,
    bigPropertyBytesRunning,
    bigPropertyBytesFinished,
  };
}
