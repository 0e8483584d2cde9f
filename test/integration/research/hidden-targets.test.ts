// The add-in's own hidden sheets are never the target of work that writes into them (issue 37, point 4), through the
// built bundle, the emulator and the sandbox over HTTP, with two editors: editor A's research fills the ledger; editor
// B aims a launch, a watch and an enrichment at the ledger sheet (a request any editor's panel can send, with its
// sheet id) and each is refused before anything is created, reserved or written; a hidden sheet of the user's own is
// refused with its own message.
import { createManualClock, type GasRuntime } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { StartResult } from '../../../src/enrichment/contract';
import type { LaunchResponse, WatchAnswer } from '../../../src/research/contract';
import { closeAfterTest, runtimeFor, sandboxSuite } from '../harness';
import { REPORT_OUTPUT, SHEET, USER } from './harness';

const suite = sandboxSuite({ clock: 'manual' });
const EDITOR = 'ben@example.com';
const TOKEN = 'sbx_pro_token';
const LEDGER = 'Sheet Scout research ledger';
const FIELDS = {
  kind: 'fields',
  statusHeader: 'Status',
  fields: [{ name: 'employee_count', type: 'string', required: true, evidence: false }],
  schemaText: '',
  columns: {},
} as const;

async function twoEditors(domains: string[]): Promise<GasRuntime> {
  const rt = closeAfterTest(
    runtimeFor(suite.control.url, {
      sheets: { [SHEET]: [['Domain'], ...domains.map((domain) => [domain])], Private: [['Domain'], [domains[0]]] },
      minRows: 100,
      user: USER,
      users: [EDITOR],
      clock: createManualClock(await suite.control.now()),
    }),
  );
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.token, TOKEN);
  rt.properties.user(EDITOR).set(SETTINGS_KEYS.baseUrl, suite.control.url);
  return rt;
}

const sheetIdOf = (rt: GasRuntime, name: string) => rt.spreadsheet.sheet(name).sheetId;
const taskCount = async () => (await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;

describe("the add-in's own sheets as targets (integration, two editors)", () => {
  it('a launch, a watch and an enrichment aimed at the ledger sheet are refused before anything is spent', async () => {
    const domains = (await suite.control.companies(3)).map((company) => company.domain);
    const rt = await twoEditors(domains);
    const launched = rt.run<LaunchResponse>(
      'launchResearch',
      [
        {
          template: 'Research {Domain}',
          depth: 'medium',
          output: REPORT_OUTPUT,
          sheetId: sheetIdOf(rt, SHEET),
          rows: [2, 3, 4],
        },
      ],
      { kind: 'sidebar', user: USER },
    );
    expect(launched).toMatchObject({ ok: true, created: 3 });
    const ledger = rt.spreadsheet.sheet(LEDGER);
    expect(ledger.hidden).toBe(true);
    const ledgerBefore = ledger.getValues().map((row) => [...row]);
    const tasks = await taskCount();
    const credits = await suite.control.credits(TOKEN);

    // Editor B's launch into the ledger's rows (its header row holds the ledger's columns; row 2 is A's record).
    const intoLedger = rt.run<LaunchResponse>(
      'launchResearch',
      [
        {
          template: 'Research {Domain}',
          depth: 'medium',
          output: REPORT_OUTPUT,
          sheetId: ledger.sheetId,
          rows: [2, 3],
        },
      ],
      { kind: 'sidebar', user: EDITOR },
    );
    expect(intoLedger).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Sheet Scout keeps its own records in that hidden sheet: pick one of your sheets/),
    });
    const watched = rt.run<WatchAnswer>(
      'saveResearchWatch',
      [
        {
          sheetId: ledger.sheetId,
          rows: [2, 3],
          template: 'Research {Domain}',
          depth: 'medium',
          output: FIELDS,
          cadence: 'weekly',
          weekday: 3,
          confirmedCreditsPerRun: 20,
        },
      ],
      { kind: 'sidebar', user: EDITOR },
    );
    expect(watched).toMatchObject({
      ok: false,
      message: 'Sheet Scout keeps its own records in that hidden sheet: pick one of your sheets',
    });
    // An enrichment started with the ledger sheet active (an editor unhid it and selected it).
    rt.spreadsheet.activeSheet = ledger;
    rt.spreadsheet.selection = { sheet: ledger, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
    const enriched = rt.run<StartResult>('startEnrichment', [{ fields: ['company_name'] }], {
      kind: 'sidebar',
      user: EDITOR,
    });
    expect(enriched).toMatchObject({ ok: false, message: expect.stringMatching(/keeps its own records/) });

    expect(await taskCount()).toBe(tasks);
    expect(await suite.control.credits(TOKEN)).toBe(credits);
    expect(ledger.getValues()).toEqual(ledgerBefore);
    expect(rt.run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar', user: USER }).watch).toBeNull();
  });

  it("a hidden sheet of the user's own is refused with its own message", async () => {
    const domains = (await suite.control.companies(2)).map((company) => company.domain);
    const rt = await twoEditors(domains);
    rt.spreadsheet.sheet('Private').hidden = true;
    const launched = rt.run<LaunchResponse>(
      'launchResearch',
      [
        {
          template: 'Research {Domain}',
          depth: 'medium',
          output: REPORT_OUTPUT,
          sheetId: sheetIdOf(rt, 'Private'),
          rows: [2],
        },
      ],
      { kind: 'sidebar', user: USER },
    );
    expect(launched).toMatchObject({
      ok: false,
      message: expect.stringMatching(/"Private" is hidden: unhide it first, or pick another sheet/),
    });
    expect(await taskCount()).toBe(0);
  });
});
