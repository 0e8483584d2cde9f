// Research on new rows (issue 40, item 1) through the built bundle in the emulator's published add-on mode against the
// sandbox on a shared manual clock, every panel closed once it is saved: nothing is saved before its figures are
// confirmed; it researches new rows within its monthly limit (every row at its full reservation) and within the
// spreadsheet's spending cap, as the sandbox's money record shows; it is paid by the editor who confirmed it and
// launched from their timer only (another editor's timer fills the rows and leaves their research); an editor who
// wants it otherwise confirms it, and pays, themselves.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { NewRowsAnswer, NewRowsResearchRequest } from '../../../src/new-rows/contract';
import { sandboxSuite } from '../harness';
import { advance, oracleTotals, REPORT_OUTPUT, runtimeFor, SHEET, USER } from '../research/harness';
import { appendRows, enrichSheet, keepNewRows, newRowsOf, researchNewRows, rowsOf } from './harness';

const suite = sandboxSuite({ clock: 'manual' });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const A_TOKEN = 'sbx_pro_token';
const B_TOKEN = 'sbx_pro2_token';
const EDITOR = 'ben@example.com';
const LEADS = 'Leads';

const RESEARCH: Omit<NewRowsResearchRequest, 'confirmed'> = {
  template: 'Research {Website}',
  depth: 'medium',
  output: REPORT_OUTPUT,
  monthlyLimit: 30,
};

let rt: GasRuntime;

async function hoursUntil(at: number): Promise<void> {
  while (rt.clock.now() < at) {
    await advance(suite, rt, Math.min(HOUR, at - rt.clock.now()));
    for (const fired of rt.triggers.fireDue()) if (!fired.ok) throw new Error(String(fired.error));
  }
}

function activate(sheet: string): void {
  const model = rt.spreadsheet.sheet(sheet);
  rt.spreadsheet.activeSheet = model;
  rt.spreadsheet.selection = { sheet: model, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
}

/** Two editors (A with sandbox-pro's token, B with its colleague's) of a spreadsheet whose sheets are enriched. */
async function spreadsheetOf(listed: string[], sheets: string[] = [SHEET]): Promise<void> {
  await suite.control.setAccount('sandbox-pro', { credits: 10_000 });
  await suite.control.setAccount('sandbox-pro-2', { credits: 10_000 });
  rt = await runtimeFor(suite, [['Website'], ...listed.map((domain) => [domain])], A_TOKEN, {
    addOn: true,
    users: [EDITOR],
  });
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.token, B_TOKEN);
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.baseUrl, suite.control.url);
  for (const sheet of sheets) {
    if (sheet !== SHEET)
      rt.spreadsheet.insertSheet(sheet).setValues(`A1:A${listed.length + 1}`, [['Website'], ...listed.map((d) => [d])]);
    activate(sheet);
    enrichSheet(rt);
    expect(keepNewRows(rt)).toMatchObject({ ok: true });
  }
}

const statusOf = (sheet: string, domain: string) => String(rowsOf(rt, sheet, 'Website', domain)[0]?.Status ?? '');
const researchOf = (user?: string) => (newRowsOf(rt, user) as Extract<NewRowsAnswer, { ok: true }>).newRows?.research;
/** The briefs of the tasks the money record has `token` paying for (its organization's list shows a colleague's too). */
async function briefsOf(token: string): Promise<string[]> {
  const paid = new Set((await suite.control.ledger(token)).days.flatMap((day) => day.tasks.map((task) => task.id)));
  const tasks = await suite.control.tasks(token);
  return tasks
    .filter((task) => paid.has(task.id))
    .map((task) => task.brief)
    .sort();
}

describe('research on new rows (integration, add-on mode)', () => {
  it('is saved once confirmed, and researches new rows within its monthly limit by the money record', async () => {
    const companies = await suite.control.companies(10, true);
    await spreadsheetOf(companies.slice(0, 2).map((company) => company.domain));
    const ask = (confirmed: NewRowsResearchRequest['confirmed']) =>
      rt.run<{ ok: boolean; confirm: unknown }>('saveNewRowsResearch', [{ ...RESEARCH, confirmed }], {
        kind: 'sidebar',
      });
    expect(ask(null)).toMatchObject({ ok: true, confirm: { creditsPerRow: 10, monthlyLimit: 30, rowsPerMonth: 3 } });
    // A figure other than the one shown asks again; nothing is saved meanwhile.
    expect(ask({ creditsPerRow: 10, monthlyLimit: 20 })).toMatchObject({ ok: true, confirm: { monthlyLimit: 30 } });
    expect(researchOf()).toBeNull();
    const saved = researchNewRows(rt, RESEARCH);
    expect(saved).toMatchObject({ ok: true, confirm: null });
    expect(researchOf()).toMatchObject({ monthlyLimit: 30, creditsPerRow: 10, savedBy: 'pro@sandbox.example.com' });

    const added = companies.slice(2, 7).map((company) => company.domain);
    appendRows(
      rt,
      SHEET,
      added.map((domain) => [domain]),
    );
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    const researched = added.filter((domain) => statusOf(SHEET, domain) !== '');
    expect(researched).toHaveLength(3);
    // Every added row got its fields; the research went to the rows whose companies the tasks were about.
    for (const company of companies.slice(2, 7))
      expect(rowsOf(rt, SHEET, 'Website', company.domain)[0]['Company name']).toBe(company.name);
    expect(await briefsOf(A_TOKEN)).toEqual(researched.map((domain) => `Research ${domain}`).sort());
    const shown = researchOf();
    expect(shown?.lastRun?.text).toBe(
      "Researching 3 new rows; 2 new rows not researched: this month's limit is reached (they are filled; " +
        'Research > Launch researches them)',
    );
    const oracle = await oracleTotals(suite, A_TOKEN);
    expect(oracle.reserved).toBe(30);
    expect(shown?.reservedThisMonth).toBe(oracle.reserved);
    expect(oracle.charged).toBeLessThanOrEqual(RESEARCH.monthlyLimit);

    // Turned off and on again the same month, the month's reservations stay: nothing more is researched.
    expect(keepNewRows(rt, false)).toMatchObject({ ok: true });
    expect(keepNewRows(rt)).toMatchObject({ ok: true });
    expect(researchNewRows(rt, RESEARCH)).toMatchObject({ ok: true });
    expect(researchOf()?.reservedThisMonth).toBe(30);
    appendRows(rt, SHEET, [[companies[7].domain]]);
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    expect(statusOf(SHEET, companies[7].domain)).toBe('');
    expect((await oracleTotals(suite, A_TOKEN)).reserved).toBe(30);

    // The next month the limit holds three rows again (a month with the panels closed: the timer's missed runs skipped).
    await advance(suite, rt, 31 * DAY);
    appendRows(rt, SHEET, [[companies[8].domain], [companies[9].domain]]);
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    expect(statusOf(SHEET, companies[8].domain)).not.toBe('');
    expect(statusOf(SHEET, companies[9].domain)).not.toBe('');
    expect(researchOf()?.reservedThisMonth).toBe(20);
    expect((await oracleTotals(suite, A_TOKEN)).reserved).toBe(50);
  });

  it("is paid by the editor who confirmed it, from their timer only; another editor's timer leaves it", async () => {
    const companies = await suite.control.companies(9, true);
    await spreadsheetOf(
      companies.slice(0, 2).map((company) => company.domain),
      [SHEET, LEADS],
    );
    activate(SHEET);
    expect(researchNewRows(rt, { ...RESEARCH, monthlyLimit: 100 })).toMatchObject({ ok: true });
    // B saves research on the other sheet: their own timer, their account.
    activate(LEADS);
    expect(researchNewRows(rt, { ...RESEARCH, monthlyLimit: 100 }, EDITOR)).toMatchObject({ ok: true });
    expect(researchOf(EDITOR)?.savedBy).toBe('pro2@sandbox.example.com');
    const owners = new Set(rt.triggers.list().map((trigger) => trigger.owner));
    expect(owners).toEqual(new Set([USER, EDITOR]));

    appendRows(rt, SHEET, [[companies[2].domain], [companies[3].domain]]);
    appendRows(rt, LEADS, [[companies[4].domain], [companies[5].domain]]);
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    const briefs = (from: number) => [`Research ${companies[from].domain}`, `Research ${companies[from + 1].domain}`];
    expect(await briefsOf(A_TOKEN)).toEqual(briefs(2).sort());
    expect(await briefsOf(B_TOKEN)).toEqual(briefs(4).sort());
    expect((await oracleTotals(suite, A_TOKEN)).reserved).toBe(20);
    expect((await oracleTotals(suite, B_TOKEN)).reserved).toBe(20);

    // B wants the first sheet's research otherwise: they confirm it, and from then on they pay for it.
    activate(SHEET);
    expect(researchNewRows(rt, { ...RESEARCH, monthlyLimit: 50 }, EDITOR)).toMatchObject({ ok: true });
    appendRows(rt, SHEET, [[companies[6].domain]]);
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    expect(statusOf(SHEET, companies[6].domain)).not.toBe('');
    expect((await oracleTotals(suite, A_TOKEN)).reserved).toBe(20);
    expect((await oracleTotals(suite, B_TOKEN)).reserved).toBe(30);
  });

  it("leaves out the rows the spreadsheet's spending cap has no room for", async () => {
    const companies = await suite.control.companies(6, true);
    await spreadsheetOf(companies.slice(0, 2).map((company) => company.domain));
    rt.run('setSpendingGuard', [{ daily: null, monthly: 20 }], { kind: 'sidebar' });
    expect(researchNewRows(rt, { ...RESEARCH, monthlyLimit: 100 })).toMatchObject({ ok: true });
    appendRows(
      rt,
      SHEET,
      companies.slice(2, 6).map((company) => [company.domain]),
    );
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    const researched = companies.slice(2, 6).filter((company) => statusOf(SHEET, company.domain) !== '');
    expect(researched).toHaveLength(2);
    expect(researchOf()?.lastRun?.text).toMatch(
      /^Researching 2 new rows; Not researched: 2 rows left out by this spreadsheet's research spending cap$/,
    );
    const oracle = await oracleTotals(suite, A_TOKEN);
    expect(oracle.reserved).toBe(20);
    expect(researchOf()?.reservedThisMonth).toBe(20);
  });

  it("is launched again after its payer's timer was deleted, once the payer opens the panel", async () => {
    const companies = await suite.control.companies(4, true);
    await spreadsheetOf(companies.slice(0, 2).map((company) => company.domain));
    expect(researchNewRows(rt, { ...RESEARCH, monthlyLimit: 100 })).toMatchObject({ ok: true });
    for (const trigger of rt.triggers.list()) rt.triggers.remove(trigger.id);
    appendRows(rt, SHEET, [[companies[2].domain]]);
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    // No timer: nothing ran with the panels closed, and nothing was paid.
    expect(rowsOf(rt, SHEET, 'Website', companies[2].domain)[0]['Company name']).toBe('');
    expect((await oracleTotals(suite, A_TOKEN)).reserved).toBe(0);
    // The payer opens the panel: their timer is made again and the row is filled and researched.
    expect(newRowsOf(rt)).toMatchObject({ ok: true, timerNote: null });
    expect(rt.triggers.list().map((trigger) => trigger.owner)).toEqual([USER]);
    expect(researchOf()?.savedBy).toBe('pro@sandbox.example.com');
    await hoursUntil(rt.clock.now() + 2 * HOUR);
    expect(rowsOf(rt, SHEET, 'Website', companies[2].domain)[0]['Company name']).toBe(companies[2].name);
    expect(statusOf(SHEET, companies[2].domain)).not.toBe('');
    expect((await oracleTotals(suite, A_TOKEN)).reserved).toBe(10);
  });
});
