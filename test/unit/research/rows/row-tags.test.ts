import { runLaunch, type LaunchPlanInput } from '../../../../src/research/launch/launch';
import { runTick } from '../../../../src/research/polling/tick';
import type { OutputMapping } from '../../../../src/research/records/ledger';
import { METADATA_CHAR_LIMIT, TAG_CHARS, tagBudgetProblem } from '../../../../src/research/rows/row-tags';
import { jobWorld, launchInput } from '../fakes';
import { ManualClock } from '../../../fakes/ports';

const SHEET = 3;
const mapping: OutputMapping = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };

function world(companies: string[]) {
  const { clock, grid, service, deps } = jobWorld(new ManualClock(), 't');
  grid.addSheet(SHEET, [['Company', 'Status', 'Report'], ...companies.map((company) => [company])]);
  const launch = (rows: number[], overrides: Partial<LaunchPlanInput> = {}) =>
    runLaunch(deps(), launchInput(SHEET, rows, mapping, overrides), {
      deadline: clock.now() + 600_000,
      availableCredits: null,
      reservationPerTask: 10,
      run: 'launch',
    });
  const finish = () => {
    for (let i = 0; i < 5; i++) {
      clock.sleep(60_000);
      service.advance();
      runTick(deps());
    }
  };
  return { clock, grid, service, launch, finish, deps };
}

const rowsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

describe('row tags', () => {
  it('tags only the launched rows whose question rows outside the launch ask too', () => {
    const w = world(['acme.com', 'globex.com', 'acme.com', 'initech.com', 'globex.com']);
    expect(w.launch([2, 3, 4, 5]).refused).toBeNull();
    // acme.com: both its rows launched, no tag; globex.com: row 6 is not launched, so row 3 is tagged.
    expect([...w.grid.rowIds(SHEET).values()]).toEqual([3]);
    expect(w.service.tasks).toHaveLength(3);
  });

  it('launches 1,000 rows twice on one sheet without a single metadata character, results in the right rows', () => {
    const companies = Array.from({ length: 2000 }, (_, i) => `company-${i}.example`);
    const w = world(companies);
    expect(w.launch(rowsFrom(2, 1000)).refused).toBeNull();
    expect(w.grid.metadataUse(SHEET).sheet).toBe(0);
    w.finish();
    expect(w.launch(rowsFrom(1002, 1000)).refused).toBeNull();
    expect(w.grid.metadataUse(SHEET).sheet).toBe(0);
    w.finish();
    expect(w.service.tasks).toHaveLength(2000);
    for (const row of [2, 500, 1001, 1002, 2001]) {
      expect(w.grid.at(SHEET, row, 'Status')).toBe('Done (8 credits)');
      expect(String(w.grid.at(SHEET, row, 'Report'))).toContain(`company-${row - 2}.example`);
    }
  });

  it('buys a question rows repeat once, and writes its result into each of them through a sort, with no tag', () => {
    const w = world(['acme.com', 'globex.com', 'acme.com']);
    expect(w.launch([2, 3, 4]).refused).toBeNull();
    expect(w.grid.metadataUse(SHEET).sheet).toBe(0);
    w.grid.sortBy(SHEET, 1, true, true);
    w.finish();
    expect(w.service.tasks.map((task) => task.brief).sort()).toEqual(['Research acme.com', 'Research globex.com']);
    const acmeRows = [2, 3, 4].filter((row) => w.grid.at(SHEET, row, 'Company') === 'acme.com');
    expect(acmeRows).toHaveLength(2);
    // The shared task's charge shows once for both rows, as shared; globex's row has a task of its own.
    for (const row of [2, 3, 4])
      expect(w.grid.at(SHEET, row, 'Status')).toBe(
        acmeRows.includes(row) ? 'Done (8 credits, shared by 2 rows)' : 'Done (8 credits)',
      );
    expect(w.grid.at(SHEET, acmeRows[0], 'Report')).toBe(w.grid.at(SHEET, acmeRows[1], 'Report'));
  });

  it('never gives a duplicate row the result of another row when a tag is gone', () => {
    const w = world(['acme.com', 'acme.com']);
    w.launch([2]);
    // Row 3 is launched later; row 2's record is tagged, and row 3's too.
    w.launch([3]);
    expect(w.grid.rowIds(SHEET).size).toBe(2);
    w.grid.deleteRow(SHEET, 2);
    w.finish();
    // The deleted row's result stays in the ledger only: the remaining row gets its own task's result.
    expect(w.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
    const [first, second] = w.deps().ledger.load();
    expect(first).toMatchObject({ state: 'done', detached: true });
    expect(second).toMatchObject({ state: 'done', detached: false, written: true });
    expect(w.grid.rowIds(SHEET).size).toBe(0);
  });

  it('refuses a launch whose tags would not fit the metadata budget, before anything is sent or written', () => {
    const w = world(['acme.com', 'acme.com', 'globex.com', 'globex.com']);
    w.grid.otherMetadata.set(SHEET, METADATA_CHAR_LIMIT - 3000 - TAG_CHARS);
    const outcome = w.launch([2, 4]);
    expect(outcome.refused).toMatch(
      /^2 of the selected rows share their Company with other rows\. .*Remove the duplicate rows/,
    );
    expect(w.service.tasks).toHaveLength(0);
    expect(w.grid.rowIds(SHEET).size).toBe(0);
    expect(w.grid.at(SHEET, 2, 'Status')).toBe('');
    expect(
      tagBudgetProblem(1, { sheet: METADATA_CHAR_LIMIT - 3000 - TAG_CHARS, spreadsheet: 0 }, ['Company']),
    ).toBeNull();
  });
});
