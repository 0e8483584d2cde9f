// The add-in's hidden sheets (research ledger and reports) in the playground: after a research launch creates them,
// Company search offers neither as an append target nor under Exclude domains > From a column, its server functions
// refuse to read or write them, and the Tables dialog does not map them.
import { describeWithBrowser, stackForSuite } from './harness';

const LEDGER = 'Sheet Scout research ledger';

describeWithBrowser('hidden internal sheets in the playground', () => {
  const stack = stackForSuite();

  async function run(name: string, ...args: unknown[]): Promise<{ ok: boolean; message?: string }> {
    return stack().page.evaluate(
      async ([fn, params]) =>
        (
          await fetch('/api/run', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: fn, args: params }),
          })
        ).json(),
      [name, args] as const,
    );
  }

  it('are never offered, read from or written to by the search panel or the tables dialog', async () => {
    const { page, playground } = stack();
    await page.click('td[data-cell="A2"]');
    const research = await stack().openPanel('showResearchPanel');
    await research.fill('#brief', 'Research {Domain}');
    await research.check('#output-report');
    await research.click('#launch');
    const sheets = playground.runtime.spreadsheet.sheets;
    for (let waited = 0; !sheets.some((sheet) => sheet.name === LEDGER) && waited < 20_000; waited += 200)
      await page.waitForTimeout(200);
    const hidden = playground.runtime.spreadsheet.sheets.filter((sheet) => sheet.hidden);
    expect(hidden.map((sheet) => sheet.name)).toContain(LEDGER);

    const panel = await stack().openPanel('showSearchPanel');
    await panel.waitForSelector('[aria-label="Sheet to append to"] option', { state: 'attached' });
    const appendTargets = await panel.locator('[aria-label="Sheet to append to"] option').allTextContents();
    const columnSheets = await panel.locator('[aria-label="Sheet to read domains from"] option').allTextContents();
    expect(appendTargets).toEqual(['Companies', 'Notes']);
    expect(columnSheets).toEqual(['Companies', 'Notes']);

    for (const sheet of hidden) {
      const sheetId = sheet.sheetId;
      // The panel's reads answer a refusal (the server function itself succeeds).
      const refused = { ok: true, value: { ok: false, message: expect.stringContaining('no longer exists') } };
      expect(await run('getSearchSheetColumns', sheetId)).toMatchObject(refused);
      expect(
        await run('getSearchExcludeDomains', { kind: 'column', sheetId, column: 0, skipHeader: true }),
      ).toMatchObject(refused);
      const filters = {
        sizes: [],
        sizeMode: 'include',
        includeCountries: [],
        excludeCountries: [],
        includeCities: [],
        excludeCities: [],
        foundedFrom: null,
        foundedTo: null,
        excludeDomains: [],
      };
      const spec = { mode: 'describe', query: 'software', reference: '', count: 5, filters };
      const before = sheet.lastRow();
      const write = await run('writeCompanySearch', {
        searchId: null,
        spec,
        columns: ['name', 'domain'],
        target: { kind: 'append', sheetId },
      });
      expect(JSON.stringify(write)).not.toContain('"written"');
      expect(sheet.lastRow()).toBe(before);
      // The tables dialog maps the active sheet: never one of these.
      await page.evaluate(
        (name) =>
          fetch('/api/select', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ sheet: name, a1: 'A1' }),
          }),
        sheet.name,
      );
      expect(await run('getTablesState')).toMatchObject({
        ok: true,
        value: { ok: false, message: expect.stringContaining('pick one of your sheets') },
      });
    }
  });
});
