// The hidden research sheets stay bounded, through the built bundle, the emulator as a published add-on (hourly
// timer) and the sandbox over HTTP: they hold a few cells per task (Google counts every cell of a sheet's grid toward
// the spreadsheet's 10 million), a tick reads of the ledger its index and the open records only, and finished records
// leave after their retention, so a year of daily use does not pile up.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { FINISHED_KEPT_DAYS } from '../../../src/research/contract';
import { sandboxSuite } from '../harness';
import { advance, column, launch, poll, runtimeFor, REPORT_OUTPUT } from './harness';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const LEDGER = 'Sheet Scout research ledger';
const REPORTS = 'Sheet Scout research reports';
const REQUEST = { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT } as const;
const suite = sandboxSuite({ clock: 'manual' });

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

/** Grid cells (rows x columns, filled or not) of the hidden research sheets. */
function hiddenCells(runtime: GasRuntime): number {
  return [LEDGER, REPORTS]
    .map((name) => runtime.spreadsheet.getSheet(name))
    .reduce((sum, sheet) => sum + (sheet ? sheet.maxRows * sheet.maxColumns : 0), 0);
}

async function hourlyUntilWritten(runtime: GasRuntime): Promise<void> {
  for (let hour = 0; hour < 4; hour++) {
    await advance(suite, runtime, HOUR);
    for (const result of runtime.triggers.fireDue()) if (!result.ok) throw new Error(String(result.error));
    if (column(runtime, 'Status').every((status) => status === '' || /^(Done|Failed)/.test(status))) return;
  }
  throw new Error('research did not finish');
}

describe('hidden research storage', () => {
  it('holds a few cells per task, a tick reads only what is open, and finished records leave after their retention', async () => {
    const companies = await suite.control.companies(305);
    const runtime = await runtimeFor(suite, [['Domain'], ...companies.map((company) => [company.domain])], undefined, {
      addOn: true,
    });
    expect(
      launch(
        runtime,
        REQUEST,
        companies.slice(0, 300).map((_, i) => i + 2),
      ),
    ).toMatchObject({ created: 300 });
    await hourlyUntilWritten(runtime);
    // A ledger row (its seal and 8 cells) and a report row (its seal and 3 cells) per task, and the header rows: no
    // empty grid.
    expect(hiddenCells(runtime)).toBeLessThanOrEqual(300 * 13 + 13);

    // Five more rows: the next tick reads two narrow index columns of the 305 ledger rows and the 5 open records.
    expect(launch(runtime, REQUEST, [302, 303, 304, 305, 306])).toMatchObject({ created: 5 });
    runtime.counters.reset();
    await advance(suite, runtime, HOUR);
    runtime.triggers.fireDue();
    expect(column(runtime, 'Status').filter((status) => status.startsWith('Done'))).toHaveLength(305);
    const ledgerCells = runtime.counters.sheet.cellsBySheet[LEDGER] ?? 0;
    expect(ledgerCells).toBeLessThanOrEqual(2 * 306 + 5 * 9 + 40);

    // After the retention period the panel's next poll leaves only the header rows: the rows keep what was written.
    await advance(suite, runtime, (FINISHED_KEPT_DAYS + 8) * DAY);
    expect(poll(runtime).rows).toEqual([]);
    expect(hiddenCells(runtime) / 305).toBeLessThanOrEqual(1);
    expect(column(runtime, 'Report').filter((report) => report.startsWith('# '))).toHaveLength(305);
    // The service still has every task: its report opens from the account's history.
    const [task] = await suite.control.tasks('sbx_pro_token');
    const report = runtime.run<{ found: boolean; report: { kind: string } | null }>('getTaskReport', [task.id], {
      kind: 'sidebar',
    });
    expect(report).toMatchObject({ found: true, report: { kind: 'markdown' } });
  });
});
