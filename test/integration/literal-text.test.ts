// Property: a string from the service reaches its cell as that exact string, through every write path of the built
// bundle (bulk enrichment, research report and fields with evidence, company search results, freezing formulas to
// values). The sandbox answers spec-shaped responses whose descriptive texts are strings fast-check generates, mixed
// with what a spreadsheet misreads (formulas, numbers, dates, times, booleans, apostrophes, full-width signs); each
// written cell must read back as one of those strings with no formula, and every string must have been written.
import fc from 'fast-check';
import { createManualClock, type GasRuntime } from '../../dev/gas-runtime';
import type { SandboxControl } from '../../dev/sandbox/control-client';
import type { SpawnedSandbox } from '../../dev/sandbox/spawn';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import { runtimeFor, startSandbox, TOKEN } from './harness';
import type { EnrichProgress } from '../../src/enrichment/contract';
import type { LaunchResponse } from '../../src/research/contract';
import type { PreviewAnswer, WriteAnswer } from '../../src/search/service';
import { emptyFilterForm } from '../../src/search/spec';

jest.setTimeout(180_000);

const RUNS = 3;
const STRINGS_PER_RUN = 12;

/** What a spreadsheet would read as something other than the text itself. */
const MISREAD = [
  '=1+1',
  '+1+1',
  '-2',
  '@SUM(A1)',
  '=HYPERLINK("https://evil.example","x")',
  '1e10',
  '1E5',
  '1.5e-3',
  'TRUE',
  'false',
  "'leading apostrophe",
  "'=1+1",
  'Jan 5',
  '5 January 2024',
  '10:00 AM',
  '\uff1d1+1',
  '1-10',
  '00123',
  '12%',
  '$1,000',
  '(1,000)',
  '2024-01-02',
  '1/2/2024',
  ' padded ',
  'line one\nline two',
];

const serviceText = fc.oneof(
  fc.constantFrom(...MISREAD),
  fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ''),
  fc
    .tuple(fc.constantFrom('=', '+', '-', '@', "'", '\uff1d'), fc.string({ maxLength: 20 }))
    .map(([head, rest]) => head + rest),
);
const stringLists = fc.uniqueArray(serviceText, { minLength: STRINGS_PER_RUN, maxLength: STRINGS_PER_RUN });

let sandbox: SpawnedSandbox;
let control: SandboxControl;

beforeAll(async () => {
  ({ sandbox, control } = await startSandbox({ clock: 'manual' }));
});

afterAll(async () => {
  await sandbox.stop();
});

async function world(rows: Array<Array<string | number>>, sheetName = 'Leads'): Promise<GasRuntime> {
  return runtimeFor(sandbox.url, {
    sheets: { [sheetName]: rows },
    minRows: rows.length + 100,
    clock: createManualClock(await control.now()),
    addonName: 'Sheet Scout',
  });
}

/** Every string cell of `columns` (1-based) below the header: its value and formula. */
function cellsOf(
  runtime: GasRuntime,
  sheetName: string,
  columns: number[],
): Array<{ value: unknown; formula: string }> {
  const sheet = runtime.spreadsheet.sheet(sheetName);
  const values = sheet.getValues();
  const formulas = sheet.getFormulas();
  return values
    .slice(1)
    .flatMap((row, i) =>
      columns.map((column) => ({ value: row[column - 1], formula: formulas[i + 1]?.[column - 1] ?? '' })),
    );
}

/** The written cells hold exactly the service's strings (no number, date, boolean or formula), all of them. */
function expectLiteral(cells: Array<{ value: unknown; formula: string }>, strings: string[]): void {
  const written = cells.filter((cell) => cell.value !== '' || cell.formula !== '');
  for (const cell of written) {
    expect(cell.formula).toBe('');
    expect(strings).toContain(cell.value);
  }
  const seen = new Set(written.map((cell) => cell.value));
  expect(strings.filter((text) => !seen.has(text))).toEqual([]);
}

async function withHostileText(strings: string[], work: () => Promise<void>): Promise<void> {
  await control.reset();
  await control.call('POST', '/_sandbox/hostile-text', { strings });
  await work();
}

describe('service text stays literal text in every write path (property)', () => {
  it('bulk enrichment', async () => {
    const domains = (await control.companies(STRINGS_PER_RUN, true)).map((company) => company.domain);
    await fc.assert(
      fc.asyncProperty(stringLists, (strings) =>
        withHostileText(strings, async () => {
          const runtime = await world([['Website'], ...domains.map((domain) => [domain])]);
          try {
            runtime.run(
              'startEnrichment',
              [{ fields: ['company_name', 'short_description', 'hq_country', 'hq_city'] }],
              { kind: 'sidebar' },
            );
            let progress = runtime.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
            for (let step = 0; step < 20 && progress.nextStepInMs >= 0; step++)
              progress = runtime.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
            expectLiteral(cellsOf(runtime, 'Leads', [2, 3, 4, 5]), strings);
          } finally {
            await runtime.close();
          }
        }),
      ),
      { numRuns: RUNS, seed: 20261123 },
    );
  });

  it('research: report, fields and evidence', async () => {
    const domains = (await control.companies(4, true)).map((company) => company.domain);
    const properties = {
      summary: { type: 'string' },
      segment: { type: 'string' },
      hq: {
        type: 'object',
        properties: {
          value: { type: 'string' },
          sources: { type: 'array', items: { type: 'string' } },
          reasoning: { type: 'string' },
        },
        required: ['value', 'sources', 'reasoning'],
      },
    };
    await fc.assert(
      fc.asyncProperty(stringLists, (strings) =>
        withHostileText(strings, async () => {
          const runtime = await world([['Domain'], ...domains.map((domain) => [domain])], 'Accounts');
          try {
            const sheetId = runtime.spreadsheet.sheet('Accounts').sheetId;
            const fields = {
              kind: 'fields',
              statusHeader: 'Status',
              schemaText: JSON.stringify({ type: 'object', properties, required: Object.keys(properties) }),
            };
            const report = {
              kind: 'report',
              statusHeader: 'Report status',
              reportHeader: 'Report',
              sourcesHeader: null,
            };
            const launch = (output: unknown, rows: number[]) =>
              runtime.run<LaunchResponse>(
                'launchResearch',
                [{ template: 'Research {Domain}', depth: 'medium', output, sheetId, rows }],
                { kind: 'sidebar' },
              );
            expect(launch(fields, [2, 3]).ok).toBe(true);
            expect(launch(report, [4, 5]).ok).toBe(true);
            for (let round = 0; round < 30; round++) {
              await control.advanceClock(60_000);
              (runtime.clock as ReturnType<typeof createManualClock>).advance(60_000);
              runtime.run('sheetScoutTimer', [], { kind: 'trigger' });
            }
            const headers = runtime.spreadsheet.sheet('Accounts').getValues()[0];
            const column = (header: string) => headers.indexOf(header) + 1;
            const written = cellsOf(runtime, 'Accounts', [
              column('summary'),
              column('segment'),
              column('hq'),
              column('Report'),
            ]);
            // A report cell holds the whole markdown, which the sandbox replaced by one of the strings.
            expectLiteral(
              written,
              strings.filter((text) => written.some((cell) => cell.value === text)),
            );
            expect(written.filter((cell) => cell.value !== '').length).toBe(8);
          } finally {
            await runtime.close();
          }
        }),
      ),
      { numRuns: RUNS, seed: 7 },
    );
  });

  it('company search results written into a new sheet', async () => {
    await fc.assert(
      fc.asyncProperty(stringLists, (strings) =>
        withHostileText(strings, async () => {
          const runtime = await world([['Domain']]);
          try {
            const spec = { mode: 'describe', query: 'software', reference: '', filters: emptyFilterForm(), count: 25 };
            const preview = runtime.run<PreviewAnswer>('previewCompanySearch', [spec], { kind: 'sidebar' });
            if (!preview.ok) throw new Error(preview.message);
            const written = runtime.run<WriteAnswer>(
              'writeCompanySearch',
              [
                {
                  searchId: preview.searchId,
                  spec,
                  columns: ['name', 'domain', 'country', 'city', 'short_description'],
                  target: { kind: 'new' },
                },
              ],
              { kind: 'sidebar' },
            );
            if (!written.ok) throw new Error(written.message);
            expectLiteral(cellsOf(runtime, written.sheet.name, [1, 3, 4, 5]), strings);
          } finally {
            await runtime.close();
          }
        }),
      ),
      { numRuns: RUNS, seed: 11 },
    );
  });

  it('formulas frozen to values', async () => {
    const domains = (await control.companies(STRINGS_PER_RUN, true)).map((company) => company.domain);
    await fc.assert(
      fc.asyncProperty(stringLists, (strings) =>
        withHostileText(strings, async () => {
          const runtime = await world([['Domain'], ...domains.map((domain) => [domain])], 'Sheet1');
          try {
            runtime.properties.document.set(SETTINGS_KEYS.formulaToken, TOKEN);
            runtime.properties.document.set(SETTINGS_KEYS.formulaBaseUrl, sandbox.url);
            runtime.open();
            runtime.userEdit(
              'B2',
              `=COMPANY_LOOKUP(A2:A${domains.length + 1}, "company_name,short_description,hq_city")`,
            );
            const sheet = runtime.spreadsheet.sheet('Sheet1');
            runtime.spreadsheet.selection = { sheet, rect: { row: 2, column: 2, numRows: 1, numColumns: 1 } };
            runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Freeze formulas to values');
            expectLiteral(cellsOf(runtime, 'Sheet1', [2, 3, 4]), strings);
          } finally {
            await runtime.close();
          }
        }),
      ),
      { numRuns: RUNS, seed: 3 },
    );
  });
});
