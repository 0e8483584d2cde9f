// Reuse on request (issue 46), through the built bundle, the emulator and the sandbox: a contact list researched once,
// then new contacts appended (companies already researched, and new ones) and the list sorted. The panel's count
// offers the questions bought in the chosen period; the user's answer decides: "use" writes the earlier results into
// the right rows at once (marked reused, with the day they were researched) and pays only the rest, once each;
// "research again" pays for every question. A period the results are older than offers none, and a launch whose
// preview no longer holds sends nothing. A ledger record or a report changed in the hidden sheets is never reused.
// Every figure is checked against the sandbox's money record and task list.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { LaunchRequest, LaunchResponse, QuestionCountDto, ReuseChoice } from '../../../src/research/contract';
import type { SpendingHistoryDto } from '../../../src/spending-history/contract';
import { LEDGER_SHEET, REPORTS_SHEET } from '../../../src/shared/storage/internal-sheets';
import { sandboxSuite } from '../harness';
import {
  advance,
  column,
  launch,
  oracleCharges,
  oracleTotals,
  poll,
  runtimeFor,
  runUntilSettled,
  sheetId,
  REPORT_OUTPUT,
  SHEET,
} from './harness';

jest.setTimeout(240_000);

const suite = sandboxSuite({ clock: 'manual' });
const TOKEN = 'sbx_pro_token';
const DAY = 86_400_000;
const TEMPLATE = 'Research {Domain}';
const REQUEST: Omit<LaunchRequest, 'reuse'> = { template: TEMPLATE, depth: 'medium', output: REPORT_OUTPUT };
const REUSED = /^Reused \(researched (\d{4}-\d{2}-\d{2})\)$/;

type ServiceTask = { id: string; brief: string };

/** A list of four contacts of four companies, researched and settled; the sandbox's six companies' domains. */
async function researched(): Promise<{ runtime: GasRuntime; domains: string[] }> {
  const domains = (await suite.control.companies(6)).map((company) => company.domain);
  const runtime = await runtimeFor(suite, [
    ['Contact', 'Domain'],
    ...domains.slice(0, 4).map((domain, i) => [`Contact ${i + 1}`, domain]),
  ]);
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
  expect(launch(runtime, REQUEST, [2, 3, 4, 5])).toMatchObject({ ok: true, created: 4 });
  await runUntilSettled(suite, runtime);
  return { runtime, domains };
}

/** New contacts appended below the list. */
function append(runtime: GasRuntime, domains: string[]): void {
  const sheet = runtime.spreadsheet.sheet(SHEET);
  const last = sheet.lastRow();
  const rows = domains.map((domain, i) => [`New ${i + 1}`, domain]);
  sheet.setValues(`A${last + 1}:B${last + domains.length}`, rows);
}

/** The data rows whose status cell is empty (the contacts not researched yet), where they are now. */
const unresearched = (runtime: GasRuntime) =>
  column(runtime, 'Status').flatMap((status, i) => (status === '' ? [i + 2] : []));

function sortByDomain(runtime: GasRuntime, ascending: boolean): void {
  const sheet = runtime.spreadsheet.sheet(SHEET);
  const rect = { row: 2, column: 1, numRows: sheet.lastRow() - 1, numColumns: sheet.lastColumn() };
  sheet.sortRows(rect, [{ column: 2, ascending }]);
}

/** The panel's count with the offer of earlier results over `days`. */
function offer(runtime: GasRuntime, rows: number[], days: number): QuestionCountDto {
  return runtime.run<QuestionCountDto>(
    'countResearchQuestions',
    [{ sheetId: sheetId(runtime), rows, template: TEMPLATE, depth: 'medium', output: REPORT_OUTPUT, days }],
    { kind: 'sidebar' },
  );
}

const launchAnswering = (runtime: GasRuntime, rows: number[], reuse: ReuseChoice) =>
  launch(runtime, { ...REQUEST, reuse }, rows);

/** The sandbox's tasks of the account, by brief. */
async function tasksByBrief(): Promise<Map<string, ServiceTask[]>> {
  const byBrief = new Map<string, ServiceTask[]>();
  for (const task of (await suite.control.tasks(TOKEN)) as ServiceTask[])
    byBrief.set(task.brief, [...(byBrief.get(task.brief) ?? []), task]);
  return byBrief;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('reuse on request (integration)', () => {
  it('offers what was bought in the last 30 days, reuses it at 0 credits in the right rows after sorts, pays the rest once', async () => {
    const { runtime, domains } = await researched();
    const [c0, c1, , , c4, c5] = domains;
    const finished = new Map(poll(runtime).rows.map((entry) => [entry.brief, entry.updatedAt]));
    append(runtime, [c0, c1, c4, c0, c5]);
    sortByDomain(runtime, true);
    const fresh = unresearched(runtime);
    expect(fresh).toHaveLength(5);
    const researchedAt = Math.min(finished.get(`Research ${c0}`) ?? 0, finished.get(`Research ${c1}`) ?? 0);
    expect(offer(runtime, fresh, 30)).toEqual({
      asking: 5,
      questions: 4,
      reusable: { days: 30, rows: 3, questions: 2, oldest: researchedAt },
    });
    const sources = column(runtime, 'Sources');
    const sourcesBefore = new Map(
      column(runtime, 'Domain').flatMap((domain, i) => (sources[i] ? [[domain, sources[i]]] : [])),
    );
    const before = await oracleTotals(suite);

    const answer = launchAnswering(runtime, fresh, { days: 30, use: true, tasks: 2 });
    expect(answer).toMatchObject({ ok: true, created: 2, rows: 2, reused: 3 });
    expect(answer.message).toBe(
      'Queued 2 tasks at the service, used earlier results for 3 rows (2 questions, 0 credits)',
    );
    // The sandbox's record: two tasks reserved (c4 and c5), nothing for the reused questions.
    expect((await oracleTotals(suite)).reserved - before.reserved).toBe(20);
    const statuses = column(runtime, 'Status');
    const reports = column(runtime, 'Report');
    column(runtime, 'Domain').forEach((domain, i) => {
      if (!fresh.includes(i + 2) || (domain !== c0 && domain !== c1)) return;
      // Written at once, in the rows that ask it, as the first task's result (its sources too).
      expect(statuses[i]).toBe(`Reused (researched ${day(finished.get(`Research ${domain}`) ?? 0)})`);
      expect(reports[i]).toContain(domain);
      expect(column(runtime, 'Sources')[i]).toBe(sourcesBefore.get(domain));
    });

    // Another sort while c4 and c5 run: their results follow their rows.
    sortByDomain(runtime, false);
    await runUntilSettled(suite, runtime);
    const charges = await oracleCharges(suite);
    const byBrief = await tasksByBrief();
    for (const domain of domains) expect(byBrief.get(`Research ${domain}`)).toHaveLength(1);
    const after = await oracleTotals(suite);
    const newTasks = [c4, c5].map((domain) => byBrief.get(`Research ${domain}`)?.[0].id ?? '');
    const paid = newTasks.reduce((sum, id) => sum + (charges.get(id) ?? 0), 0);
    expect(after.charged - before.charged).toBe(paid);
    const finalReports = column(runtime, 'Report');
    const finalStatuses = column(runtime, 'Status');
    const shown = new Map<string, string[]>();
    column(runtime, 'Domain').forEach((domain, i) => {
      expect(finalReports[i]).toContain(domain);
      shown.set(domain, [...(shown.get(domain) ?? []), finalStatuses[i]]);
    });
    // The rows bought the first time keep their charge; each repeated contact says it reused it.
    expect(shown.get(c0)?.filter((status) => REUSED.test(status))).toHaveLength(2);
    expect(shown.get(c0)?.filter((status) => /^Done \(\d+ credits?\)$/.test(status))).toHaveLength(1);
    expect(
      shown
        .get(c1)
        ?.map((status) => REUSED.test(status))
        .sort(),
    ).toEqual([false, true]);
    for (const [domain, id] of [c4, c5].map((one, i) => [one, newTasks[i]]))
      expect(shown.get(domain)).toEqual([`Done (${charges.get(id)} credits)`]);

    // The Tasks tab lists the reused questions as such; Settings > Spending lists the launch at what it cost.
    const listed = poll(runtime).rows.filter((entry) => REUSED.test(entry.status));
    expect(listed.map((entry) => entry.brief).sort()).toEqual([`Research ${c0}`, `Research ${c1}`].sort());
    const [run] = runtime.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' }).runs;
    expect(run).toMatchObject({ rows: 2, reserved: 20, charged: paid, givenBack: 20 - paid, open: 0, reused: 3 });
  });

  it('researches again when the user says so: every question paid, the repeated ones too', async () => {
    const { runtime, domains } = await researched();
    const [c0, c1, , , c4] = domains;
    append(runtime, [c0, c1, c4]);
    const fresh = unresearched(runtime);
    expect(offer(runtime, fresh, 30)?.reusable).toMatchObject({ rows: 2, questions: 2 });
    const before = await oracleTotals(suite);
    expect(launchAnswering(runtime, fresh, { days: 30, use: false, tasks: 3 })).toMatchObject({
      ok: true,
      created: 3,
      reused: 0,
    });
    expect((await oracleTotals(suite)).reserved - before.reserved).toBe(30);
    await runUntilSettled(suite, runtime);
    const byBrief = await tasksByBrief();
    expect([c0, c1, c4].map((domain) => byBrief.get(`Research ${domain}`)?.length)).toEqual([2, 2, 1]);
    const statuses = column(runtime, 'Status');
    expect(fresh.every((row) => /^Done \(\d+ credits?\)$/.test(statuses[row - 2]))).toBe(true);
  });

  it('offers nothing older than the period, and sends nothing when the period passed since the preview', async () => {
    const { runtime, domains } = await researched();
    await advance(suite, runtime, 8 * DAY);
    // The same companies on another sheet of the spreadsheet: a question bought here, asked by other rows.
    const leads = runtime.spreadsheet.insertSheet('Leads');
    leads.setValues('A1:B3', [
      ['Lead', 'Domain'],
      ['Lead 1', domains[0]],
      ['Lead 2', domains[1]],
    ]);
    const ask = (days: number) =>
      runtime.run<QuestionCountDto>(
        'countResearchQuestions',
        [{ sheetId: leads.sheetId, rows: [2, 3], template: TEMPLATE, depth: 'medium', output: REPORT_OUTPUT, days }],
        { kind: 'sidebar' },
      );
    expect(ask(7)?.reusable).toEqual({ days: 7, rows: 0, questions: 0, oldest: null });
    expect(ask(14)?.reusable).toMatchObject({ days: 14, rows: 2, questions: 2 });
    // The answer comes a week later: the 14 days have passed, and paying for both is more than the preview said.
    await advance(suite, runtime, 7 * DAY);
    const before = await oracleTotals(suite);
    const refused = runtime.run<LaunchResponse>(
      'launchResearch',
      [{ ...REQUEST, reuse: { days: 14, use: true, tasks: 0 }, sheetId: leads.sheetId, rows: [2, 3] }],
      { kind: 'sidebar' },
    );
    expect(refused).toMatchObject({ ok: false, created: 0, reused: 0 });
    expect(refused.message).toContain('the preview counted 0 tasks to pay for and this launch needs 2');
    expect(await oracleTotals(suite)).toEqual(before);
    expect(leads.getDisplayValues().map((row) => row.length)).toEqual([2, 2, 2]);
    expect(ask(14)?.reusable).toMatchObject({ rows: 0, questions: 0 });
  });

  it('never reuses a record or a report changed in the hidden sheets', async () => {
    const { runtime, domains } = await researched();
    const [c0, c1, c2, , c4] = domains;
    // An editor makes c0's record claim c4's question, and rewrites c1's report.
    const ledger = runtime.spreadsheet.sheet(LEDGER_SHEET);
    const ledgerValues = ledger.getValues();
    const recordAt = ledgerValues[0].indexOf('record');
    const c0Row = ledgerValues.findIndex((row) => String(row[recordAt]).includes(`"brief":"Research ${c0}"`));
    const forged = String(ledgerValues[c0Row][recordAt]).replace(`Research ${c0}`, `Research ${c4}`);
    ledger.setValues(`${String.fromCharCode(65 + recordAt)}${c0Row + 1}`, [[forged]]);
    const c1Task = poll(runtime).rows.find((entry) => entry.brief === `Research ${c1}`)?.taskId;
    const store = runtime.spreadsheet.sheet(REPORTS_SHEET);
    const storeValues = store.getValues();
    const reportAt = storeValues[0].indexOf('report');
    const c1Row = storeValues.findIndex((row) => row.includes(c1Task ?? '-'));
    const rewritten = String(storeValues[c1Row][reportAt]).replace(/"markdown":"[^"]*/, '"markdown":"Forged: all good');
    store.setValues(`${String.fromCharCode(65 + reportAt)}${c1Row + 1}`, [[rewritten]]);

    append(runtime, [c0, c1, c2, c4]);
    const fresh = unresearched(runtime);
    expect(offer(runtime, fresh, 30)?.reusable).toMatchObject({ rows: 1, questions: 1 });
    const before = await oracleTotals(suite);
    // c0's record and c1's report read as nothing: c0 and c4 are paid; c1's contact is left as already researched
    // (its record holds that company), for the user to research again or not; only c2's result is reused.
    const answer = launchAnswering(runtime, fresh, { days: 30, use: true, tasks: 3 });
    expect(answer).toMatchObject({ ok: true, created: 2, reused: 1 });
    const c1Contact = fresh[1];
    expect(answer.skippedDone.map((skipped) => skipped.row)).toEqual([c1Contact]);
    expect((await oracleTotals(suite)).reserved - before.reserved).toBe(20);
    await runUntilSettled(suite, runtime);
    const byBrief = await tasksByBrief();
    expect([c0, c1, c2, c4].map((domain) => byBrief.get(`Research ${domain}`)?.length)).toEqual([2, 1, 1, 1]);
    const statuses = column(runtime, 'Status');
    const reports = column(runtime, 'Report');
    const domainsNow = column(runtime, 'Domain');
    for (const row of fresh.filter((one) => one !== c1Contact)) {
      const domain = domainsNow[row - 2];
      expect(reports[row - 2]).toContain(domain);
      expect(REUSED.test(statuses[row - 2])).toBe(domain === c2);
    }
    expect(statuses[c1Contact - 2]).toBe('');
    expect(reports.some((report) => report.includes('Forged'))).toBe(false);
  });
});
