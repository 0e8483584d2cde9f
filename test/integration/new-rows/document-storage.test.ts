// Issue 45, point 2, through the built bundle (a published add-on, hourly timers, every panel closed) against the
// sandbox: editor B saves research on new rows with a 9,000-character brief and 50 long field descriptions on sheet
// after sheet while editor A's weekly watch is due. Research on new rows is held to the storage budgets (a saved
// research's size, what one editor keeps), refused with the figures; A's timer never fails and A's paid watch run is
// collected. And whatever fills the document's properties, a timer run never fails: research is collected first,
// nothing paid starts while its records cannot be written, and the Research panel says what stopped and why.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { NewRowsResearchRequest } from '../../../src/new-rows/contract';
import type { ResearchStatusDto } from '../../../src/research/contract';
import { sandboxSuite } from '../harness';
import { advance, column, launch, oracleTotals, poll, REPORT_OUTPUT, runtimeFor, SHEET } from '../research/harness';
import { watch } from '../scheduler/fleet';
import { appendRows, enrichSheet, keepNewRows, newRowsOf, researchNewRows, rowsOf } from './harness';

jest.setTimeout(300_000);
const suite = sandboxSuite({ clock: 'manual' });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const A = 'ana@example.com';
const B = 'ben@example.com';
const A_TOKEN = 'sbx_pro_token';

/** Research on new rows whose brief has `briefChars` characters and 50 fields described in `descriptionChars`. */
function research(briefChars: number, descriptionChars: number): Omit<NewRowsResearchRequest, 'confirmed'> {
  return {
    template: `Research {Website}. ${'x'.repeat(briefChars)}`,
    depth: 'medium',
    output: {
      kind: 'fields',
      statusHeader: 'B status',
      fields: Array.from({ length: 50 }, (_, i) => ({
        name: `f${i}`,
        type: 'string' as const,
        required: false,
        evidence: false,
        description: 'd'.repeat(descriptionChars),
      })),
      schemaText: '',
      columns: {},
    },
    monthlyLimit: 100,
  };
}

/** A spreadsheet of A's (Accounts: six companies, enriched, rows 2-4 watched weekly from the day after tomorrow). */
async function spreadsheet(): Promise<{ rt: GasRuntime; domains: string[] }> {
  await suite.control.setAccount('sandbox-pro', { credits: 10_000 });
  const companies = await suite.control.companies(40, true);
  const rt = await runtimeFor(
    suite,
    [['Company', 'Domain'], ...companies.slice(0, 6).map((company) => [company.name, company.domain])],
    A_TOKEN,
    { addOn: true, users: [B] },
  );
  rt.properties.user(B).set(SETTINGS_KEYS.token, 'sbx_pro2_token');
  rt.properties.user(B).set(SETTINGS_KEYS.baseUrl, suite.control.url);
  const accounts = rt.spreadsheet.sheet(SHEET);
  rt.spreadsheet.selection = { sheet: accounts, rect: { row: 1, column: 2, numRows: 1, numColumns: 1 } };
  enrichSheet(rt);
  expect(watch(rt, 3, new Date(rt.clock.now() + 2 * DAY).getUTCDay()).ok).toBe(true);
  return { rt, domains: companies.map((company) => company.domain) };
}

/** B's sheet "Leads n" of two companies, enriched and keeping its new rows enriched. */
function leadsSheet(rt: GasRuntime, n: number, domains: string[]): void {
  const model = rt.spreadsheet.insertSheet(`Leads ${n}`);
  model.setValues('A1:A3', [['Website'], [domains[0]], [domains[1]]]);
  rt.spreadsheet.activeSheet = model;
  rt.spreadsheet.selection = { sheet: model, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
  enrichSheet(rt);
  expect(keepNewRows(rt, true, B)).toMatchObject({ ok: true });
}

/** Hours of hourly timers: how many runs of A's timer there were, and the errors of those that failed. */
async function hoursOfTimers(rt: GasRuntime, hours: number, each?: (hour: number) => void) {
  const owners = new Map(rt.triggers.list().map((trigger) => [trigger.id, trigger.owner]));
  const runs = { ofA: 0, failed: [] as string[] };
  for (let hour = 0; hour < hours; hour++) {
    await advance(suite, rt, HOUR);
    for (const fired of rt.triggers.fireDue()) {
      if (!fired.ok) runs.failed.push(String(fired.error));
      if (owners.get(fired.triggerId) === A) runs.ofA += 1;
    }
    each?.(hour);
  }
  return runs;
}

/** The Status cells of the watched rows (2-4). */
const watchedStatuses = (rt: GasRuntime) => column(rt, 'Status').slice(0, 3);

describe("another editor cannot fill the document's storage and stop a user's timer (issue 45, point 2)", () => {
  it("refuses B's oversized and over-budget research with the figures; A's timer runs every hour, its watch is collected", async () => {
    const { rt, domains } = await spreadsheet();
    for (let n = 1; n <= 6; n++) leadsSheet(rt, n, domains.slice(6 + 2 * n, 8 + 2 * n));
    // A 9,000-character brief with 50 long field descriptions: refused, with the figures, before the cost is asked.
    rt.spreadsheet.activeSheet = rt.spreadsheet.sheet('Leads 1');
    const huge = researchNewRows(rt, research(9_000, 600), B);
    expect(huge).toMatchObject({ ok: false });
    expect(huge.ok ? '' : huge.message).toMatch(
      /^Nothing was saved: this brief and its output take 4\d\.\d KB of Sheet Scout's storage in this spreadsheet, and research saved on new rows may take 16\.0 KB\. Shorten the brief or the fields' descriptions\.$/,
    );
    // Saves under the cap, sheet after sheet: what one editor keeps is held to 64 KB.
    const answers = [1, 2, 3, 4, 5].map((n) => {
      rt.spreadsheet.activeSheet = rt.spreadsheet.sheet(`Leads ${n}`);
      return researchNewRows(rt, research(3_000, 150), B);
    });
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true, true, false]);
    const refused = answers[4];
    expect(refused.ok ? '' : refused.message).toMatch(
      /^Nothing was saved: what pro2@sandbox\.example\.com saved for Keep enriching new rows .* takes 5\d\.\d KB of the 64\.0 KB each editor may keep in this spreadsheet's Sheet Scout storage, and this would make it 7\d\.\d KB\. Stop research on another sheet's new rows/,
    );
    expect(rt.properties.document.size()).toBeLessThan(100 * 1024);

    // A week and more: B's sheets get new rows (each check writes that sheet's setting), A's watch run comes due.
    const runs = await hoursOfTimers(rt, 8 * 24, (hour) => {
      if (hour % 12 === 0) appendRows(rt, `Leads ${1 + ((hour / 12) % 6)}`, [[domains[20 + hour / 12]]]);
    });
    expect(runs.failed).toEqual([]);
    expect(runs.ofA).toBe(8 * 24);
    // A's paid watch run was created and collected: its rows hold what the sandbox charged.
    const oracle = await oracleTotals(suite, A_TOKEN);
    expect(oracle.reserved).toBe(30);
    expect(watchedStatuses(rt).every((status) => /^Done \(\d+ credits\)$/.test(status))).toBe(true);
    const shown = watchedStatuses(rt).reduce((sum, status) => sum + Number(/\d+/.exec(status)?.[0]), 0);
    expect(shown).toBe(oracle.charged);
  });

  it('whatever fills the properties, no timer run fails: research is collected first, nothing paid starts, the panel says why', async () => {
    const { rt, domains } = await spreadsheet();
    rt.spreadsheet.activeSheet = rt.spreadsheet.sheet(SHEET);
    expect(keepNewRows(rt)).toMatchObject({ ok: true });
    // A's research on rows 5-6 is running when the document's properties fill up (values of another feature's,
    // short of the 500 KB by 600 bytes).
    expect(launch(rt, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [5, 6])).toMatchObject(
      {
        ok: true,
        created: 2,
      },
    );
    const document = rt.properties.document;
    for (let i = 0; 500 * 1024 - document.size() > 600 + 8_100; i++)
      document.set(`sheetscout.enrich.lastRun.${9000 + i}`, 'x'.repeat(8_000));
    const filler = 500 * 1024 - document.size() - 40 - 40;
    document.set('sheetscout.enrich.lastRun.8999', 'x'.repeat(Math.max(0, filler)));
    appendRows(rt, SHEET, [['', domains[30]]]);

    const runs = await hoursOfTimers(rt, 3 * 24);
    expect(runs.failed).toEqual([]);
    // What was paid for is collected first (its rows are written even though the bookkeeping after it fails)...
    expect(
      column(rt, 'Status')
        .slice(3, 5)
        .every((status) => /^Done \(\d+ credits\)$/.test(status)),
    ).toBe(true);
    // ...and the watch run that came due starts nothing while research's records cannot be written.
    expect((await suite.control.tasks(A_TOKEN)).length).toBe(2);
    const stopped = rt.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' }).timerStopped;
    expect(stopped).toEqual([
      expect.stringMatching(
        /^Collecting research results stopped in the timer's run of .* \(failing since .*\): Sheet Scout's storage in this spreadsheet is full/,
      ),
      expect.stringMatching(
        /^Account watch runs stopped in the timer's run of .*: paid work not started, so that nothing is paid for that could not be collected: collecting research results failed first \(Sheet Scout's storage/,
      ),
      expect.stringMatching(
        /^Keep enriching new rows stopped in the timer's run of .*: Sheet Scout's storage in this spreadsheet is full/,
      ),
    ]);
    expect(newRowsOf(rt)).toMatchObject({
      newRows: { problem: { text: expect.stringMatching(/^The timer's checks stopped: Sheet Scout's storage/) } },
    });

    // Room again: the next runs collect what was paid and the watch runs.
    for (const key of document.keys()) if (key.startsWith('sheetscout.enrich.lastRun.')) document.delete(key);
    const after = await hoursOfTimers(rt, 7 * 24);
    expect(after.failed).toEqual([]);
    expect(
      column(rt, 'Status')
        .slice(3, 5)
        .every((status) => /^Done \(\d+ credits\)$/.test(status)),
    ).toBe(true);
    expect(watchedStatuses(rt).every((status) => /^Done \(\d+ credits\)$/.test(status))).toBe(true);
    expect(poll(rt).timerStopped).toEqual([]);
    expect(rowsOf(rt, SHEET, 'Domain', domains[30])[0].Employees).not.toBe('');
    expect(newRowsOf(rt)).toMatchObject({ newRows: { problem: null } });
  });
});
