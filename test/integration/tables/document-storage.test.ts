// The document's one 500 KB store of properties through the built bundle: the Tables mappings (up to 120 KB each)
// live in the hidden records sheet, so five of them leave room for everything else (the formula token, a bulk
// enrichment job); a mapping an older version kept in DocumentProperties is read from there and moved on its next
// save; a store that is full anyway refuses clearly, before anything is written.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { runtimeFor, startSandbox, type SandboxStack } from '../harness';
import type { ColumnDraft } from '../../../src/tables/model';
import type { AlignedView, TablesState } from '../../../src/tables/service';
import type { StartResult } from '../../../src/enrichment/contract';
import { RECORDS_SHEET } from '../../../src/shared/storage/internal-sheets';
import { writeChunked } from '../../../src/shared/storage/chunked-store';

const TOKEN = 'sbx_pro_token';
const PROMPT_CHARS = 50_000;

let stack: SandboxStack;
let runtime: GasRuntime;

beforeAll(async () => {
  stack = await startSandbox({ clock: 'manual' });
}, 30000);

afterAll(async () => {
  await stack?.sandbox.stop();
});

beforeEach(async () => {
  await stack.control.request('POST', '/_sandbox/reset', { token: TOKEN });
  runtime = runtimeFor(stack.sandbox.url, { user: 'owner@example.com', token: TOKEN });
});

afterEach(async () => {
  await runtime?.close();
});

const documentBytes = () => {
  let total = 0;
  for (const [key, value] of Object.entries(runtime.properties.document.all()))
    total += Buffer.byteLength(key) + Buffer.byteLength(value);
  return total;
};

/** A sheet with a domain column and two research columns, active. */
function researchSheet(name: string): number {
  const sheet = name === 'Sheet1' ? runtime.spreadsheet.sheet('Sheet1') : runtime.spreadsheet.insertSheet(name);
  sheet.setValues('A1:C3', [
    ['Domain', 'Research', 'More research'],
    ['stripe.com', '', ''],
    ['acme.io', '', ''],
  ]);
  runtime.spreadsheet.activeSheet = sheet;
  return sheet.sheetId;
}

/** Every column included; the two research columns with prompts of the longest length the dialog keeps. */
function largeMapping(state: TablesState, seed: string): ColumnDraft[] {
  return state.drafts.map((draft, index) =>
    index === 0
      ? { ...draft, include: true }
      : {
          ...draft,
          include: true,
          kind: 'agent' as const,
          agent: { ...draft.agent, prompt: `${seed} {domain} ${'x'.repeat(PROMPT_CHARS)}`.slice(0, PROMPT_CHARS) },
        },
  );
}

function saveLargeMapping(sheetName: string): { sheetId: number; drafts: ColumnDraft[] } {
  const sheetId = researchSheet(sheetName);
  const state = runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' });
  const drafts = largeMapping(state, sheetName);
  const saved = runtime.run<AlignedView>('saveTablesMapping', [{ sheetId, drafts }], { kind: 'sidebar' });
  expect(saved.saveError).toBeNull();
  return { sheetId, drafts };
}

describe('the document property store', () => {
  it('keeps five large mappings (500 KB together) out of it: the formula token and an enrichment job still fit', () => {
    const saved = ['Sheet1', 'Leads B', 'Leads C', 'Leads D', 'Leads E'].map(saveLargeMapping);
    expect(documentBytes()).toBeLessThan(10_000);
    const records = runtime.spreadsheet.sheet(RECORDS_SHEET);
    expect(records.hidden).toBe(true);
    expect(records.lastRow()).toBe(1 + saved.length);

    // Each mapping reads back whole, in a later execution.
    for (const { sheetId, drafts } of saved) {
      runtime.spreadsheet.activeSheet = runtime.spreadsheet.sheets.find((sheet) => sheet.sheetId === sheetId)!;
      const state = runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' });
      expect(state.drafts.map((draft) => draft.agent.prompt)).toEqual(drafts.map((draft) => draft.agent.prompt));
    }

    runtime.run('setFormulaTokenSharing', [true], { kind: 'sidebar' });
    expect(runtime.properties.document.get('sheetscout.formulaToken')).toBe(TOKEN);
    runtime.spreadsheet.activeSheet = runtime.spreadsheet.sheet('Sheet1');
    const started = runtime.run<StartResult>('startEnrichment', [{ fields: ['company_name'] }], { kind: 'sidebar' });
    expect(started).toMatchObject({ ok: true });
  });

  it('reads a mapping an older version kept in DocumentProperties, and moves it out on the next save', () => {
    const sheetId = researchSheet('Sheet1');
    const state = runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' });
    const drafts = largeMapping(state, 'legacy');
    const properties = runtime.properties.document;
    const store = {
      get: (key: string) => properties.get(key),
      fresh: (key: string) => properties.get(key),
      set: (key: string, value: string) => properties.set(key, value),
      setAll: (values: Record<string, string>) => Object.entries(values).forEach(([k, v]) => properties.set(k, v)),
      remove: (key: string) => properties.delete(key),
    };
    writeChunked(store, `sheetscout.tables.mapping.${sheetId}`, JSON.stringify({ v: 1, drafts }));
    expect(documentBytes()).toBeGreaterThan(2 * PROMPT_CHARS);

    const reopened = runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' });
    expect(reopened.saved).toBe(true);
    expect(reopened.drafts.map((draft) => draft.agent.prompt)).toEqual(drafts.map((draft) => draft.agent.prompt));

    runtime.run<AlignedView>('saveTablesMapping', [{ sheetId, drafts: reopened.drafts }], { kind: 'sidebar' });
    // What is left is the sealing key and the fingerprint of each record's current value (well under 1 KB).
    expect(
      Object.keys(runtime.properties.document.all()).filter((key) => key.startsWith('sheetscout.tables.')),
    ).toEqual([]);
    expect(documentBytes()).toBeLessThan(1024);
    const after = runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' });
    expect(after.drafts.map((draft) => draft.agent.prompt)).toEqual(drafts.map((draft) => draft.agent.prompt));
  });

  it('refuses clearly when the store is full anyway: an enrichment before writing anything, a setting with its cause', () => {
    researchSheet('Sheet1');
    const domains = Array.from({ length: 800 }, (_, i) => [`company-number-${i}.com`]);
    runtime.spreadsheet.sheet('Sheet1').setValues('A2:A801', domains);
    // What an older version could leave: large records in DocumentProperties, up to 60 KB short of Google's 500 KB.
    for (let i = 0; documentBytes() < 500 * 1024 - 60_000; i++)
      runtime.properties.document.set(`sheetscout.tables.mapping.${i}.g.0`, 'x'.repeat(8000));
    const sheetBefore = runtime.spreadsheet.sheet('Sheet1').getValues('A1:Z801');

    const started = runtime.run<StartResult>('startEnrichment', [{ fields: ['company_name'] }], { kind: 'sidebar' });
    expect(started).toEqual({
      ok: false,
      message: expect.stringMatching(/^Sheet Scout's storage in this spreadsheet is nearly full: the job needs \d+ KB/),
    });
    expect(runtime.spreadsheet.sheet('Sheet1').getValues('A1:Z801')).toEqual(sheetBefore);

    for (let i = 0; documentBytes() < 500 * 1024 - 100; i++)
      runtime.properties.document.set(`filler.${i}`, 'y'.repeat(50));
    expect(() => runtime.run('setFormulaTokenSharing', [true], { kind: 'sidebar' })).toThrow(
      /Sheet Scout's storage in this spreadsheet is full \(Google allows 500 KB of document properties\)/,
    );
  });
});
