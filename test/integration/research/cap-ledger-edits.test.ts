// Issue 28: the spending cap does not trust a sheet any editor can change. With a cap of 30 credits a day and 3 rows
// launched (30 reserved), each edit of the hidden research ledger that used to make the next launch free (delete the
// sheet, clear its rows, damage a record, move its launch back 40 days, mark it failed) leaves the cap counting 30:
// what was spent is also kept in the document's properties (the spend journal). Through the built bundle, the
// emulator and the sandbox; the cap's figures are checked against the sandbox's money oracle.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { SheetModel } from '../../../dev/gas-runtime/spreadsheet/model';
import type { LaunchResponse, SpendingGuardDto } from '../../../src/research/contract';
import { sandboxSuite } from '../harness';
import { launch, runtimeFor, runUntilSettled, REPORT_OUTPUT } from './harness';

jest.setTimeout(60_000);

const suite = sandboxSuite({ clock: 'manual' });

const LEDGER = 'Sheet Scout research ledger';
const REQUEST = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };
/** The ledger's columns: A id, B task id, C index state, ..., G parts, H the record's JSON after a `~` (one part here). */
const RECORD_COLUMN = 'H';

const serviceTasks = async () => (await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;

/** Rewrites the JSON record of each ledger row with `change`, and its index state with `state` when given. */
function editRecords(ledger: SheetModel, change: (record: Record<string, unknown>) => void, state?: string): void {
  const rows = ledger.getValues().length;
  for (let row = 2; row <= rows; row++) {
    const [[text]] = ledger.getValues(`${RECORD_COLUMN}${row}`);
    const record = JSON.parse(String(text).slice(1)) as Record<string, unknown>;
    change(record);
    ledger.setValues(`${RECORD_COLUMN}${row}`, [[`~${JSON.stringify(record)}`]]);
    if (state) ledger.setValues(`C${row}`, [[state]]);
  }
}

const EDITS: Array<[string, (runtime: GasRuntime, ledger: SheetModel) => void]> = [
  ['deleting the ledger sheet', (runtime, ledger) => runtime.spreadsheet.deleteSheet(ledger)],
  [
    'clearing its rows',
    (_runtime, ledger) => {
      const values = ledger.getValues();
      ledger.setValues(
        `A2:${String.fromCharCode(64 + values[0].length)}${values.length}`,
        values.slice(1).map((row) => row.map(() => '')),
      );
    },
  ],
  [
    "damaging a record's JSON",
    (_runtime, ledger) =>
      ledger.setValues(`${RECORD_COLUMN}2:${RECORD_COLUMN}4`, [['{broken'], ['{broken'], ['{broken']]),
  ],
  [
    'moving the launches back 40 days',
    (_runtime, ledger) =>
      editRecords(ledger, (record) => {
        record.launchedAt = Number(record.launchedAt) - 40 * 86_400_000;
      }),
  ],
  [
    'marking the records failed',
    (runtime, ledger) =>
      editRecords(
        ledger,
        (record) => {
          record.state = 'failed';
          record.written = true;
        },
        `failed ${new Date(runtime.clock.now()).toISOString().slice(0, 10)}`,
      ),
  ],
];

describe('the spending cap against edits of the research ledger (integration)', () => {
  it.each(EDITS)('%s does not free the cap', async (_name, edit) => {
    const companies = await suite.control.companies(6);
    const rt = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    rt.run('setSpendingGuard', [{ daily: 30, monthly: null }], { kind: 'sidebar' });
    expect(launch(rt, REQUEST, [2, 3, 4])).toMatchObject({ ok: true, created: 3 });
    const tasks = await serviceTasks();
    const ledger = rt.spreadsheet.getSheet(LEDGER);
    if (!ledger) throw new Error('no ledger sheet');
    edit(rt, ledger);
    // What the service holds today for the three running tasks, by the oracle: 30.
    const held = await suite.control.ledgerDay('sbx_pro_token');
    expect(held.reserved - held.refunded).toBe(30);
    expect(rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' })).toMatchObject({
      spentToday: held.reserved - held.refunded,
      left: 0,
    });
    const next = launch(rt, REQUEST, [5, 6, 7]);
    expect(next).toMatchObject<Partial<LaunchResponse>>({
      ok: false,
      message: expect.stringMatching(
        /^Over this spreadsheet's research spending cap: 3 rows reserve 30 credits, 0 left/,
      ),
    });
    expect(await serviceTasks()).toBe(tasks);
  });

  it('still gives back what finished tasks did not use, once', async () => {
    const companies = await suite.control.companies(2);
    const rt = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    rt.run('setSpendingGuard', [{ daily: 30, monthly: null }], { kind: 'sidebar' });
    expect(launch(rt, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
    await runUntilSettled(suite, rt);
    const { charged, reserved, refunded } = await suite.control.ledgerDay('sbx_pro_token');
    expect(reserved - refunded).toBe(charged);
    expect(charged).toBeLessThan(20);
    const guard = () => rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' });
    expect(guard()).toMatchObject({ spentToday: charged, left: 30 - charged });
    // The ledger deleted afterwards: the journal still says what was charged.
    rt.spreadsheet.deleteSheet(rt.spreadsheet.getSheet(LEDGER) as SheetModel);
    expect(guard()).toMatchObject({ spentToday: charged, left: 30 - charged });
  });
});
