// Research through the built bundle, the Apps Script emulator and the sandbox over HTTP: launch from the panel's
// endpoint, trigger ticks on a manual clock, results written into the right rows; every credit figure shown (a row's
// "Done (N credits)", history's cost, the credits badge) checked against the sandbox's money oracle.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { HistoryPageDto, SpendingGuardDto, WriteToRowResponse } from '../../../src/research/contract';
import type { ReportDto } from '../../../src/research/contract';
import type { OutputRequest } from '../../../src/research/launch/launch-request';
import { sandboxSuite } from '../harness';
import {
  advance,
  column,
  doneFiguresAndCharges,
  launch,
  oracleCharges,
  oracleTotals,
  noteAt,
  poll,
  runtimeFor,
  runUntilSettled,
  SHEET,
  tick,
  REPORT_OUTPUT,
} from './harness';

const suite = sandboxSuite({ clock: 'manual' });

let runtime: GasRuntime | null = null;

function select(rt: GasRuntime, row: number): void {
  const sheet = rt.spreadsheet.sheet(SHEET);
  rt.spreadsheet.selection = { sheet, rect: { row, column: 1, numRows: 1, numColumns: 1 } };
}

describe('research (integration)', () => {
  it('launches 20 mixed rows, reports progress, writes reports, fails the unusable brief free, and bills only agents that ran', async () => {
    const companies = await suite.control.companies(18);
    const rows: Array<Array<string | number>> = [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])];
    rows.splice(5, 0, ['asdf', '']); // unusable: no identifiable target
    rows.splice(9, 0, ['', '']); // blank: skipped
    runtime = await runtimeFor(suite, rows);
    const before = await suite.control.credits('sbx_pro_token');
    const response = launch(
      runtime,
      { template: '{Company} {Domain}', depth: 'medium', output: REPORT_OUTPUT },
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    expect(response).toMatchObject({ ok: true, created: 19, skippedEmpty: [10] });
    expect(column(runtime, 'Status').filter((s) => s === 'Queued')).toHaveLength(19);
    expect(runtime.triggers.list().filter((t) => t.handler === 'sheetScoutTimer')).toHaveLength(1);

    // Progress shows up in the status column as the sandbox works.
    let sawProgress = false;
    for (let i = 0; i < 20 && !sawProgress; i++) {
      await advance(suite, runtime, 1000);
      tick(runtime);
      sawProgress = column(runtime, 'Status').some((s) =>
        /^Researching: \d+ iterations?, \d+ agents?, \d+ sources?$/.test(s),
      );
    }
    expect(sawProgress).toBe(true);
    await runUntilSettled(suite, runtime);

    const statuses = column(runtime, 'Status');
    expect(statuses[4]).toMatch(/^Failed: Brief rejected: no identifiable target/);
    expect(noteAt(runtime, 'Status', 6)).toMatch(
      /How to fix: name the company or give its domain.*Nothing was charged/,
    );
    expect(statuses[8]).toBe('');
    const reports = column(runtime, 'Report');
    rows.slice(1).forEach((row, i) => {
      if (i === 4 || i === 8) return;
      expect(statuses[i]).toMatch(/^Done \(\d+ credits\)$/);
      expect(reports[i]).toContain(String(row[1]));
    });
    expect(column(runtime, 'Sources')[0]).toMatch(/^\[1\] https?:\/\//);
    // The trigger goes away when nothing is pending; each row's "Done (N credits)" is what the oracle says its task
    // was charged, the failed brief was charged nothing, and the badge shows the balance the oracle's moves leave.
    expect(runtime.triggers.list().filter((t) => t.handler === 'sheetScoutTimer')).toHaveLength(0);
    const figures = await doneFiguresAndCharges(suite, runtime);
    expect(figures).toHaveLength(19);
    expect(figures.filter((figure) => figure.shown !== null)).toHaveLength(18);
    for (const figure of figures)
      if (figure.shown !== null) expect(figure).toEqual({ ...figure, charged: figure.shown });
    const oracle = await oracleTotals(suite);
    expect(oracle.charged).toBe(figures.reduce((sum, figure) => sum + (figure.shown ?? 0), 0));
    expect(oracle.reserved).toBe(19 * 10);
    expect(runtime.run<{ availableCredits: number }>('getCredits', [], { kind: 'sidebar' })).toEqual({
      availableCredits: before - oracle.reserved + oracle.refunded,
      email: 'pro@sandbox.example.com',
    });
    const tasks = await suite.control.tasks('sbx_pro_token');
    expect(tasks).toHaveLength(19);
  });

  it('writes schema fields (numbers as numbers, lists by line, Evidenced notes) and keeps rows right after sort and insert', async () => {
    const companies = await suite.control.companies(6);
    runtime = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    const output: OutputRequest = {
      kind: 'fields',
      statusHeader: 'Status',
      fields: [
        { name: 'employee_count', type: 'integer', required: true, evidence: false },
        { name: 'headquarters', type: 'string', required: true, evidence: true },
        { name: 'products', type: 'list', required: false, evidence: false },
      ],
      columns: { headquarters: 'HQ' },
    };
    const response = launch(runtime, { template: 'Research {Domain}', depth: 'medium', output }, [2, 3, 4, 5, 6, 7]);
    expect(response.created).toBe(6);
    const sheet = runtime.spreadsheet.sheet(SHEET);
    // While tasks run: sort by company descending, then insert a row in the middle.
    sheet.sortRows({ row: 2, column: 1, numRows: 6, numColumns: sheet.lastColumn() }, [
      { column: 1, ascending: false },
    ]);
    sheet.insertRows(4, 1);
    sheet.setValues('A4:B4', [['Inserted Co', 'inserted.example']]);
    await runUntilSettled(suite, runtime);
    const values = sheet.getValues();
    const headers = values[0] as string[];
    const at = (name: string) => headers.indexOf(name);
    for (let r = 1; r < values.length; r++) {
      const row = values[r];
      if (!row[0]) continue;
      if (row[1] === 'inserted.example') {
        expect(row[at('Status')] ?? '').toBe('');
        continue;
      }
      expect(row[at('Status')]).toMatch(/^Done/);
      expect(typeof row[at('employee_count')]).toBe('number');
      expect(String(row[at('HQ')])).not.toBe('');
      const note = sheet.getNotes()[r][at('HQ')];
      expect(note).toContain('Sources:');
    }
    // Each row's result is that row's task (the viewer locates rows exactly as the writes do).
    let checked = 0;
    for (let r = 1; r < values.length; r++) {
      if (!values[r][0] || values[r][1] === 'inserted.example') continue;
      select(runtime, r + 1);
      const viewed = runtime.run<ReportDto>('getSelectedRowReport', [], { kind: 'sidebar' });
      expect(viewed.brief).toBe(`Research ${values[r][1]}`);
      expect(viewed.report?.kind === 'schema' && viewed.report.fields.employee_count).toBe(
        values[r][at('employee_count')],
      );
      checked += 1;
    }
    expect(checked).toBe(6);
  });

  it('fills a required careers-page URL, and says in the note of each field the research did not fill that it was not found', async () => {
    const companies = await suite.control.companies(5);
    runtime = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
    const output: OutputRequest = {
      kind: 'fields',
      statusHeader: 'Status',
      fields: [
        { name: 'employee_count', type: 'integer', required: true, evidence: false },
        { name: 'careers_page', type: 'url', required: true, evidence: false },
        { name: 'funding_stage', type: 'string', required: false, evidence: false },
        { name: 'ceo_portrait', type: 'url', required: false, evidence: true },
      ],
    };
    expect(launch(runtime, { template: 'Research {Domain}', depth: 'medium', output }, [2, 3, 4, 5, 6])).toMatchObject({
      created: 5,
    });
    await runUntilSettled(suite, runtime);
    const figures = await doneFiguresAndCharges(suite, runtime);
    expect(figures.map((figure) => figure.shown)).toEqual(figures.map((figure) => figure.charged));
    expect(figures).toHaveLength(5);
    expect(column(runtime, 'careers_page')).toEqual(companies.map((c) => `https://${c.domain}/careers`));
    for (let row = 2; row <= 6; row++) {
      expect(noteAt(runtime, 'employee_count', row)).toBe('');
      expect(noteAt(runtime, 'careers_page', row)).toBe('');
      for (const empty of ['funding_stage', 'ceo_portrait']) {
        expect(column(runtime, empty)[row - 2]).toBe('');
        expect(noteAt(runtime, empty, row)).toMatch(/^Not found by the research: /);
      }
    }
  });

  it('refuses launches the plan or credits do not allow, and reports 402s from the service per row', async () => {
    const companies = await suite.control.companies(2);
    runtime = await runtimeFor(suite, [['Company'], ...companies.map((c) => [c.name])], 'sbx_low_token');
    const refused = launch(runtime, { template: 'Research {Company}', depth: 'high', output: REPORT_OUTPUT }, [2]);
    expect(refused.ok).toBe(false);
    expect(refused.message).toBe('Needs 30 credits (1 row x 30), you have 12: try a lower depth or fewer rows');
    // 503 on every create: nothing created, the row stays queued for the tick.
    await suite.control.setFault({
      route: 'tasks.create',
      errorRate: 1,
      errorStatus: 503,
    });
    const queued = launch(runtime, { template: 'Research {Company}', depth: 'medium', output: REPORT_OUTPUT }, [2]);
    expect(queued).toMatchObject({ ok: true, created: 0, queued: 1 });
    expect(column(runtime, 'Status')[0]).toBe('Queued');
    // Meanwhile the credits drop: the tick's create gets the service's 402 and says what is needed.
    await suite.control.clearFaults();
    await suite.control.setAccount('sandbox-low', { credits: 4 });
    tick(runtime);
    expect(column(runtime, 'Status')[0]).toBe('Failed: Needs 10 credits, you have 4: try a lower depth');
    expect(await suite.control.tasks('sbx_low_token')).toHaveLength(0);
    expect((await suite.control.ledger('sbx_low_token')).days).toEqual([]);
    await runtime.close();

    runtime = await runtimeFor(suite, [['Company'], ...companies.map((c) => [c.name])], 'sbx_free_token');
    const free = launch(runtime, { template: 'Research {Company}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3]);
    expect(free.failed).toHaveLength(2);
    expect(column(runtime, 'Status')[0]).toBe('Failed: Research tasks need a Pro plan: upgrade on the dashboard');
  });

  it('reconciles timeouts on create through the task list: no task is created twice', async () => {
    const companies = await suite.control.companies(5);
    runtime = await runtimeFor(suite, [['Company'], ...companies.map((c) => [c.name])], 'sbx_pro_token', {
      urlFetchTimeoutMs: 1000,
    });
    // The creates take effect but answer after the client's 1 s timeout (the sandbox's manual clock states the latency,
    // the emulator counts it), and the task list lags behind them, so the launch cannot confirm them yet.
    await suite.control.setFault({ route: 'tasks.create', latencyMs: 1500, count: 5 });
    await suite.control.setFault({ route: 'tasks.list', listLagMs: 10 * 60_000 });
    const response = launch(
      runtime,
      { template: 'Research {Company}', depth: 'medium', output: REPORT_OUTPUT },
      [2, 3, 4, 5, 6],
    );
    expect(response.ok).toBe(true);
    expect(column(runtime, 'Status')).toEqual(Array(5).fill('Unconfirmed: may have started, checking'));
    // A tick while the list still lags re-sends nothing.
    tick(runtime);
    expect(await suite.control.call<unknown[]>('GET', '/_sandbox/tasks')).toHaveLength(5);
    await suite.control.clearFaults();
    await runUntilSettled(suite, runtime);
    const tasks = await suite.control.tasks('sbx_pro_token');
    const briefs = tasks.map((t) => t.brief);
    expect(new Set(briefs).size).toBe(briefs.length);
    expect(briefs).toHaveLength(5);
    expect(column(runtime, 'Status').every((s) => s.startsWith('Done'))).toBe(true);
    // The timeouts were real: the creates were reconciled through the task list.
    const stats = await suite.control.stats();
    expect(stats['tasks.list']).toBeGreaterThan(0);
  });

  it('cuts a report over 50,000 characters in its cell and shows it in full in the viewer', async () => {
    const [company] = await suite.control.companies(1);
    runtime = await runtimeFor(suite, [['Company'], [company.name]]);
    launch(
      runtime,
      {
        template: 'An exhaustive, comprehensive deep dive on {Company}: everything',
        depth: 'xhigh',
        output: { ...REPORT_OUTPUT, sourcesHeader: null },
      },
      [2],
    );
    await runUntilSettled(suite, runtime);
    const cell = column(runtime, 'Report')[0];
    expect(cell.length).toBeLessThanOrEqual(50000);
    expect(cell).toContain('[Report continues: open Sheet Scout > Research to read it in full]');
    expect(noteAt(runtime, 'Report', 2)).toMatch(/^Sources:\n\[1\] /);
    select(runtime, 2);
    const viewed = runtime.run<ReportDto>('getSelectedRowReport', [], { kind: 'sidebar' });
    expect(viewed.report?.kind === 'markdown' && viewed.report.markdown.length).toBeGreaterThan(50000);
  });

  it('a tick that finds the document lock held does nothing; a second launch does not duplicate running rows', async () => {
    const companies = await suite.control.companies(3);
    runtime = await runtimeFor(suite, [['Company'], ...companies.map((c) => [c.name])]);
    launch(runtime, { template: 'Research {Company}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3, 4]);
    const again = launch(
      runtime,
      { template: 'Research {Company}', depth: 'medium', output: REPORT_OUTPUT },
      [2, 3, 4],
    );
    expect(again).toMatchObject({ created: 0, skippedRunning: [2, 3, 4] });
    await advance(suite, runtime, 120000);
    const release = runtime.locks.hold('document');
    const requestsBefore = runtime.httpLog.length;
    tick(runtime);
    expect(runtime.httpLog.length).toBe(requestsBefore);
    expect(column(runtime, 'Status')).toEqual(['Queued', 'Queued', 'Queued']);
    release();
    // Overlapping executions: a second tick starts while the first is inside a service call; it must not run.
    let nested = 0;
    runtime.run('sheetScoutTimer', [], {
      kind: 'trigger',
      onServiceCall: (call) => {
        if (nested === 0 && call.service === 'UrlFetchApp') {
          nested += 1;
          const inner = runtime!.httpLog.length;
          runtime!.run('sheetScoutTimer', [], { kind: 'trigger' });
          expect(runtime!.httpLog.length).toBe(inner);
        }
      },
    });
    expect(nested).toBe(1);
    expect(column(runtime, 'Status').every((s) => s.startsWith('Done'))).toBe(true);
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(3);
  });

  it('keeps a deleted row\'s result in the ledger and viewer; history lists every task; "Write to selected row" imports one', async () => {
    const companies = await suite.control.companies(3);
    runtime = await runtimeFor(suite, [
      ['Company', 'Domain'],
      ...companies.map((c) => [c.name, c.domain]),
      ['Spare row', ''],
    ]);
    launch(runtime, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3, 4]);
    runtime.spreadsheet.sheet(SHEET).deleteRows(3, 1);
    await runUntilSettled(suite, runtime);
    expect(column(runtime, 'Status').slice(0, 2)).toEqual([
      expect.stringMatching(/^Done/),
      expect.stringMatching(/^Done/),
    ]);
    const status = poll(runtime);
    const detached = status.rows.filter((row) => row.detached);
    expect(detached.map((row) => row.brief)).toEqual([`Research ${companies[1].domain}`]);
    const kept = runtime.run<ReportDto>('getTaskReport', [detached[0].taskId], { kind: 'sidebar' });
    expect(kept).toMatchObject({ found: true, detached: true, row: null });
    expect(kept.report?.kind === 'markdown' && kept.report.markdown).toContain(companies[1].domain);

    const history = runtime.run<HistoryPageDto>('listResearchHistory', [0], { kind: 'sidebar' });
    expect(history.items).toHaveLength(3);
    const charged = await oracleCharges(suite);
    expect(history.items.map((item) => [item.status, item.cost])).toEqual(
      history.items.map((item) => ['done', charged.get(item.id)]),
    );
    expect(history.hasMore).toBe(false);

    // Import the deleted row's task into the spare row (now row 4) with the current mapping.
    const rt = runtime;
    const spent = () => rt.run<SpendingGuardDto>('getSpendingGuard', [], { kind: 'sidebar' }).spentToday;
    const spentBefore = spent();
    select(runtime, 4);
    const written = runtime.run<WriteToRowResponse>(
      'writeTaskToSelectedRow',
      [{ taskId: detached[0].taskId, output: REPORT_OUTPUT }],
      { kind: 'sidebar' },
    );
    expect(written).toEqual({ ok: true, message: `Wrote the report into row 4 (${companies[1].name})`, ask: null });
    expect(column(runtime, 'Report')[2]).toContain(companies[1].domain);
    expect(column(runtime, 'Status')[2]).toMatch(/^Done/);
    // The panel's output is Fields, the task has a report: offered, not refused.
    const fieldsOutput = {
      kind: 'fields',
      statusHeader: 'Status',
      fields: [{ name: 'x', type: 'string', required: false, evidence: false }],
    };
    const wrongKind = runtime.run<WriteToRowResponse>(
      'writeTaskToSelectedRow',
      [{ taskId: detached[0].taskId, output: fieldsOutput }],
      { kind: 'sidebar' },
    );
    expect(wrongKind.ask).toEqual({
      kind: 'output',
      confirm: 'Write the report',
      question: 'This task has a markdown report. Write it into the "Research report" and "Research sources" columns?',
    });
    // Another company's task into row 2 asks first, naming both companies; nothing is written until confirmed.
    select(runtime, 2);
    const before = column(runtime, 'Report')[0];
    const other = runtime.run<WriteToRowResponse>(
      'writeTaskToSelectedRow',
      [{ taskId: detached[0].taskId, output: REPORT_OUTPUT }],
      { kind: 'sidebar' },
    );
    expect(other.ask).toEqual({
      kind: 'company',
      confirm: 'Write anyway',
      question: `This task is about ${companies[1].name} (${companies[1].domain}), but row 2 holds ${companies[0].name} (${companies[0].domain}). Write it into row 2 anyway?`,
    });
    expect(column(runtime, 'Report')[0]).toBe(before);
    const confirmed = runtime.run<WriteToRowResponse>(
      'writeTaskToSelectedRow',
      [{ taskId: detached[0].taskId, output: REPORT_OUTPUT, otherCompany: true }],
      { kind: 'sidebar' },
    );
    expect(confirmed.ok).toBe(true);
    expect(column(runtime, 'Report')[0]).toContain(companies[1].domain);
    select(runtime, 4);
    // The viewer now shows the imported report for the spare row.
    const viewed = runtime.run<ReportDto>('getSelectedRowReport', [], { kind: 'sidebar' });
    expect(viewed.taskId).toBe(detached[0].taskId);
    // Writing finished tasks into rows spends nothing: the cap's figure stays what the service charged.
    expect(spent()).toBe(spentBefore);
    expect(spent()).toBe((await oracleTotals(suite)).charged);
  });

  it('with row metadata that follows sorts, results still land in the right rows', async () => {
    const companies = await suite.control.companies(5);
    runtime = await runtimeFor(
      suite,
      [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])],
      'sbx_pro_token',
      { metadataFollowsSort: true },
    );
    launch(runtime, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [2, 3, 4, 5, 6]);
    const sheet = runtime.spreadsheet.sheet(SHEET);
    sheet.sortRows({ row: 2, column: 1, numRows: 5, numColumns: sheet.lastColumn() }, [
      { column: 2, ascending: false },
    ]);
    await runUntilSettled(suite, runtime);
    const values = sheet.getDisplayValues();
    const at = values[0].indexOf('Report');
    for (const row of values.slice(1, 6)) expect(row[at]).toContain(`(${row[1]})`);
  });
});
