// Research bought once per question (issue 46), through the built bundle, the emulator and the sandbox: a contact list
// whose rows repeat companies asks each company's question once, the panel's count says so before anything is spent,
// every row of a question gets the result after a sort during the run, and the money is the sandbox's record of one
// task per question. A brief that names another column asks each row its own question.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { QuestionCountDto } from '../../../src/research/contract';
import { sandboxSuite } from '../harness';
import {
  column,
  launch,
  oracleCharges,
  oracleTotals,
  poll,
  runtimeFor,
  runUntilSettled,
  sheetId,
  REPORT_OUTPUT,
  SHEET,
} from './harness';

jest.setTimeout(240000);

const suite = sandboxSuite({ clock: 'manual' });

const rowsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

function countQuestions(runtime: GasRuntime, template: string, rows: number[]): QuestionCountDto {
  return runtime.run<QuestionCountDto>('countResearchQuestions', [{ sheetId: sheetId(runtime), rows, template }], {
    kind: 'sidebar',
  });
}

/** A contact list: `contacts` rows over `companies` companies, each company's contacts spread over the list. */
async function contactList(companies: number, contacts: number): Promise<{ runtime: GasRuntime; domains: string[] }> {
  const found = await suite.control.companies(companies);
  const domains = Array.from({ length: contacts }, (_, i) => found[i % companies].domain);
  const runtime = await runtimeFor(suite, [
    ['Contact', 'Domain'],
    ...domains.map((domain, i) => [`Contact ${i + 1}`, domain]),
  ]);
  await suite.control.setAccount('sandbox-pro', { credits: 100000 });
  return { runtime, domains };
}

describe('research bought once per question (integration)', () => {
  it('asks 10 companies once for 20 contact rows: counted before, paid once, written to every row after a sort', async () => {
    const { runtime } = await contactList(10, 20);
    const template = 'Research {Domain}';
    const rows = rowsFrom(2, 20);
    expect(countQuestions(runtime, template, rows)).toEqual({ asking: 20, questions: 10, reusable: null });
    const before = await oracleTotals(suite);
    const response = launch(runtime, { template, depth: 'medium', output: REPORT_OUTPUT }, rows);
    expect(response).toMatchObject({ ok: true, created: 10, rows: 20 });
    expect(response.message).toContain('for 20 rows');
    // The sandbox's record: ten tasks, each reserving a medium task's 10 credits.
    const reserved = await oracleTotals(suite);
    expect(reserved.reserved - before.reserved).toBe(100);
    // The user sorts by company while the tasks run: each result follows its rows.
    const sheet = runtime.spreadsheet.sheet(SHEET);
    sheet.sortRows({ row: 2, column: 1, numRows: 20, numColumns: sheet.lastColumn() }, [
      { column: 2, ascending: true },
      { column: 1, ascending: false },
    ]);
    await runUntilSettled(suite, runtime);
    const domains = column(runtime, 'Domain');
    const reports = column(runtime, 'Report');
    const statuses = column(runtime, 'Status');
    const charges = await oracleCharges(suite);
    expect(charges.size).toBe(10);
    const byDomain = new Map<string, string[]>();
    domains.forEach((domain, i) => {
      expect(reports[i]).toContain(domain);
      byDomain.set(domain, [...(byDomain.get(domain) ?? []), statuses[i]]);
    });
    // Both rows of a company show the one task's charge, as shared; the charges are the sandbox's, once each.
    const shown = [...byDomain.values()].map((pair) => {
      expect(pair).toHaveLength(2);
      expect(pair[0]).toBe(pair[1]);
      const figure = /^Done \((\d+) credits, shared by 2 rows\)$/.exec(pair[0]);
      expect(figure).not.toBeNull();
      return Number(figure?.[1]);
    });
    expect(shown.sort((a, b) => a - b)).toEqual([...charges.values()].sort((a, b) => a - b));
    const after = await oracleTotals(suite);
    expect(after.charged - before.charged).toBe(shown.reduce((sum, figure) => sum + figure, 0));
    // The Tasks tab lists one task per question, with the rows it is for.
    const listed = poll(runtime).rows;
    expect(listed).toHaveLength(10);
    expect(listed.every((entry) => entry.rows.length === 2)).toBe(true);
  });

  it('asks each row its own question when the brief names the contact, and writes no row tags', async () => {
    const { runtime } = await contactList(5, 10);
    const template = 'Research {Domain} for {Contact}.';
    const rows = rowsFrom(2, 10);
    expect(countQuestions(runtime, template, rows)).toEqual({ asking: 10, questions: 10, reusable: null });
    const response = launch(runtime, { template, depth: 'medium', output: REPORT_OUTPUT }, rows);
    expect(response).toMatchObject({ ok: true, created: 10, rows: 10 });
    expect(runtime.spreadsheet.metadataChars()).toBe(0);
    await runUntilSettled(suite, runtime);
    const contacts = column(runtime, 'Contact');
    expect(column(runtime, 'Report').every((report, i) => report.includes(`for ${contacts[i]}.`))).toBe(true);
    expect((await oracleCharges(suite)).size).toBe(10);
  });

  it('writes only the launched rows when rows left out ask the same question', async () => {
    const { runtime } = await contactList(3, 6);
    const template = 'Research {Domain}';
    // Rows 2-4 hold the three companies once; rows 5-7 repeat them and are not launched.
    const response = launch(runtime, { template, depth: 'medium', output: REPORT_OUTPUT }, [2, 3, 4]);
    expect(response).toMatchObject({ ok: true, created: 3, rows: 3 });
    await runUntilSettled(suite, runtime);
    const statuses = column(runtime, 'Status');
    expect(statuses.slice(0, 3).every((status) => /^Done \(\d+ credits\)$/.test(status))).toBe(true);
    expect(statuses.slice(3)).toEqual(['', '', '']);
    expect(runtime.spreadsheet.metadataChars()).toBe(0);
  });
});
