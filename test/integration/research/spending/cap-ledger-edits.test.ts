// Issue 28: the spending cap does not trust a sheet any editor can change. With a cap of 30 credits a day and 3 rows
// launched (30 reserved), each edit of the hidden research ledger that used to make the next launch free (delete the
// sheet, clear its rows, damage a record, move its launch back 40 days, mark it failed) leaves the cap counting 30:
// what was spent is also kept in the document's properties (the spend journal). Issue 37: an editor changing the
// spreadsheet's time zone (File > Settings) so that "today" or "this month" is another date, then deleting the
// ledger, does not free the daily or the monthly cap either (its days are counted in a zone kept in the document's
// properties); finished records put back to "queued" create nothing (a create needs its launch's authorisation, kept
// in the document's properties), and records moved back to "in progress" give nothing back to the spend journal again.
// Through the built bundle, the emulator and the sandbox; the cap's figures are checked against the sandbox's money
// oracle.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { SheetModel } from '../../../../dev/gas-runtime/spreadsheet/model';
import type { LaunchResponse, SpendingGuardDto } from '../../../../src/research/contract';
import { sandboxSuite } from '../../harness';
import { advance, column, launch, runtimeFor, runUntilSettled, REPORT_OUTPUT } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });

const LEDGER = 'Sheet Scout research ledger';
const REQUEST = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };
/**
 * The ledger's columns: A the row's seal, B id, C task id, D index state, ..., H parts, I the record's JSON after a `~`
 * (one part here). An edit leaves the seal as it was: the row then fails it, and is never acted on.
 */
const RECORD_COLUMN = 'I';
const INDEX_COLUMN = 'D';

const serviceTasks = async () => (await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).length;

/** Rewrites the JSON record of each ledger row with `change`, and its index state with `state` when given. */
function editRecords(ledger: SheetModel, change: (record: Record<string, unknown>) => void, state?: string): void {
  const rows = ledger.getValues().length;
  for (let row = 2; row <= rows; row++) {
    const [[text]] = ledger.getValues(`${RECORD_COLUMN}${row}`);
    const record = JSON.parse(String(text).slice(1)) as Record<string, unknown>;
    change(record);
    ledger.setValues(`${RECORD_COLUMN}${row}`, [[`~${JSON.stringify(record)}`]]);
    if (state) ledger.setValues(`${INDEX_COLUMN}${row}`, [[state]]);
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

  /** A time zone in which `ms` falls on another date (or month) than in `zone`. */
  const otherDateZone = (ms: number, zone: string, part: 'day' | 'month') => {
    const key = (tz: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
        .format(ms)
        .slice(0, part === 'day' ? 10 : 7);
    const found = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((tz) => key(tz) !== key(zone));
    if (!found) throw new Error('no zone on another date');
    return found;
  };

  it.each(['day', 'month'] as const)(
    "changing the spreadsheet's time zone to another %s (and deleting the ledger) does not free the cap",
    async (part) => {
      const companies = await suite.control.companies(6);
      const rt = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
      if (part === 'month') {
        // Two hours before the next month begins in the spreadsheet's zone.
        const zone = rt.spreadsheet.timeZone;
        let at = rt.clock.now();
        const month = (ms: number) =>
          new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit' }).format(ms);
        while (month(at + 2 * 3_600_000) === month(rt.clock.now())) at += 3_600_000;
        await advance(suite, rt, at - rt.clock.now());
      }
      rt.run('setSpendingGuard', [part === 'day' ? { daily: 30, monthly: null } : { daily: null, monthly: 30 }], {
        kind: 'sidebar',
      });
      expect(launch(rt, REQUEST, [2, 3, 4])).toMatchObject({ ok: true, created: 3 });
      const tasks = await serviceTasks();
      rt.spreadsheet.timeZone = otherDateZone(rt.clock.now(), rt.spreadsheet.timeZone, part);
      rt.spreadsheet.deleteSheet(rt.spreadsheet.getSheet(LEDGER) as SheetModel);
      expect(rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' })).toMatchObject({ left: 0 });
      expect(launch(rt, REQUEST, [5, 6, 7])).toMatchObject<Partial<LaunchResponse>>({
        ok: false,
        message: expect.stringMatching(
          /^Over this spreadsheet's research spending cap: 3 rows reserve 30 credits, 0 left/,
        ),
      });
      expect(await serviceTasks()).toBe(tasks);
    },
  );

  it('finished records put back to "queued", three times and with the ledger deleted, create nothing past the cap', async () => {
    const companies = await suite.control.companies(6);
    const rt = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    rt.run('setSpendingGuard', [{ daily: 30, monthly: null }], { kind: 'sidebar' });
    const before = await suite.control.credits('sbx_pro_token');
    expect(launch(rt, REQUEST, [2, 3, 4])).toMatchObject({ ok: true, created: 3 });
    await runUntilSettled(suite, rt);
    const tasks = await serviceTasks();
    const ledger = () => rt.spreadsheet.getSheet(LEDGER) as SheetModel;
    for (let cycle = 0; cycle < 3; cycle++) {
      editRecords(
        ledger(),
        (record) => {
          record.state = 'queued';
          record.taskId = null;
          record.written = false;
        },
        'queued',
      );
      await runUntilSettled(suite, rt);
    }
    expect(await serviceTasks()).toBe(tasks);
    const charged = before - (await suite.control.credits('sbx_pro_token'));
    // What the cap counts is what the service charged, whatever was typed.
    expect(rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' })).toMatchObject({
      spentToday: charged,
    });
    rt.spreadsheet.deleteSheet(ledger());
    expect(rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' })).toMatchObject({
      spentToday: charged,
    });
    // The rows still show the results they were paid for, and the cap still holds what they cost.
    expect(
      column(rt, 'Status')
        .slice(0, 3)
        .every((status) => /^Done \(\d+ credits\)$/.test(status)),
    ).toBe(true);
    expect(launch(rt, REQUEST, [5, 6, 7])).toMatchObject({ ok: false });
    expect(await serviceTasks()).toBe(tasks);
  });

  it('finished records moved back to "in progress" give nothing back to the journal again', async () => {
    const companies = await suite.control.companies(3);
    const rt = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    rt.run('setSpendingGuard', [{ daily: 30, monthly: null }], { kind: 'sidebar' });
    const before = await suite.control.credits('sbx_pro_token');
    expect(launch(rt, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
    await runUntilSettled(suite, rt);
    const charged = before - (await suite.control.credits('sbx_pro_token'));
    const guard = () => rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' });
    expect(guard()).toMatchObject({ spentToday: charged });
    for (let cycle = 0; cycle < 3; cycle++) {
      editRecords(
        rt.spreadsheet.getSheet(LEDGER) as SheetModel,
        (record) => {
          record.state = 'in_progress';
          record.written = false;
        },
        'in_progress',
      );
      await runUntilSettled(suite, rt);
      // The ledger deleted: the journal alone says what was spent, and it did not go down.
      const copy = rt.spreadsheet.getSheet(LEDGER) as SheetModel;
      const saved = copy.getValues().map((row) => [...row]);
      rt.spreadsheet.deleteSheet(copy);
      expect(guard()).toMatchObject({ spentToday: charged });
      const restored = rt.spreadsheet.insertSheet(LEDGER);
      restored.setValues(`A1:${String.fromCharCode(64 + saved[0].length)}${saved.length}`, saved);
      restored.hidden = true;
    }
  });
});
