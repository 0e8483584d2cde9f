// "Keep enriching new rows" (issue 40, item 1) through the built bundle in the emulator's published add-on mode (one
// hourly timer per document) against the sandbox on a shared manual clock, with every panel closed: rows another tool
// appends under an enriched list get its fields from the hourly timer within two hours, in their own rows after sorts
// (between the append and the fill, and while a check's lookups are under way), a duplicate of a listed company too;
// cells the user cleared or edited are never filled again; the lookups spend no credit by the sandbox's money record;
// it is refused on the add-in's hidden sheets and on a sheet not enriched, and turned off its timer goes.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { NewRowsAnswer } from '../../../src/new-rows/contract';
import { sandboxSuite } from '../harness';
import { advance, oracleTotals, runtimeFor, SHEET } from '../research/harness';
import { appendRows, enrichSheet, keepNewRows, newRowsOf, rowsOf } from './harness';

const HOUR = 3_600_000;
const TOKEN = 'sbx_pro_token';
const world = sandboxSuite({ clock: 'manual' });

const timers = (rt: GasRuntime) => rt.triggers.list().filter((trigger) => trigger.eventType === 'CLOCK');
const sheetOf = (rt: GasRuntime) => rt.spreadsheet.sheet(SHEET);

/** Sorts the data rows by the first column (descending: appended rows move up among the others). */
function sortDescending(rt: GasRuntime): void {
  const sheet = sheetOf(rt);
  sheet.sortRows({ row: 2, column: 1, numRows: sheet.lastRow() - 1, numColumns: sheet.lastColumn() }, [
    { column: 1, ascending: false },
  ]);
}

/** Hourly ticks of the emulator's timers until `until`; throws on a failed run. */
async function hoursUntil(rt: GasRuntime, until: number): Promise<void> {
  while (rt.clock.now() < until) {
    await advance(world, rt, Math.min(HOUR, until - rt.clock.now()));
    for (const fired of rt.triggers.fireDue()) expect(fired).toMatchObject({ ok: true });
  }
}

async function enrichedRuntime(domains: string[]): Promise<GasRuntime> {
  const rt = await runtimeFor(world, [['Website'], ...domains.map((domain) => [domain])], TOKEN, { addOn: true });
  rt.spreadsheet.selection = { sheet: sheetOf(rt), rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
  enrichSheet(rt);
  return rt;
}

describe('keep enriching new rows (integration, add-on mode, panels closed)', () => {
  it('fills rows another tool appends within two hours, in their rows after a sort, for 0 credits', async () => {
    const ready = await world.control.companies(6, true);
    const [later] = await world.control.companies(1, false);
    const rt = await enrichedRuntime(ready.slice(0, 3).map((company) => company.domain));
    const creditsBefore = await world.control.credits(TOKEN);

    const on = keepNewRows(rt);
    if (!on.ok || !on.newRows) throw new Error(JSON.stringify(on));
    expect(on.newRows).toMatchObject({ headers: ['Company name', 'Employees'], domainColumnLabel: 'A: Website' });
    expect(timers(rt)).toHaveLength(1);

    // The user clears a filled cell and types over another: those rows are the list's, never filled again.
    sheetOf(rt).typeInto({ row: 2, column: 3, numRows: 1, numColumns: 1 }, '');
    sheetOf(rt).typeInto({ row: 3, column: 2, numRows: 1, numColumns: 1 }, 'Ours');
    // A company the service has not enriched yet takes longer than a check waits for it.
    await world.control.setEnrichmentDelay(40_000);
    const appendedAt = rt.clock.now() + 10 * 60_000;
    await advance(world, rt, 10 * 60_000);
    appendRows(rt, SHEET, [
      [ready[3].domain],
      [ready[4].domain],
      [ready[0].domain.toUpperCase()],
      [later.domain],
      ['no-such-company-4711.com'],
      ['not a domain'],
    ]);
    sortDescending(rt);
    // Typed above the list: a second row of a listed company, higher than the listed one.
    sheetOf(rt).insertRows(2, 1);
    sheetOf(rt).typeInto({ row: 2, column: 1, numRows: 1, numColumns: 1 }, ready[1].domain);
    await hoursUntil(rt, appendedAt + HOUR);
    // The first check (within the hour) filled what the service had; the rest waits for the next one.
    expect(rowsOf(rt, SHEET, 'Website', later.domain)[0]).toMatchObject({ 'Company name': '', Employees: '' });
    sortDescending(rt);
    sheetOf(rt).sortRows({ row: 2, column: 1, numRows: sheetOf(rt).lastRow() - 1, numColumns: 3 }, [
      { column: 2, ascending: true },
    ]);
    await hoursUntil(rt, appendedAt + 2 * HOUR);

    for (const company of [ready[3], ready[4], later])
      expect(rowsOf(rt, SHEET, 'Website', company.domain)).toEqual([
        { Website: company.domain, 'Company name': company.name, Employees: company.employee_count },
      ]);
    // The duplicate of a listed company is filled too; the listed row keeps its cleared cell.
    expect(rowsOf(rt, SHEET, 'Website', ready[0].domain)).toEqual(
      expect.arrayContaining([
        { Website: ready[0].domain, 'Company name': ready[0].name, Employees: '' },
        { Website: ready[0].domain.toUpperCase(), 'Company name': ready[0].name, Employees: ready[0].employee_count },
      ]),
    );
    expect(rowsOf(rt, SHEET, 'Website', ready[1].domain)).toEqual(
      expect.arrayContaining([
        { Website: ready[1].domain, 'Company name': 'Ours', Employees: ready[1].employee_count },
        { Website: ready[1].domain, 'Company name': ready[1].name, Employees: ready[1].employee_count },
      ]),
    );
    expect(rowsOf(rt, SHEET, 'Website', 'no-such-company-4711.com')[0]['Company name']).toMatch(/^Not found/);
    expect(rowsOf(rt, SHEET, 'Website', 'not a domain')[0]).toMatchObject({ 'Company name': '', Employees: '' });

    // Two more days of hourly checks change nothing: cleared and edited cells stay as the user left them.
    const settled = sheetOf(rt).getValues();
    await hoursUntil(rt, rt.clock.now() + 48 * HOUR);
    expect(sheetOf(rt).getValues()).toEqual(settled);

    const state = newRowsOf(rt) as Extract<NewRowsAnswer, { ok: true }>;
    expect(state.newRows?.totals).toEqual({ added: 7, filled: 6 });
    expect(state.newRows?.lastFound).toMatchObject({ added: 1, filled: 1, waiting: 0 });
    expect(state.newRows?.problem).toBeNull();
    expect(state.newRows?.lastCheckAt).toBeGreaterThan(rt.clock.now() - HOUR);
    // Lookups are free: the sandbox's money record shows nothing reserved or charged, the balance is unchanged.
    expect(await oracleTotals(world, TOKEN)).toEqual({ reserved: 0, charged: 0, refunded: 0 });
    expect(await world.control.credits(TOKEN)).toBe(creditsBefore);

    expect(keepNewRows(rt, false)).toMatchObject({ ok: true, newRows: null });
    expect(timers(rt)).toHaveLength(0);
  });

  it('writes into the right rows when the user sorts while a check looks the new rows up, keeping typed cells', async () => {
    const ready = await world.control.companies(7, true);
    const rt = await enrichedRuntime(ready.slice(0, 3).map((company) => company.domain));
    expect(keepNewRows(rt)).toMatchObject({ ok: true });
    // A form fills the company name itself on one row: that cell is the user's.
    appendRows(rt, SHEET, [[ready[3].domain], [ready[4].domain, 'Typed by the form'], [ready[5].domain]]);
    const timer = timers(rt)[0];
    let sorted = false;
    await advance(world, rt, HOUR);
    rt.run('sheetScoutTimer', [{ triggerUid: timer.id }], {
      kind: 'trigger',
      user: timer.owner,
      onServiceCall: (call) => {
        if (sorted || call.service !== 'UrlFetchApp') return;
        sorted = true;
        sortDescending(rt);
        sheetOf(rt).insertRows(2, 1);
        sheetOf(rt).setValues('A2', [[ready[6].domain]]);
      },
    });
    expect(sorted).toBe(true);
    for (const company of [ready[3], ready[5]])
      expect(rowsOf(rt, SHEET, 'Website', company.domain)).toEqual([
        { Website: company.domain, 'Company name': company.name, Employees: company.employee_count },
      ]);
    expect(rowsOf(rt, SHEET, 'Website', ready[4].domain)).toEqual([
      { Website: ready[4].domain, 'Company name': 'Typed by the form', Employees: ready[4].employee_count },
    ]);
    // The row typed in during the check is new too: the next check fills it.
    expect(rowsOf(rt, SHEET, 'Website', ready[6].domain)[0]).toMatchObject({ 'Company name': '' });
    await hoursUntil(rt, rt.clock.now() + HOUR);
    expect(rowsOf(rt, SHEET, 'Website', ready[6].domain)[0]).toMatchObject({ 'Company name': ready[6].name });
  });

  it("is refused, with nothing saved, on the add-in's hidden sheets and on a sheet not enriched", async () => {
    const ready = await world.control.companies(2, true);
    const rt = await enrichedRuntime([ready[0].domain]);
    const hidden = rt.spreadsheet.getSheet('Sheet Scout enrichment dates');
    if (!hidden) throw new Error('no dates sheet');
    rt.spreadsheet.activeSheet = hidden;
    rt.spreadsheet.selection = { sheet: hidden, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
    const refusedHidden = keepNewRows(rt);
    expect(refusedHidden).toEqual({
      ok: false,
      message: expect.stringMatching(/^Nothing was saved\. Sheet Scout keeps its own records/),
    });
    const other = rt.spreadsheet.insertSheet('Leads');
    other.setValues('A1:A2', [['Website'], [ready[1].domain]]);
    rt.spreadsheet.activeSheet = other;
    rt.spreadsheet.selection = { sheet: other, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
    expect(keepNewRows(rt)).toEqual({
      ok: false,
      message: 'Nothing on "Leads" was enriched yet: enrich it first (Start above), then keep its new rows enriched.',
    });
    // What a page out of step (or a crafted call) sends is refused whole, with the part that is wrong.
    const failure = (name: string, args: unknown[]) => {
      try {
        rt.run(name, args, { kind: 'sidebar' });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(failure('setNewRows', [{ on: 'yes' }])).toBe(
      'Sheet Scout could not read this request (on must be boolean): reload the panel and try again',
    );
    expect(
      failure('saveNewRowsResearch', [
        { template: 'Research {Website}', depth: 'medium', output: null, monthlyLimit: '100', confirmed: null },
      ]),
    ).toMatch(/^Sheet Scout could not read this request \((output|monthlyLimit) /);
    expect(timers(rt)).toHaveLength(0);
    expect(rt.properties.document.keys().filter((key) => key.startsWith('sheetscout.newRows.'))).toEqual([]);
  });
});
