// Issue 46, point 3, for documents of the earlier version: research permits now grow with launches, not tasks, and a
// document the earlier version left with tasks running, creates queued and open spending runs (each kept as
// fingerprints in the document's properties) is adopted once by this version (permits-upgrade.ts). Through the built
// bundle, the emulator and the sandbox over HTTP: the document is written by this version, rewritten into the earlier
// version's form (earlier-version.ts), and then run by this version. Every queued create is sent once, every task is
// collected once and settled in the spending history as the service charged it (a task whose ledger row an editor
// changed before the upgrade too, by what the earlier version kept of it), and nothing of the earlier form is left.
// With reuse on request (issue 46), a launch that uses earlier results in that document is what adopts it: its reused
// rows take no permit and no task, and the earlier launches' records still go out once. Every figure is checked against
// the sandbox's money record and task list.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { QuestionCountDto } from '../../../src/research/contract';
import type { SpendingHistoryDto, SpendingRunDto } from '../../../src/spending-history/contract';
import { LEDGER_SHEET, TASKS_SHEET } from '../../../src/shared/storage/internal-sheets';
import { hiddenRows, sandboxSuite, TOKEN } from '../harness';
import { asEarlierVersion, permitKeys } from './earlier-version';
import {
  column,
  companiesRuntime,
  doneFiguresAndCharges,
  launch,
  oracleCharges,
  oracleTotals,
  poll,
  runUntilSettled,
  sheetId,
  REPORT_OUTPUT,
  SHEET,
} from './harness';

jest.setTimeout(240_000);

const suite = sandboxSuite({ clock: 'manual' });
const TEMPLATE = 'Research {Domain}';
const REQUEST = { template: TEMPLATE, depth: 'medium', output: REPORT_OUTPUT } as const;

type ServiceTask = { id: string; brief: string };

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

/** Launches `rows` while the service answers every create 503: their records wait queued, granted, for the timer. */
async function launchQueued(runtime: GasRuntime, rows: number[]) {
  await suite.control.setFault({ route: 'tasks.create', errorRate: 1, errorStatus: 503 });
  const answer = launch(runtime, REQUEST, rows);
  await suite.control.clearFaults();
  return answer;
}

/** How many tasks the sandbox created for each brief. */
async function tasksPerBrief(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const task of (await suite.control.tasks(TOKEN)) as ServiceTask[])
    counts.set(task.brief, (counts.get(task.brief) ?? 0) + 1);
  return counts;
}

/** Settings > Spending's runs, oldest first. */
const history = (runtime: GasRuntime): SpendingRunDto[] =>
  runtime.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' }).runs.slice().reverse();

/** What the sandbox charged for the tasks of these briefs. */
async function chargedFor(briefs: readonly string[]): Promise<number> {
  const charges = await oracleCharges(suite);
  const tasks = (await suite.control.tasks(TOKEN)) as ServiceTask[];
  return tasks
    .filter((task) => briefs.includes(task.brief))
    .reduce((sum, task) => sum + (charges.get(task.id) ?? 0), 0);
}

/** An editor's change of a record's row in the hidden ledger (its depth): the row then fails its seal. */
function changeRecordOf(runtime: GasRuntime, brief: string): void {
  const ledger = runtime.spreadsheet.sheet(LEDGER_SHEET);
  const values = ledger.getValues();
  const at = values[0].indexOf('record');
  const row = values.findIndex((cells) => String(cells[at]).includes(`"brief":"${brief}"`));
  const changed = String(values[row][at]).replace('"depth":"medium"', '"depth":"deep"');
  ledger.setValues(`${String.fromCharCode(65 + at)}${row + 1}`, [[changed]]);
}

describe("an earlier version's research permits, adopted by this version (issue 46)", () => {
  it('sends each queued create once and settles each task once, a changed row by what that version kept', async () => {
    const runtime = await companiesRuntime(suite, 5);
    const domains = column(runtime, 'Domain');
    const briefs = domains.map((domain) => `Research ${domain}`);
    expect(launch(runtime, REQUEST, [2, 3, 4])).toMatchObject({ ok: true, created: 3 });
    expect(await launchQueued(runtime, [5, 6])).toMatchObject({ ok: true, created: 0, queued: 2 });

    asEarlierVersion(runtime);
    expect(permitKeys(runtime)).toEqual({ legacy: true, launches: false });
    expect(JSON.stringify(runtime.spreadsheet.sheet(LEDGER_SHEET).getValues())).not.toContain('"ordinal"');
    // An editor changes the first running record's row before this version's first run.
    changeRecordOf(runtime, briefs[0]);

    await runUntilSettled(suite, runtime);
    // Adopted once: the earlier value is gone, and so are this version's permits once nothing runs.
    expect(permitKeys(runtime)).toEqual({ legacy: false, launches: false });
    expect([...(await tasksPerBrief()).entries()].sort()).toEqual(briefs.map((brief) => [brief, 1]).sort());
    // Every row but the changed record's holds its task's result, at what the sandbox charged for it.
    const shown = (await doneFiguresAndCharges(suite, runtime)).filter((figures) => figures.row !== 2);
    expect(shown.map((figures) => figures.row).sort()).toEqual([3, 4, 5, 6]);
    for (const figures of shown) expect(figures.shown).toBe(figures.charged);
    expect(column(runtime, 'Status')[0]).not.toMatch(/^Done/);
    // The task index names every task, once: the changed record's by what the earlier version kept (its record, no
    // place), the other running ones by their records as adopted, the queued ones' as their creates were answered.
    const created = (await suite.control.tasks(TOKEN)) as ServiceTask[];
    const index = hiddenRows(runtime.spreadsheet, TASKS_SHEET).slice(1);
    expect(index.map((row) => row[0]).sort()).toEqual(created.map((one) => one.id).sort());
    const changed = created.find((one) => one.brief === briefs[0])?.id;
    const changedRecord = hiddenRows(runtime.spreadsheet, LEDGER_SHEET).find((row) => row[1] === changed)?.[0];
    expect(index.filter((row) => row[0] === changed).map((row) => [row[2], row[3]])).toEqual([['', changedRecord]]);

    // Each run settled as the service charged it: the changed record's task too, counted as not collected.
    const [first, second] = history(runtime);
    const firstCharged = await chargedFor(briefs.slice(0, 3));
    const secondCharged = await chargedFor(briefs.slice(3));
    expect(first).toMatchObject({ rows: 3, reserved: 30, charged: firstCharged, open: 0, lost: 1 });
    expect(first.givenBack).toBe(30 - firstCharged);
    expect(second).toMatchObject({ rows: 2, reserved: 20, charged: secondCharged, open: 0, lost: 0 });
    expect(second.givenBack).toBe(20 - secondCharged);
    const totals = await oracleTotals(suite);
    expect(totals).toMatchObject({ reserved: 50, charged: firstCharged + secondCharged });
  });

  it('is adopted by a launch that reuses earlier results: the reused rows take no permit and no task', async () => {
    const runtime = await companiesRuntime(suite, 6);
    const domains = column(runtime, 'Domain');
    const briefs = domains.map((domain) => `Research ${domain}`);
    expect(launch(runtime, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
    await runUntilSettled(suite, runtime);
    expect(launch(runtime, REQUEST, [4])).toMatchObject({ ok: true, created: 1 });
    expect(await launchQueued(runtime, [5])).toMatchObject({ ok: true, queued: 1 });
    asEarlierVersion(runtime);
    expect(permitKeys(runtime)).toEqual({ legacy: true, launches: false });

    // New rows: the first company again (researched, offered) and the sixth (new).
    const sheet = runtime.spreadsheet.sheet(SHEET);
    sheet.setValues('A8:B9', [
      ['Again', domains[0]],
      ['New', domains[5]],
    ]);
    const offer = runtime.run<QuestionCountDto>(
      'countResearchQuestions',
      [
        {
          sheetId: sheetId(runtime),
          rows: [8, 9],
          template: TEMPLATE,
          depth: 'medium',
          output: REPORT_OUTPUT,
          days: 30,
        },
      ],
      { kind: 'sidebar' },
    );
    expect(offer).toMatchObject({ asking: 2, questions: 2, reusable: { rows: 1, questions: 1 } });
    const before = await oracleTotals(suite);
    const answer = launch(runtime, { ...REQUEST, reuse: { days: 30, use: true, tasks: 1 } }, [8, 9]);
    expect(answer).toMatchObject({ ok: true, created: 1, reused: 1 });
    // That launch's creates adopted the earlier value, once, and sent the earlier version's queued record with its own
    // new question's: two tasks reserved; the reused row reserved nothing.
    expect(permitKeys(runtime).legacy).toBe(false);
    expect((await oracleTotals(suite)).reserved - before.reserved).toBe(20);
    expect(column(runtime, 'Status')[6]).toMatch(/^Reused \(researched \d{4}-\d{2}-\d{2}\)$/);

    await runUntilSettled(suite, runtime);
    // One task per question, the reused one bought once: the queued record of the earlier version sent once (row 7,
    // the fifth company, was never launched).
    const asked = briefs.filter((_, at) => at !== 4);
    expect([...(await tasksPerBrief()).entries()].sort()).toEqual(asked.map((brief) => [brief, 1]).sort());
    const statuses = column(runtime, 'Status');
    expect(statuses.slice(0, 4).every((status) => /^Done \(\d+ credits?\)$/.test(status))).toBe(true);
    expect(statuses[7]).toMatch(/^Done \(\d+ credits?\)$/);
    // The reused row names its first record's task and took no row of the task index: the index holds the tasks
    // created since the upgrade and the running one it adopted, once each.
    const [first, again] = ['Done', 'Reused'].map((status) =>
      poll(runtime).rows.find((entry) => entry.brief === briefs[0] && entry.status.startsWith(status)),
    );
    expect(again?.taskId).toBe(first?.taskId);
    const byBrief = new Map(((await suite.control.tasks(TOKEN)) as ServiceTask[]).map((one) => [one.brief, one.id]));
    const index = hiddenRows(runtime.spreadsheet, TASKS_SHEET).slice(1);
    expect(index.map((row) => row[0]).sort()).toEqual([2, 3, 5].map((at) => byBrief.get(briefs[at])).sort());
    expect(index.some((row) => row[3] === again?.entryId)).toBe(false);

    // Four runs: each as the service charged it; the reuse launch's with its reused row at 0 credits.
    const runs = history(runtime);
    expect(runs.map((run) => [run.rows, run.reserved, run.open, run.lost, run.reused])).toEqual([
      [2, 20, 0, 0, 0],
      [1, 10, 0, 0, 0],
      [1, 10, 0, 0, 0],
      [1, 10, 0, 0, 1],
    ]);
    const charged = runs.reduce((sum, run) => sum + run.charged, 0);
    expect(charged).toBe(await chargedFor(asked));
    expect(runs.every((run) => run.givenBack === run.reserved - run.charged)).toBe(true);
    expect(await oracleTotals(suite)).toMatchObject({ reserved: 50, charged });
    expect(permitKeys(runtime)).toEqual({ legacy: false, launches: false });
  });
});
