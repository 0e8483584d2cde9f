// Issue 45, points 1, 3 and 6: the research ledger's records are sealed (src/shared/storage/sealed-table.ts), so what
// another editor types or copies into the hidden ledger sheet never decides what a user pays. Through the built bundle
// in the emulator (a published add-on, hourly timers, every panel closed) against the sandbox, with two editors A and
// B of one spreadsheet, each with their own Sheet Scout account. While A's creates wait (the service answered 503),
// B edits A's queued records: raises their depth and rewrites their briefs, points them at other rows, copies one of
// them five times, or gives B's own queued record A's launch. A's timer then sends exactly what A confirmed, once per
// row, or nothing for a record that was changed (A's panel names it); B's edit of the launch of A's running records
// does not change A's spending history, which settles A's tasks by what the add-in kept, as the service charged them.
// A record of an earlier version whose row is not an object is reported, never a raw exception, and the paid results
// beside it are written. Figures are checked against the sandbox's money record.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { LaunchResponse, ResearchStatusDto } from '../../../src/research/contract';
import type { SpendingHistoryDto } from '../../../src/spending-history/contract';
const LEDGER_SHEET = 'Sheet Scout research ledger';
import { sandboxSuite } from '../harness';
import {
  advance,
  column,
  companiesRuntime,
  launch,
  oracleCharges,
  runUntilSettled,
  sheetId,
  twoEditorsRuntime,
  EDITOR,
  REPORT_OUTPUT,
  USER,
} from '../research/harness';

const suite = sandboxSuite({ clock: 'manual' });
const A_TOKEN = 'sbx_pro_token';
const B_TOKEN = 'sbx_rival_token';
const HOUR = 3_600_000;
/** The sealing key's property (src/shared/storage/seal.ts). */
const SEAL_KEY = 'sheetscout.seal.key';

type ServiceTask = { id: string; brief: string; depth: string; status: string };
const tasksOf = (token: string) => suite.control.tasks(token) as unknown as Promise<ServiceTask[]>;

let runtime: GasRuntime;

function launchAs(user: string, rows: number[], template = 'Research {Domain}'): LaunchResponse {
  return runtime.run<LaunchResponse>(
    'launchResearch',
    [{ template, depth: 'medium', output: REPORT_OUTPUT, sheetId: sheetId(runtime), rows }],
    { kind: 'sidebar', user },
  );
}

const ledgerValues = () => runtime.spreadsheet.sheet(LEDGER_SHEET).getValues();
/** A ledger column by its header (0-based): the record's JSON after a `~` ("record"), its index state. */
const ledgerColumn = (header: string) => ledgerValues()[0].indexOf(header);
/** A ledger row's record (its JSON in one part, as here). */
const recordOf = (row: unknown[]) =>
  JSON.parse(String(row[ledgerColumn('record')]).slice(1)) as Record<string, unknown> & {
    launch: string;
    brief: string;
  };

/** Editor B's grid edit of ledger rows (1-based sheet rows): the record's JSON changed, the rest left as it was. */
function editRecord(row: number, change: (record: Record<string, unknown>) => void): void {
  const ledger = runtime.spreadsheet.sheet(LEDGER_SHEET);
  const record = recordOf(ledger.getValues()[row - 1]);
  change(record);
  ledger.setValues(`${String.fromCharCode(65 + ledgerColumn('record'))}${row}`, [[`~${JSON.stringify(record)}`]]);
}

/** The ledger rows (1-based sheet rows) of A's queued records. */
const queuedRows = () =>
  ledgerValues().flatMap((row, at) =>
    at > 0 && String(row[ledgerColumn('index_state')]) === 'queued' ? [at + 1] : [],
  );

async function hours(count: number): Promise<void> {
  for (let hour = 0; hour < count; hour++) {
    await advance(suite, runtime, HOUR);
    for (const fired of runtime.triggers.fireDue()) if (!fired.ok) throw new Error(String(fired.error));
  }
}

const panelOf = (user: string) => runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar', user });

/** A's launch of rows 2-4 while the service answers creates with 503: three queued records, nothing sent. */
async function queuedLaunch(): Promise<void> {
  runtime = await twoEditorsRuntime(suite, 6, B_TOKEN, true);
  await suite.control.setFault({ route: 'tasks.create', errorRate: 1, errorStatus: 503 });
  expect(launchAs(USER, [2, 3, 4])).toMatchObject({ ok: true, created: 0, queued: 3 });
  await suite.control.clearFaults();
  expect(queuedRows()).toHaveLength(3);
}

describe('queued creates another editor edits in the hidden ledger (issue 45, point 1)', () => {
  it.each([
    [
      'depth raised to xhigh and the briefs rewritten',
      () =>
        queuedRows().forEach((row) =>
          editRecord(row, (record) => {
            record.depth = 'xhigh';
            record.brief = 'Research everything about every competitor of this company';
          }),
        ),
    ],
    [
      'pointed at other rows',
      () =>
        queuedRows().forEach((row) =>
          editRecord(row, (record) => {
            const identity = record.row as Record<string, unknown>;
            identity.rowHint = Number(identity.rowHint) + 2;
            identity.keyValues = ['other-company.example'];
          }),
        ),
    ],
  ])('%s: nothing of it is sent or charged, and A is told', async (_name, edit) => {
    await queuedLaunch();
    const credits = await suite.control.credits(A_TOKEN);
    edit();
    await hours(3);
    expect(await tasksOf(A_TOKEN)).toEqual([]);
    expect(await tasksOf(B_TOKEN)).toEqual([]);
    expect(await suite.control.credits(A_TOKEN)).toBe(credits);
    const panel = panelOf(USER);
    expect(panel.damaged).toHaveLength(3);
    expect(panel.damaged.every((record) => record.changed)).toBe(true);
    // The history counts the three as not collected: what the service did with them is at the service (nothing).
    const history = runtime.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' });
    expect(history.runs[0]).toMatchObject({ rows: 3, charged: 0, open: 0, lost: 3 });
  });

  it("five copies of one queued record: A's timer sends each confirmed row once, as confirmed", async () => {
    await queuedLaunch();
    const ledger = runtime.spreadsheet.sheet(LEDGER_SHEET);
    const [first] = queuedRows();
    const copy = ledger.getValues()[first - 1];
    const width = String.fromCharCode(64 + copy.length);
    const end = ledger.getValues().length;
    ledger.insertRows(end + 1, 5);
    ledger.setValues(
      `A${end + 1}:${width}${end + 5}`,
      Array.from({ length: 5 }, () => [...copy]),
    );
    await hours(3);
    const tasks = await tasksOf(A_TOKEN);
    const domains = column(runtime, 'Domain').slice(0, 3);
    expect(tasks.map((task) => task.brief).sort()).toEqual(domains.map((domain) => `Research ${domain}`).sort());
    expect(tasks.every((task) => task.depth === 'medium')).toBe(true);
    expect(await tasksOf(B_TOKEN)).toEqual([]);
    expect(
      column(runtime, 'Status')
        .slice(0, 3)
        .every((status) => /^Done \(\d+ credits\)$/.test(status)),
    ).toBe(true);
    const charged = [...(await oracleCharges(suite, A_TOKEN)).values()].reduce((sum, credits) => sum + credits, 0);
    const history = runtime.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' });
    expect(history.runs[0]).toMatchObject({ rows: 3, charged, open: 0, lost: 0 });
  });

  it("B's own queued record given A's launch: not sent on either account, and A's rows are sent as A confirmed", async () => {
    await queuedLaunch();
    await suite.control.setFault({ route: 'tasks.create', errorRate: 1, errorStatus: 503 });
    expect(launchAs(EDITOR, [5], 'Profile {Domain} for B')).toMatchObject({ ok: true, queued: 1 });
    await suite.control.clearFaults();
    const rows = ledgerValues();
    const aLaunch = recordOf(rows[1]).launch;
    const bRow = rows.findIndex((row, at) => at > 0 && recordOf(row).brief.includes('for B')) + 1;
    editRecord(bRow, (record) => {
      record.launch = aLaunch;
    });
    await hours(3);
    expect((await tasksOf(A_TOKEN)).map((task) => task.brief).sort()).toEqual(
      column(runtime, 'Domain')
        .slice(0, 3)
        .map((domain) => `Research ${domain}`)
        .sort(),
    );
    expect(await tasksOf(B_TOKEN)).toEqual([]);
    expect(panelOf(EDITOR).damaged).toEqual([expect.objectContaining({ changed: true })]);
  });
});

describe("another editor's edit of the launch of A's running records (issue 45, point 3)", () => {
  it("A's spending history settles A's tasks by what the add-in kept, as the service charged them", async () => {
    runtime = await twoEditorsRuntime(suite, 6, B_TOKEN, true);
    expect(launchAs(USER, [2, 3, 4])).toMatchObject({ ok: true, created: 3 });
    expect(launchAs(EDITOR, [5])).toMatchObject({ ok: true, created: 1 });
    const rows = ledgerValues();
    const bLaunch = rows
      .slice(1)
      .map(recordOf)
      .find((record) => record.brief.includes(column(runtime, 'Domain')[3]))?.launch;
    expect(bLaunch).toEqual(expect.any(String));
    rows.forEach((row, at) => {
      if (at > 0 && recordOf(row).launch !== bLaunch)
        editRecord(at + 1, (record) => {
          record.launch = bLaunch;
        });
    });
    await hours(4);
    const charged = [...(await oracleCharges(suite, A_TOKEN)).values()].reduce((sum, credits) => sum + credits, 0);
    expect(charged).toBeGreaterThan(0);
    const history = runtime.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar' });
    const aRun = history.runs.find((run) => run.startedBy === 'pro@sandbox.example.com');
    // Charged as the service charged them, and counted as not collected: no row received their results.
    expect(aRun).toMatchObject({ rows: 3, reserved: 30, charged, givenBack: 30 - charged, open: 0, lost: 3 });
    // A's panel names the three changed records; their rows were not written from them.
    expect(panelOf(USER).damaged).toHaveLength(3);
  });
});

describe('a record of an earlier version whose row is not an object (issue 45, point 6)', () => {
  it('is reported, never a raw exception, and the paid results beside it are written', async () => {
    runtime = await companiesRuntime(suite, 3);
    const launched = launch(runtime, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3]);
    expect(launched).toMatchObject({ ok: true, created: 2 });
    // The document as an earlier version left it: no sealing key, the ledger without its seal column, and a third
    // record whose row is a number.
    runtime.properties.document.delete(SEAL_KEY);
    const ledger = runtime.spreadsheet.sheet(LEDGER_SHEET);
    const sealed = ledger.getValues()[0][0] === 'seal';
    const unsealed = ledger.getValues().map((row) => (sealed ? row.slice(1) : row));
    const bad = recordOf(ledger.getValues()[1]);
    unsealed.push([
      'bad-record',
      '',
      'in_progress',
      sheetId(runtime),
      '',
      '',
      1,
      `~${JSON.stringify({ ...bad, id: 'bad-record', taskId: null, row: 7 })}`,
    ]);
    runtime.spreadsheet.deleteSheet(ledger);
    const legacy = runtime.spreadsheet.insertSheet(LEDGER_SHEET);
    legacy.setValues(
      `A1:H${unsealed.length}`,
      unsealed.map((row) => row.slice(0, 8)),
    );
    legacy.hidden = true;
    await runUntilSettled(suite, runtime);
    expect(
      column(runtime, 'Status')
        .slice(0, 2)
        .every((status) => /^Done \(\d+ credits\)$/.test(status)),
    ).toBe(true);
    expect(panelOf(USER).damaged).toEqual([{ entryId: 'bad-record', taskId: '' }]);
  });
});
