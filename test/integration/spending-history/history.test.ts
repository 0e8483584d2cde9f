// Settings > Spending through the built bundle, the emulator and the sandbox: every run that reserved credits (two
// editors' launches, a task that fails, an account watch run started by the timer with every panel closed, a lost
// create sent again with Send anyway) is listed newest first with the account that started it, and each run's credits
// are what the sandbox's own money record says its tasks reserved, charged and refunded. The export writes plain
// values into the sheet the user names and asks before replacing one that holds data. Neither token appears in any
// cell, note or log.
import { createManualClock, type GasRuntime } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { SpendingExportAnswer, SpendingHistoryDto } from '../../../src/spending-history/contract';
import type { UnconfirmedActionResponse } from '../../../src/research/contract';
import { EXPORT_HEADERS } from '../../../src/spending-history/service';
import { closeAfterTest, runtimeFor, sandboxSuite, USER } from '../harness';
import { advance, poll, runUntilSettled, SHEET, tick } from '../research/harness';
import { agrees, historyAgainstService } from './oracle';
import { fleet, hoursPass, watch, DAY } from '../scheduler/fleet';
import { secretsShown } from '../secrets';

jest.setTimeout(180_000);

const suite = sandboxSuite({ clock: 'manual' });
const EDITOR = 'ben@example.com';
const TOKENS = ['sbx_pro_token', 'sbx_pro2_token'];
const output = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };

async function twoEditors(rows: string[]): Promise<GasRuntime> {
  const rt = closeAfterTest(
    runtimeFor(suite.control.url, {
      sheets: { [SHEET]: [['Domain'], ...rows.map((domain) => [domain])] },
      minRows: 100,
      users: [EDITOR],
      clock: createManualClock(await suite.control.now()),
    }),
  );
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.token, 'sbx_pro2_token');
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.baseUrl, suite.control.url);
  return rt;
}

function launchAs(rt: GasRuntime, user: string, rows: number[], depth = 'medium'): void {
  const sheetId = rt.spreadsheet.sheet(SHEET).sheetId;
  const answer = rt.run<{ ok: boolean; message: string }>(
    'launchResearch',
    [{ template: 'Research {Domain}', depth, output, sheetId, rows }],
    { kind: 'sidebar', user },
  );
  if (!answer.ok) throw new Error(answer.message);
}

describe('spending history (integration)', () => {
  it("lists two editors' launches newest first, each by its account, with the service's credits", async () => {
    const domains = (await suite.control.companies(4)).map((company) => company.domain);
    // "asdf" names no company: its task fails and gives everything back.
    const rt = await twoEditors([...domains, 'asdf']);
    launchAs(rt, USER, [2, 3, 6]);
    await advance(suite, rt, 60_000);
    launchAs(rt, EDITOR, [4, 5], 'high');
    const running = rt.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar', user: EDITOR });
    expect(running.runs.map((run) => [run.kind, run.startedBy, run.rows, run.reserved, run.open])).toEqual([
      ['launch', 'pro2@sandbox.example.com', 2, 60, 2],
      ['launch', 'pro@sandbox.example.com', 3, 30, 3],
    ]);
    await runUntilSettled(suite, rt);
    const compared = await historyAgainstService(suite.control, rt, TOKENS, USER);
    expect(compared.map(({ run }) => [run.startedBy, run.sheetName, run.open])).toEqual([
      ['pro2@sandbox.example.com', SHEET, 0],
      ['pro@sandbox.example.com', SHEET, 0],
    ]);
    for (const { run, service } of compared)
      expect({ reserved: run.reserved, charged: run.charged, givenBack: run.givenBack }).toEqual({
        reserved: service.reserved,
        charged: service.charged,
        givenBack: service.givenBack,
      });
    expect(compared.every(agrees)).toBe(true);
    // The failed task gave everything back: Ana's run was charged for two tasks only.
    expect(compared[1].service.tasks).toBe(3);
    expect(compared[1].run.givenBack).toBeGreaterThan(10);
    expect(secretsShown(rt, TOKENS)).toEqual([]);
  });

  it('exports plain values into the sheet the user names, and asks before replacing one that holds data', async () => {
    const domains = (await suite.control.companies(2)).map((company) => company.domain);
    const rt = await twoEditors(['=cmd|calc', ...domains]);
    launchAs(rt, USER, [3, 4]);
    await runUntilSettled(suite, rt);
    const exported = (sheetName: string, replace = false) =>
      rt.run<SpendingExportAnswer>('exportSpendingHistory', [{ sheetName, replace }], { kind: 'sidebar' });
    expect(exported('Spending')).toEqual({ ok: true, message: 'Exported 1 run to "Spending" (values, no formulas)' });
    const sheet = rt.spreadsheet.sheet('Spending');
    const [run] = rt.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' }).runs;
    const values = sheet.getValues();
    expect(values[0].slice(0, EXPORT_HEADERS.length)).toEqual(EXPORT_HEADERS);
    expect(values[1].slice(1, 12)).toEqual([
      'Research launch',
      'pro@sandbox.example.com',
      SHEET,
      2,
      run.reserved,
      run.charged,
      run.givenBack,
      0,
      0,
      0,
      run.id,
    ]);
    expect(
      sheet
        .getFormulas()
        .flat()
        .every((formula) => formula === ''),
    ).toBe(true);
    // A sheet holding data is replaced only when the user confirms; the add-in's own sheets never.
    rt.spreadsheet.sheet(SHEET).setValues('A1', [['Domain']]);
    expect(exported(SHEET)).toMatchObject({ ok: false, confirmReplace: true });
    expect(rt.spreadsheet.sheet(SHEET).getValues()[2][0]).toBe(domains[0]);
    expect(exported('Spending', true)).toMatchObject({ ok: true });
    expect(exported('Sheet Scout research ledger')).toMatchObject({ ok: false });
    expect(exported('Sheet Scout research ledger').confirmReplace).toBeUndefined();
  });

  it('lists a watch run the timer started with every panel closed as its saver’s, with the service’s credits', async () => {
    const kept = await fleet(suite, 1, { rows: 3 });
    const [doc] = kept.docs;
    const saved = watch(doc, 3, new Date(kept.clock.now() + DAY).getUTCDay());
    expect(saved.ok).toBe(true);
    await hoursPass(suite, kept, 30);
    const compared = await historyAgainstService(suite.control, doc, TOKENS);
    expect(compared.map(({ run }) => [run.kind, run.startedBy, run.rows, run.open])).toEqual([
      ['watch', 'pro@sandbox.example.com', 3, 0],
    ]);
    expect(compared[0].service.tasks).toBe(3);
    expect(compared.every(agrees)).toBe(true);
    await kept.project.close();
  });

  it('moves a lost create sent again to a Send anyway run, the first counted as unknown', async () => {
    const [company] = await suite.control.companies(1);
    const rt = await twoEditors([company.domain]);
    await suite.control.setFault({ route: 'tasks.create', dropAfterServeRate: 1, count: 1 });
    await suite.control.setFault({ route: 'tasks.list', listLagMs: 24 * 3_600_000 });
    launchAs(rt, USER, [2]);
    for (let minute = 0; minute < 31; minute++) {
      await advance(suite, rt, 60_000);
      tick(rt);
    }
    const [row] = poll(rt).rows;
    expect(row.state).toBe('unconfirmed');
    const sent = rt.run<UnconfirmedActionResponse>('sendUnconfirmedResearchAnyway', [[row.entryId]], {
      kind: 'sidebar',
      user: EDITOR,
    });
    expect(sent.ok).toBe(true);
    await suite.control.clearFaults();
    await runUntilSettled(suite, rt);
    const compared = await historyAgainstService(suite.control, rt, TOKENS);
    expect(compared.map(({ run }) => [run.kind, run.startedBy, run.reserved, run.unknown, run.open])).toEqual([
      ['send-anyway', 'pro2@sandbox.example.com', 10, 0, 0],
      ['launch', 'pro@sandbox.example.com', 0, 1, 0],
    ]);
    expect(compared.every(agrees)).toBe(true);
  });
});
