// Research at sales-ops scale through the built bundle, the emulator (with Google's developer-metadata limit) and the
// sandbox: two 1,000-row launches on one sheet, a launched row told apart by a row tag from a row left out that asks
// the same question (the tag goes when done), and a ledger record larger than a cell (20,000-character brief,
// 50-property schema) that is stored whole, polled and never paid twice.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { ResearchContextDto } from '../../../src/research/contract';
import type { OutputRequest } from '../../../src/research/launch/launch-request';
import { hiddenRows, sandboxSuite } from '../harness';
import { column, launch, poll, runtimeFor, runUntilSettled, SHEET, REPORT_OUTPUT } from './harness';

jest.setTimeout(240000);

const suite = sandboxSuite({ clock: 'manual' });

let runtime: GasRuntime | null = null;

const rowsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

/** Tasks the sandbox holds for the account (the list endpoint, paged). */
async function taskCount(): Promise<number> {
  let count = 0;
  for (let offset = 0; ; offset += 100) {
    const page = await suite.control.call<unknown[]>(
      'GET',
      `/v1/deep_research_tasks?offset=${offset}&limit=100`,
      undefined,
      'sbx_pro_token',
    );
    count += page.length;
    if (page.length < 100) return count;
  }
}

function domainsBy(rt: GasRuntime): string[] {
  return column(rt, 'Domain');
}

/** Every finished row's report names the domain in its own row. */
function expectReportsInTheirRows(rt: GasRuntime, first: number, count: number): void {
  const domains = domainsBy(rt);
  const statuses = column(rt, 'Status');
  const reports = column(rt, 'Report');
  for (let i = first - 2; i < first - 2 + count; i++) {
    expect(statuses[i]).toMatch(/^Done \(\d+ credits\)$/);
    expect(reports[i]).toContain(domains[i]);
  }
}

describe('research row identity and record storage (integration)', () => {
  it('runs two 1,000-row launches on one sheet without filling its metadata, every result in its row after a sort', async () => {
    const companies = await suite.control.companies(2000);
    runtime = await runtimeFor(suite, [['Domain'], ...companies.map((c) => [c.domain])]);
    await suite.control.setAccount('sandbox-pro', { credits: 100000 });
    const request = { template: 'Research {Domain}', depth: 'medium' as const, output: REPORT_OUTPUT };
    expect(launch(runtime, request, rowsFrom(2, 1000))).toMatchObject({ ok: true, created: 1000 });
    await runUntilSettled(suite, runtime, 60000);
    expect(launch(runtime, request, rowsFrom(1002, 1000))).toMatchObject({ ok: true, created: 1000 });
    expect(runtime.spreadsheet.metadataChars()).toBe(0);
    // The user sorts the whole sheet while the second launch runs: results follow their rows.
    const sheet = runtime.spreadsheet.sheet(SHEET);
    sheet.sortRows({ row: 2, column: 1, numRows: 2000, numColumns: sheet.lastColumn() }, [
      { column: 1, ascending: false },
    ]);
    await runUntilSettled(suite, runtime, 60000);
    expectReportsInTheirRows(runtime, 2, 2000);
    expect(await taskCount()).toBe(2000);
    expect(runtime.spreadsheet.metadataChars()).toBe(0);
  });

  it('tags a launched row whose question a row left out asks too, writes only the launched rows, then removes the tag', async () => {
    const companies = await suite.control.companies(3);
    const domains = [companies[0].domain, companies[1].domain, companies[0].domain, companies[2].domain];
    runtime = await runtimeFor(suite, [['Domain', 'Owner'], ...domains.map((d, i) => [d, `owner ${i}`])]);
    // Row 4 repeats row 2's company and is not launched: row 2 is told apart from it by a tag.
    const response = launch(
      runtime,
      { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT },
      [2, 3, 5],
    );
    expect(response).toMatchObject({ ok: true, created: 3 });
    const tagged = runtime.spreadsheet.metadataChars();
    expect(tagged).toBeGreaterThan(0);
    expect(tagged).toBeLessThanOrEqual(16);
    await runUntilSettled(suite, runtime);
    const statuses = column(runtime, 'Status');
    expect([statuses[0], statuses[1], statuses[3]].every((status) => /^Done \(\d+ credits\)$/.test(status))).toBe(true);
    expect(statuses[2]).toBe('');
    expect(runtime.spreadsheet.metadataChars()).toBe(0);
  });

  it('stores a record larger than a cell whole: the paid task is polled and never created again', async () => {
    const [company] = await suite.control.companies(1);
    const brief = `Research ${company.domain}. ${'Say "why" and list the sources.\n'.repeat(700)}`.slice(0, 19252);
    runtime = await runtimeFor(suite, [
      ['Domain', 'Brief'],
      [company.domain, brief],
    ]);
    const properties = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [
        `field_${i}`,
        { type: 'string', description: `Field ${i}: ${'explain it. '.repeat(55)}` },
      ]),
    );
    const output: OutputRequest = {
      kind: 'fields',
      statusHeader: 'Status',
      schemaText: JSON.stringify({ type: 'object', properties }),
    };
    const response = launch(runtime, { template: '{Brief}', depth: 'medium', output }, [2]);
    expect(response).toMatchObject({ ok: true, created: 1 });
    const ledger = hiddenRows(runtime.spreadsheet, 'Sheet Scout research ledger');
    expect(ledger[0][6]).toBe('parts');
    expect(Number(ledger[1][6])).toBeGreaterThanOrEqual(2);
    await runUntilSettled(suite, runtime);
    expect(column(runtime, 'Status')[0]).toMatch(/^Done \(\d+ credits\)$/);
    expect(poll(runtime).damaged).toEqual([]);
    expect(await taskCount()).toBe(1);
  });

  it('remembers a brief template of any size in bytes (6,000 Cyrillic characters) without failing after the create', async () => {
    const [company] = await suite.control.companies(1);
    runtime = await runtimeFor(suite, [['Domain'], [company.domain]]);
    const template = `Исследуйте {Domain}. ${'ж'.repeat(6000)}`;
    expect(launch(runtime, { template, depth: 'medium', output: REPORT_OUTPUT }, [2])).toMatchObject({
      ok: true,
      created: 1,
    });
    const context = runtime.run<ResearchContextDto>('getResearchContext', [], { kind: 'sidebar' });
    expect(context.saved?.template).toBe(template);
    expect(await taskCount()).toBe(1);
  });
});
