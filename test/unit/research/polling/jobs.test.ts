import { recheckUnconfirmed, sendUnconfirmedAnyway, unconfirmedOf } from '../../../../src/research/polling/jobs';
import { runLaunch, type LaunchPlanInput, type PayingDeps } from '../../../../src/research/launch/launch';
import { runTick } from '../../../../src/research/polling/tick';
import type { OutputMapping } from '../../../../src/research/records/ledger';
import { LedgerStore } from '../../../../src/research/records/stores';
import { ReportStore } from '../../../../src/research/records/report-store';
import { buildSchema } from '../../../../src/research/brief/output-schema';
import { FakeGrid, FakeService, FakeTable, idMaker, memoryPermits, PAYER } from '../fakes';
import { ManualClock } from '../../../fakes/ports';

const SHEET = 7;
const reportMapping: OutputMapping = {
  kind: 'report',
  statusHeader: 'Status',
  reportHeader: 'Report',
  sourcesHeader: 'Sources',
};

function setup(rows: string[][] = [['Acme'], ['Globex'], ['Initech']]) {
  const clock = new ManualClock();
  const grid = new FakeGrid();
  grid.addSheet(SHEET, [['Company', 'Status', 'Report', 'Sources'], ...rows]);
  const service = new FakeService(clock);
  const ledgerTable = new FakeTable();
  const reportTable = new FakeTable();
  const deps: PayingDeps = {
    client: service,
    grid,
    permits: memoryPermits(),
    ledger: new LedgerStore(ledgerTable),
    reports: new ReportStore(reportTable),
    clock,
    newId: idMaker('r'),
    account: PAYER,
  };
  return { clock, grid, service, deps, ledgerTable, reportTable };
}

function input(overrides: Partial<LaunchPlanInput> = {}): LaunchPlanInput {
  return {
    sheetId: SHEET,
    rows: [2, 3, 4],
    template: 'Research {Company}',
    depth: 'medium',
    schema: null,
    mapping: reportMapping,
    rerun: false,
    again: false,
    ...overrides,
  };
}

const launchOptions = (clock: ManualClock) => ({
  deadline: clock.now() + 60000,
  availableCredits: 500,
  reservationPerTask: 10,
  run: 'launch' as const,
});

/** Fresh stores over the same tables, as a new execution would have. */
function reopen(deps: PayingDeps, ledgerTable: FakeTable, reportTable: FakeTable): PayingDeps {
  return { ...deps, ledger: new LedgerStore(ledgerTable), reports: new ReportStore(reportTable) };
}

function runToEnd(s: ReturnType<typeof setup>): void {
  for (let i = 0; i < 5; i++) {
    s.clock.sleep(60000);
    s.service.advance();
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
  }
}

describe('research jobs', () => {
  it('launches one task per row, tracks progress and writes reports into the rows', () => {
    const s = setup();
    const outcome = runLaunch(s.deps, input(), launchOptions(s.clock));
    expect(outcome.refused).toBeNull();
    expect(s.service.tasks).toHaveLength(3);
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Queued');
    s.service.advance();
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(s.grid.at(SHEET, 3, 'Status')).toBe('Researching: 1 iteration, 2 agents, 3 sources');
    runToEnd(s);
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
    expect(s.grid.at(SHEET, 3, 'Report')).toBe('# Report on Research Globex\nSee [1].');
    expect(s.grid.at(SHEET, 3, 'Sources')).toBe('[1] https://source.example/1');
    const summary = runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(summary.pending).toBe(0);
  });

  it('skips blank rows and does not relaunch a row with a running task unless re-run', () => {
    const s = setup([['Acme'], [''], ['Initech']]);
    const first = runLaunch(s.deps, input(), launchOptions(s.clock));
    expect(first.plan.skippedEmpty).toEqual([3]);
    expect(s.service.tasks).toHaveLength(2);
    const again = runLaunch(reopen(s.deps, s.ledgerTable, s.reportTable), input(), launchOptions(s.clock));
    expect(again.plan.skippedRunning).toEqual([2, 4]);
    expect(s.service.tasks).toHaveLength(2);
    const rerun = runLaunch(
      reopen(s.deps, s.ledgerTable, s.reportTable),
      input({ rows: [2], rerun: true }),
      launchOptions(s.clock),
    );
    expect(rerun.entries).toHaveLength(1);
    expect(s.service.tasks).toHaveLength(3);
    runToEnd(s);
    // The superseded task's result stays in the ledger; the row shows the re-run's.
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
  });

  it('a re-run over rows another account launched asks first, naming it, and takes nothing off them until answered', () => {
    const s = setup();
    runLaunch(s.deps, input({ rows: [2, 3] }), launchOptions(s.clock));
    const ben = (overrides: Partial<LaunchPlanInput>) =>
      runLaunch(
        // Ben's panel launches as Ben, paid from his account (launch-service passes the account it read).
        { ...reopen(s.deps, s.ledgerTable, s.reportTable), account: 'ben@example.com' },
        input({ rows: [2, 3], rerun: true, ...overrides }),
        launchOptions(s.clock),
      );
    const asked = ben({});
    expect(asked.plan.othersRunning).toEqual([
      { row: 2, launchedBy: PAYER },
      { row: 3, launchedBy: PAYER },
    ]);
    expect(asked).toMatchObject({ entries: [], question: { rows: [2, 3], perRow: 10, limit: null } });
    expect(asked.plan.superseded).toEqual([]);
    expect(ben({ replacing: ['someone@else.example'] }).entries).toEqual([]);
    expect(s.service.tasks).toHaveLength(2);
    const yes = ben({ again: true, replacing: [PAYER] });
    expect(yes.entries).toHaveLength(2);
    expect(yes.plan.superseded.map((entry) => entry.detached)).toEqual([true, true]);
    expect(s.service.tasks).toHaveLength(4);
    // Ben's own running rows are his to re-run without a question.
    expect(ben({ rows: [2] }).entries).toHaveLength(1);
  });

  it('refuses a launch the credits do not cover, before anything is saved or sent', () => {
    const s = setup();
    const outcome = runLaunch(s.deps, input({ depth: 'xhigh' }), {
      deadline: s.clock.now() + 1000,
      availableCredits: 120,
      reservationPerTask: 50,
      run: 'launch',
    });
    expect(outcome.refused).toBe('Needs 150 credits (3 rows x 50), you have 120: try a lower depth or fewer rows');
    expect(s.service.createCalls).toBe(0);
    expect(s.ledgerTable.rows).toHaveLength(0);
  });

  it('adopts an ambiguous create the task list shows, and never re-sends one it does not show until the user asks', () => {
    const s = setup();
    s.service.faults = ['ambiguous_created', 'ambiguous_lost'];
    runLaunch(s.deps, input(), launchOptions(s.clock));
    // Row 2's task was created despite the lost answer and is adopted; row 3's was not created at all.
    expect(s.service.listCalls).toBeGreaterThan(0);
    expect(s.service.tasks.map((t) => t.brief)).toEqual(['Research Acme', 'Research Initech']);
    expect(s.grid.at(SHEET, 3, 'Status')).toBe('Unconfirmed: may have started, checking');
    runToEnd(s);
    expect(s.service.createCalls).toBe(3);
    // After 30 minutes the row waits for the user: nothing is sent on the absence of evidence.
    s.clock.sleep(30 * 60 * 1000);
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(s.grid.at(SHEET, 3, 'Status')).toBe(
      'Unconfirmed: may have started (Sheet Scout > Research: Check again or Send anyway)',
    );
    const summary = runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(summary.pending).toBe(0);
    expect(s.service.createCalls).toBe(3);
    const [unconfirmed] = reopen(s.deps, s.ledgerTable, s.reportTable)
      .ledger.load()
      .filter((e) => e.state === 'unconfirmed');
    // Check again finds nothing; Send anyway creates it once.
    expect(recheckUnconfirmed(reopen(s.deps, s.ledgerTable, s.reportTable), new Set([unconfirmed.id]))).toMatchObject({
      found: [],
      stillMissing: 1,
    });
    const reopened = reopen(s.deps, s.ledgerTable, s.reportTable);
    sendUnconfirmedAnyway(reopened, unconfirmedOf(reopened, new Set([unconfirmed.id])), PAYER);
    runToEnd(s);
    expect(s.service.createCalls).toBe(4);
    expect(s.service.tasks.map((t) => t.brief).sort()).toEqual([
      'Research Acme',
      'Research Globex',
      'Research Initech',
    ]);
    expect([2, 3, 4].map((row) => s.grid.at(SHEET, row, 'Status'))).toEqual([
      'Done (8 credits)',
      'Done (8 credits)',
      'Done (8 credits)',
    ]);
  });

  it('adopts an unconfirmed create that the task list shows later, on Check again', () => {
    const s = setup([['Acme']]);
    s.service.faults = ['ambiguous_late'];
    runLaunch(s.deps, input({ rows: [2] }), launchOptions(s.clock));
    s.clock.sleep(31 * 60 * 1000);
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    const [record] = reopen(s.deps, s.ledgerTable, s.reportTable).ledger.load();
    expect(record.state).toBe('unconfirmed');
    s.service.land();
    expect(recheckUnconfirmed(reopen(s.deps, s.ledgerTable, s.reportTable), new Set([record.id])).found).toHaveLength(
      1,
    );
    runToEnd(s);
    expect(s.service.createCalls).toBe(1);
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
  });

  it('waits out a grace period for a timed-out create still in flight, then adopts it', () => {
    const s = setup([['Acme']]);
    s.service.faults = ['ambiguous_late'];
    runLaunch(s.deps, input({ rows: [2] }), launchOptions(s.clock));
    expect(s.service.tasks).toHaveLength(0);
    s.clock.sleep(30000);
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(s.service.createCalls).toBe(1);
    s.service.land();
    s.clock.sleep(5 * 60 * 1000);
    runToEnd(s);
    expect(s.service.createCalls).toBe(1);
    expect(s.service.tasks).toHaveLength(1);
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
  });

  it('writes the full report of a task adopted by reconciliation after it already finished', () => {
    const s = setup([['Acme']]);
    s.service.faults = ['ambiguous_created'];
    s.service.listFails = true;
    runLaunch(s.deps, input({ rows: [2] }), launchOptions(s.clock));
    for (let i = 0; i < 3; i++) s.service.advance();
    s.service.listFails = false;
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
    expect(s.grid.at(SHEET, 2, 'Report')).toBe('# Report on Research Acme\nSee [1].');
  });

  it("leaves another account's unreadable task pending without keeping this user's trigger alive", () => {
    const s = setup([['Acme'], ['Globex']]);
    runLaunch(s.deps, input({ rows: [2, 3] }), launchOptions(s.clock));
    s.service.forbidden.add('task_1');
    runToEnd(s);
    const summary = runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(summary).toMatchObject({ pending: 0, unreadable: 1 });
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Queued');
    expect(s.grid.at(SHEET, 3, 'Status')).toBe('Done (8 credits)');
    s.service.forbidden.clear();
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Done (8 credits)');
  });

  it('never re-sends while the task list cannot be read', () => {
    const s = setup([['Acme']]);
    s.service.faults = ['ambiguous_lost'];
    s.service.listFails = true;
    runLaunch(s.deps, input({ rows: [2] }), launchOptions(s.clock));
    for (let i = 0; i < 3; i++) {
      s.clock.sleep(20 * 60 * 1000);
      runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    }
    expect(s.service.createCalls).toBe(1);
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Unconfirmed: may have started, checking');
  });

  it('shows refused creates per row and keeps 503 rows queued for the next tick', () => {
    const s = setup();
    s.service.faults = ['insufficient', 'validation', 'unavailable'];
    runLaunch(s.deps, input(), launchOptions(s.clock));
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Failed: Needs 50 credits, you have 12: try a lower depth');
    expect(s.grid.at(SHEET, 3, 'Status')).toBe('Failed: Rejected: too long (brief)');
    expect(s.grid.at(SHEET, 4, 'Status')).toBe('Queued');
    expect(s.service.tasks).toHaveLength(0);
    runToEnd(s);
    expect(s.service.tasks).toHaveLength(1);
    expect(s.grid.at(SHEET, 4, 'Status')).toBe('Done (8 credits)');
  });

  it("sends a launch's queued creates only on its launcher's ticks: another editor's tick leaves them, unpaid", () => {
    const s = setup();
    s.service.faults = ['unavailable', 'unavailable', 'unavailable'];
    runLaunch(s.deps, input(), launchOptions(s.clock));
    expect(s.service.tasks).toHaveLength(0);
    // Ben's timer or panel ticks: the creates Ana launched would be paid by Ben's token, so they wait for hers.
    const bens = runTick({ ...reopen(s.deps, s.ledgerTable, s.reportTable), account: 'ben@example.com' });
    expect(s.service.tasks).toHaveLength(0);
    expect(bens).toMatchObject({ pending: 0, waiting: 3 });
    expect(s.grid.at(SHEET, 2, 'Status')).toBe('Queued');
    const anas = runTick({ ...reopen(s.deps, s.ledgerTable, s.reportTable), account: PAYER });
    expect(s.service.tasks).toHaveLength(3);
    expect(anas).toMatchObject({ created: 3, waiting: 0 });
  });

  it('writes results into the right rows after sorting and inserted rows, and detaches deleted or edited rows', () => {
    const s = setup([['Initech'], ['Acme'], ['Globex'], ['Umbrella']]);
    runLaunch(s.deps, input({ rows: [2, 3, 4, 5] }), launchOptions(s.clock));
    s.grid.sortBy(SHEET, 1, false); // metadata stays put: the key check finds the rows
    s.grid.insertRow(SHEET, 2);
    s.grid.write(SHEET, [{ row: 2, column: 1, value: 'Hooli' }]);
    const umbrella = 6;
    s.grid.deleteRow(SHEET, umbrella);
    s.grid.write(SHEET, [{ row: 3, column: 1, value: 'Acme Corp' }]); // edited key: Acme's result must not land here
    runToEnd(s);
    expect(s.grid.at(SHEET, 2, 'Report')).toBe('');
    expect(s.grid.at(SHEET, 3, 'Report')).toBe('');
    expect(s.grid.at(SHEET, 3, 'Status')).toBe('Queued');
    expect(s.grid.at(SHEET, 4, 'Report')).toBe('# Report on Research Globex\nSee [1].');
    expect(s.grid.at(SHEET, 5, 'Report')).toBe('# Report on Research Initech\nSee [1].');
    const ledger = new LedgerStore(s.ledgerTable).load();
    expect(
      ledger
        .filter((e) => e.detached)
        .map((e) => e.brief)
        .sort(),
    ).toEqual(['Research Acme', 'Research Umbrella']);
    const reports = new ReportStore(s.reportTable);
    const umbrellaTask = ledger.find((e) => e.brief === 'Research Umbrella');
    expect(reports.get(umbrellaTask!.taskId!)).toMatchObject({ kind: 'markdown' });
  });

  it('writes schema fields with Evidenced notes, failed briefs with their reason, degradation in the status note', () => {
    const s = setup([['Acme'], ['asdf'], ['degraded Co']]);
    const built = buildSchema([
      { name: 'employees', type: 'integer', required: true, evidence: false },
      { name: 'segments', type: 'list', required: false, evidence: false },
      { name: 'hq', type: 'string', required: false, evidence: true },
    ]);
    if (!built.ok) throw new Error('schema');
    s.grid.ensureHeaders(SHEET, ['Employees', 'Segments', 'HQ']);
    const mapping: OutputMapping = {
      kind: 'fields',
      statusHeader: 'Status',
      fields: [
        { name: 'employees', header: 'Employees' },
        { name: 'segments', header: 'Segments' },
        { name: 'hq', header: 'HQ' },
      ],
    };
    runLaunch(s.deps, input({ rows: [2, 3], schema: built.schema, mapping }), launchOptions(s.clock));
    runLaunch(reopen(s.deps, s.ledgerTable, s.reportTable), input({ rows: [4] }), launchOptions(s.clock));
    runToEnd(s);
    expect(s.grid.at(SHEET, 2, 'Employees')).toBe(120);
    expect(s.grid.at(SHEET, 2, 'Segments')).toBe('SMB\nEnterprise');
    expect(s.grid.at(SHEET, 2, 'HQ')).toBe('Dublin');
    expect(s.grid.note(SHEET, 2, 6 + 1)).toBe('Stated on the about page\n\nSources:\nhttps://a.example/1');
    expect(s.grid.at(SHEET, 3, 'Status')).toBe(
      'Failed: No identifiable target. Suggestions: name a company or a domain.',
    );
    expect(s.grid.at(SHEET, 4, 'Status')).toBe('Done (8 credits)');
    expect(s.grid.note(SHEET, 4, 2)).toBe('Produced under degraded conditions:\n- Early finalization');
  });

  it('cuts a report over 50,000 characters in the cell and keeps it whole in the report store', () => {
    const s = setup([['exhaustive Acme']]);
    runLaunch(s.deps, input({ rows: [2] }), launchOptions(s.clock));
    runToEnd(s);
    const cell = String(s.grid.at(SHEET, 2, 'Report'));
    expect(cell.length).toBe(49999);
    expect(cell.endsWith('[Report continues: open Sheet Scout > Research to read it in full]')).toBe(true);
    const entry = new LedgerStore(s.ledgerTable).load()[0];
    const report = new ReportStore(s.reportTable).get(entry.taskId!);
    expect(report && report.kind === 'markdown' && report.markdown.length).toBe(60007);
  });

  it('reads finished tasks whose list item lacks the report in batches and stops cleanly at the time budget; the next tick continues', () => {
    const rows = Array.from({ length: 25 }, (_, i) => [`Company ${i}`]);
    const s = setup(rows);
    runLaunch(s.deps, input({ rows: rows.map((_, i) => i + 2) }), launchOptions(s.clock));
    for (let step = 0; step < 3; step++) s.service.advance();
    const realList = s.service.listTaskPages.bind(s.service);
    s.service.listTaskPages = (queries) =>
      realList(queries).map((page) =>
        page.ok ? { ...page, value: page.value.map((task) => ({ ...task, report: null })) } : page,
      );
    const slow = { ...reopen(s.deps, s.ledgerTable, s.reportTable), limits: { pollBatch: 10, budgetMs: 1500 } };
    const realGet = s.service.getTasks.bind(s.service);
    s.service.getTasks = (ids) => {
      s.clock.sleep(1000);
      return realGet(ids);
    };
    const summary = runTick(slow);
    expect(summary).toMatchObject({ polled: 20, partial: true });
    const next = runTick({
      ...reopen(s.deps, s.ledgerTable, s.reportTable),
      limits: { pollBatch: 10, budgetMs: 10000 },
    });
    expect(next.partial).toBe(false);
    expect(rows.map((_, i) => s.grid.value(SHEET, i + 2, 2)).every((v) => String(v).startsWith('Done'))).toBe(true);
  });

  it('escapes service text that looks like a formula', () => {
    const s = setup([['Acme']]);
    runLaunch(s.deps, input({ rows: [2] }), launchOptions(s.clock));
    s.service.tasks[0].status = 'done';
    s.service.tasks[0].agents = 1;
    s.service.tasks[0].report = {
      kind: 'markdown',
      markdown: '=IMPORTXML("http://evil")',
      sources: [{ id: 1, url: '=HYPERLINK("x")' }],
      degradation_reasons: [],
    };
    runTick(reopen(s.deps, s.ledgerTable, s.reportTable));
    expect(s.grid.at(SHEET, 2, 'Report')).toBe('=IMPORTXML("http://evil")');
    expect(s.grid.at(SHEET, 2, 'Sources')).toBe('[1] =HYPERLINK("x")');
    expect(s.grid.raw.get(`${SHEET}:2:3`)).toBe('\'=IMPORTXML("http://evil")');
  });
});
