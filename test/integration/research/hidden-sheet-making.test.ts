// A hidden sheet's making cut short (the six-minute limit) through the built bundle, the emulator and the sandbox over
// HTTP: insertSheet shows the new sheet and makes it the active one, so an execution cut before it hid the sheet and
// gave the user's sheet back left an internal sheet shown, and in the user's place (a panel then read the add-in's
// sheet as the user's). A document's first launch makes the hidden sheets it writes (the ledger, the task index); it
// is cut at each call from just before each of them is made to just after its header is written. The next execution (the panel's poll) leaves every
// internal sheet hidden and the user's sheet active, and the user's launch again researches each row once.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { INTERNAL_SHEET_NAMES } from '../../../src/shared/storage/internal-sheets';
import { sandboxSuite } from '../harness';
import { column, launch, poll, REPORT_OUTPUT, runtimeFor, runUntilSettled, SHEET, sheetId } from './harness';

const suite = sandboxSuite({ clock: 'manual' });
const ROWS = [2, 3, 4];
const REQUEST = { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT } as const;

async function freshDocument(): Promise<GasRuntime> {
  await suite.control.reset();
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
  const companies = await suite.control.companies(ROWS.length);
  return runtimeFor(suite, [['Domain'], ...companies.map((company) => [company.domain])]);
}

/** The launch's execution, cut before its service call `killAtServiceCall` (or not cut); the calls of its sheets' making. */
function launchCut(runtime: GasRuntime, killAtServiceCall?: number): number[] {
  const made: number[] = [];
  runtime.run('launchResearch', [{ ...REQUEST, sheetId: sheetId(runtime), rows: ROWS }], {
    kind: 'sidebar',
    killAtServiceCall,
    onServiceCall: ({ index, method }) => {
      if (method === 'insertSheet') made.push(index);
    },
  });
  return made;
}

/** The internal sheets the document holds, and whether each is hidden. */
const internalSheets = (runtime: GasRuntime) =>
  runtime.spreadsheet.sheets
    .filter((sheet) => INTERNAL_SHEET_NAMES.includes(sheet.name))
    .map((sheet) => ({ name: sheet.name, hidden: sheet.hidden }));

describe("a hidden sheet's making cut short", () => {
  it('is finished by the next execution: every internal sheet hidden, the user sheet active, each row paid once', async () => {
    const made = launchCut(await freshDocument());
    expect(made.length).toBeGreaterThanOrEqual(2);
    const cuts = made.flatMap((call) => [-2, -1, 0, 1, 2, 3, 4, 5].map((step) => call + step));
    for (const killAtServiceCall of cuts) {
      const runtime = await freshDocument();
      expect(() => launchCut(runtime, killAtServiceCall)).toThrow('Exceeded maximum execution time');
      poll(runtime);
      expect({
        killAtServiceCall,
        active: runtime.spreadsheet.activeSheet.name,
        sheets: internalSheets(runtime),
      }).toEqual({
        killAtServiceCall,
        active: SHEET,
        sheets: internalSheets(runtime).map(({ name }) => ({ name, hidden: true })),
      });
      // The user launches again what the cut left unlaunched: each row is researched, and paid, once.
      launch(runtime, REQUEST, ROWS);
      await runUntilSettled(suite, runtime);
      expect(column(runtime, 'Status').every((status) => status.startsWith('Done'))).toBe(true);
      expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(ROWS.length);
    }
  });
});
