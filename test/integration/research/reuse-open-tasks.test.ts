// Reuse on request (issue 46) together with open tasks that grow with launches, not tasks (issue 46, point 3): a reused
// result is a record of its own that names the first record's task, takes no create permit, no place in its launch,
// no row of the task index and no place among the spreadsheet's open tasks, and reserves nothing. Through the built
// bundle, the emulator and the sandbox over HTTP: a launch reusing earlier results in a spreadsheet with 2,000 research
// tasks open; and the reuse of a result the task index tracks, through an editor's change of the reused row and the
// ledger's compaction weeks later. Figures are checked against the sandbox's money record and task list.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { QuestionCountDto, ReportDto, ResearchStatusDto } from '../../../src/research/contract';
import type { SpendingHistoryDto, SpendingRunDto } from '../../../src/spending-history/contract';
import { PROPERTY_BYTES_PER_LAUNCH, PROPERTY_BYTES_PER_TASK } from '../../../src/research/launch/preconditions';
import { readLaunches } from '../../../src/research/spending/launch-bits';
import { LEDGER_SHEET, TASKS_SHEET } from '../../../src/shared/storage/internal-sheets';
import { hiddenRows, sandboxSuite, TOKEN } from '../harness';
import { documentStore } from './earlier-version';
import {
  advance,
  column,
  launch,
  oracleTotals,
  poll,
  runtimeFor,
  runUntilSettled,
  sheetId,
  tick,
  REPORT_OUTPUT,
  SHEET,
} from './harness';

jest.setTimeout(300_000);

const suite = sandboxSuite({ clock: 'manual' });
const DAY = 86_400_000;
const BY_DOMAIN = { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT } as const;
/** Each contact its own question. */
const BY_CONTACT = { template: 'Research {Contact} at {Domain}', depth: 'medium', output: REPORT_OUTPUT } as const;
const OPEN = 2_000;
const REUSED = /^Reused \(researched (\d{4}-\d{2}-\d{2})\)$/;

type ServiceTask = { id: string; brief: string };

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

/** The sandbox's newest 100 research tasks of the account. */
const serviceTasks = async () => (await suite.control.tasks(TOKEN)) as ServiceTask[];
/** Every task the sandbox's money record holds for the account. */
const recordedTasks = async () =>
  new Set((await suite.control.ledger(TOKEN)).days.flatMap((day) => day.tasks.map((task) => task.id)));

/** The panel's count of `rows` with `Research {Domain}`, with the offer of earlier results over 30 days. */
const offer = (runtime: GasRuntime, rows: number[]) =>
  runtime.run<QuestionCountDto>(
    'countResearchQuestions',
    [
      {
        sheetId: sheetId(runtime),
        rows,
        template: BY_DOMAIN.template,
        depth: 'medium',
        output: REPORT_OUTPUT,
        days: 30,
      },
    ],
    { kind: 'sidebar' },
  );

/** Appends contacts below the sheet's rows; their row numbers. */
function append(runtime: GasRuntime, domains: string[]): number[] {
  const sheet = runtime.spreadsheet.sheet(SHEET);
  const last = sheet.lastRow();
  sheet.setValues(
    `A${last + 1}:B${last + domains.length}`,
    domains.map((domain, i) => [`Again ${i + 1}`, domain]),
  );
  return domains.map((_, i) => last + 1 + i);
}

/** Settings > Spending's runs, oldest first. */
const history = (runtime: GasRuntime): SpendingRunDto[] =>
  runtime.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' }).runs.slice().reverse();

/** The task index's rows: task id, launch, place, record, payer. */
const taskIndex = (runtime: GasRuntime) => hiddenRows(runtime.spreadsheet, TASKS_SHEET).slice(1);

/** The ledger's reused records (entry ids), as the panel lists them. */
const reusedRecords = (status: ResearchStatusDto) =>
  status.rows.filter((entry) => REUSED.test(entry.status)).map((entry) => entry.entryId);

describe('reuse on request with open tasks kept per launch (issue 46)', () => {
  it('reuses earlier results in a spreadsheet with 2,000 open tasks: only the new question takes a permit and a task', async () => {
    const companies = (await suite.control.companies(3)).map((company) => company.domain);
    const contacts = Array.from({ length: OPEN }, (_, i) => [`Contact ${i + 1}`, companies[i % 3]]);
    const runtime = await runtimeFor(
      suite,
      [['Contact', 'Domain'], ['First', companies[0]], ['Second', companies[1]], ...contacts],
      TOKEN,
      { addOn: true },
    );
    expect(launch(runtime, BY_DOMAIN, [2, 3])).toMatchObject({ ok: true, created: 2 });
    await runUntilSettled(suite, runtime);
    const many = launch(
      runtime,
      BY_CONTACT,
      contacts.map((_, i) => i + 4),
    );
    expect(many).toMatchObject({ ok: true, rows: OPEN });
    const open = poll(runtime).pending;
    expect(open).toBe(OPEN);

    const fresh = append(runtime, companies);
    expect(offer(runtime, fresh)).toMatchObject({ asking: 3, questions: 3, reusable: { rows: 2, questions: 2 } });
    const [recordedBefore, totalsBefore] = [await recordedTasks(), await oracleTotals(suite)];
    const sizeBefore = runtime.properties.document.size();
    const answer = launch(runtime, { ...BY_DOMAIN, reuse: { days: 30, use: true, tasks: 1 } }, fresh);
    expect(answer).toMatchObject({ ok: true, created: 1, reused: 2 });

    // One more open task, one more place in the properties: the reused rows take none.
    const status = poll(runtime);
    expect(status.pending).toBe(open + 1);
    expect(runtime.properties.document.size() - sizeBefore).toBeLessThanOrEqual(
      PROPERTY_BYTES_PER_LAUNCH + PROPERTY_BYTES_PER_TASK,
    );
    const launches = [...readLaunches(documentStore(runtime)).values()].map((bits) => bits.count).sort((a, b) => a - b);
    expect(launches).toEqual([1, OPEN]);
    const statuses = column(runtime, 'Status');
    expect(fresh.slice(0, 2).every((row) => REUSED.test(statuses[row - 2]))).toBe(true);

    // The sandbox created one task, for the new question, and reserved for it alone (creates still queued from the
    // 2,000's launch, if any, are their own launch's): none for the reused questions.
    const recorded = await recordedTasks();
    const created = (await serviceTasks()).filter((task) => recorded.has(task.id) && !recordedBefore.has(task.id));
    expect(created.filter((task) => !task.brief.includes(' at ')).map((task) => task.brief)).toEqual([
      `Research ${companies[2]}`,
    ]);
    expect((await oracleTotals(suite)).reserved - totalsBefore.reserved).toBe(
      10 * (recorded.size - recordedBefore.size),
    );
    // The task index names every task the sandbox's money record holds, and no reused record.
    const index = taskIndex(runtime);
    expect(index.map((row) => row[0]).sort()).toEqual([...recorded].sort());
    const reused = reusedRecords(status);
    expect(reused).toHaveLength(2);
    expect(index.some((row) => reused.includes(String(row[3])))).toBe(false);
    // Settings > Spending: the launch reserved for its one task and counts its two reused rows.
    expect(history(runtime).at(-1)).toMatchObject({ rows: 1, reserved: 10, open: 1, reused: 2 });
  });

  it('reuses a result the task index tracks: no index row of its own, and its task kept while it names it', async () => {
    const companies = (await suite.control.companies(3)).map((company) => company.domain);
    const runtime = await runtimeFor(suite, [
      ['Contact', 'Domain'],
      ...companies.map((domain, i) => [`Contact ${i + 1}`, domain]),
    ]);
    expect(launch(runtime, BY_DOMAIN, [2, 3, 4])).toMatchObject({ ok: true, created: 3 });
    await runUntilSettled(suite, runtime);
    const tasks = new Map((await serviceTasks()).map((task) => [task.brief, task.id]));
    const [t0, t1, t2] = companies.map((domain) => tasks.get(`Research ${domain}`));
    expect(
      taskIndex(runtime)
        .map((row) => row[0])
        .sort(),
    ).toEqual([t0, t1, t2].sort());
    const researchedDay = new Date(poll(runtime).rows[0].updatedAt).toISOString().slice(0, 10);

    // 29 days later, two of the companies again: their results reused, no task, no index row.
    await advance(suite, runtime, 29 * DAY);
    const fresh = append(runtime, companies.slice(0, 2));
    const totals = await oracleTotals(suite);
    const answer = launch(runtime, { ...BY_DOMAIN, reuse: { days: 30, use: true, tasks: 0 } }, fresh);
    expect(answer).toMatchObject({ ok: true, created: 0, reused: 2 });
    expect(answer.message).toBe('Used earlier results for 2 rows (2 questions, 0 credits)');
    expect(
      taskIndex(runtime)
        .map((row) => row[0])
        .sort(),
    ).toEqual([t0, t1, t2].sort());
    expect(history(runtime).map((run) => [run.rows, run.reserved, run.charged, run.open, run.reused])).toEqual([
      [3, 30, history(runtime)[0].charged, 0, 0],
      [0, 0, 0, 0, 2],
    ]);

    // An editor changes the first reused row in the hidden ledger: it fails its seal, and its task (the first
    // record's, as the index says) is neither polled for it nor settled anywhere.
    const ledger = runtime.spreadsheet.sheet(LEDGER_SHEET);
    const values = ledger.getValues();
    const at = values[0].indexOf('record');
    const row = values.findIndex(
      (cells) => String(cells[at]).includes('"reused"') && String(cells[at]).includes(t0 ?? '-'),
    );
    const changedId = String(values[row][values[0].indexOf('entry_id')]);
    ledger.setValues(`${String.fromCharCode(65 + at)}${row + 1}`, [
      [String(values[row][at]).replace('"cost":0', '"cost":5')],
    ]);

    // Two weeks on, the first records are past their retention and the ledger is compacted: the reused records stay,
    // and with them their tasks' reports and index rows; the third task, named by no row any more, leaves both.
    const runsBefore = history(runtime);
    await advance(suite, runtime, 14 * DAY);
    tick(runtime);
    const status = poll(runtime);
    expect(status.damaged).toEqual([{ entryId: changedId, taskId: t0, changed: true }]);
    expect(await oracleTotals(suite)).toEqual(totals);
    expect(history(runtime)).toEqual(runsBefore);
    expect(hiddenRows(runtime.spreadsheet, LEDGER_SHEET).slice(1)).toHaveLength(2);
    expect(
      taskIndex(runtime)
        .map((row) => row[0])
        .sort(),
    ).toEqual([t0, t1].sort());
    const report = runtime.run<ReportDto>('getTaskReport', [t1], { kind: 'sidebar' });
    expect(report).toMatchObject({ found: true, status: `Reused (researched ${researchedDay})` });
    expect(JSON.stringify(report.report)).toContain(companies[1]);
    // A reused result is dated by its first research: 43 days on, it is not offered again within 30 days.
    expect(offer(runtime, append(runtime, [companies[1]]))?.reusable).toMatchObject({ rows: 0, questions: 0 });
  });
});
