// Tables and templates through the built bundle: the dialog's server functions run in the Apps Script emulator
// against the sandbox service over real HTTP; results are read back from the sandbox's table/template GETs.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { hiddenRows, runtimeFor, startSandbox, type SandboxStack } from '../harness';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { ColumnDraft } from '../../../src/tables/model';
import type { PushResponse, TablesState, TemplateResponse } from '../../../src/tables/service';
import { columnLetter } from '../../../src/shared/a1';
import { RECORDS_SHEET } from '../../../src/shared/storage/internal-sheets';

const TOKEN = 'sbx_pro_token';
const CONTACTS = 'tbl_labs_contacts';
const COMPANIES = 'tbl_labs_companies';
const TEMPLATE = 'tpl_labs_account_research';

let stack: SandboxStack;
let runtime: GasRuntime;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await stack.control.request<T>(method, path, { body, token: TOKEN })).body;
}

const tableColumns = async (id: string) =>
  (await api<{ columns: Array<{ id: string; config: Record<string, unknown> }> }>('GET', `/v1/tables/${id}`)).columns;
const columnsRequests = () => runtime.httpLog.filter((entry) => entry.url.includes('/columns')).length;

function sheet() {
  return runtime.spreadsheet.sheet('Sheet1');
}

/** The hidden sheet where the document's Tables records are kept. */
function records() {
  return runtime.spreadsheet.sheet(RECORDS_SHEET);
}

function setHeaders(headers: string[]): void {
  const model = sheet();
  const width = Math.max(headers.length, model.lastColumn());
  model.setValues(`A1:${columnLetter(width)}1`, [[...headers, ...Array(width - headers.length).fill('')]]);
}

function state(): TablesState {
  return runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' });
}

/** The state's drafts, every column included (a new mapping starts with none), with the edits applied (by header). */
function edit(drafts: ColumnDraft[], edits: Record<string, Partial<ColumnDraft>>): ColumnDraft[] {
  return drafts.map((draft) => ({
    ...draft,
    include: true,
    ...(edits[draft.header] ?? {}),
    agent: { ...draft.agent, ...(edits[draft.header]?.agent ?? {}) },
  }));
}

function pushColumns(
  drafts: ColumnDraft[],
  table: string,
  position: unknown,
  extra: Record<string, unknown> = {},
): PushResponse {
  return runtime.run<PushResponse>(
    'pushTablesColumns',
    [{ sheetId: state().sheetId, drafts, table, position, ...extra }],
    { kind: 'sidebar' },
  );
}

const agentOf = (prompt: string, more: Partial<ColumnDraft['agent']> = {}) => ({
  kind: 'agent' as const,
  agent: {
    agentType: 'research_pro' as const,
    outputFormat: 'text' as const,
    prompt,
    labels: [],
    outputSchema: '',
    ...more,
  },
});

beforeAll(async () => {
  stack = await startSandbox({ clock: 'manual' });
}, 30000);

afterAll(async () => {
  await stack?.sandbox.stop();
});

beforeEach(async () => {
  await api('POST', '/_sandbox/reset');
  runtime = runtimeFor(stack.sandbox.url, { user: 'owner@example.com', token: TOKEN });
});

afterEach(async () => {
  await runtime?.close();
});

describe('Tables > Map columns...', () => {
  it('adds the menu item and opens a wide modal dialog', () => {
    runtime.open();
    const addon = runtime.ui.menus.find((menu) => menu.addon)!;
    const tables = addon.items.find((item) => item.subMenu?.caption === 'Tables')!.subMenu!;
    expect(tables.items).toEqual([
      expect.objectContaining({ caption: 'Map columns...', functionName: 'showTablesDialog' }),
    ]);
    runtime.run('showTablesDialog');
    const dialog = runtime.ui.dialogs.at(-1)!;
    expect(dialog).toEqual(expect.objectContaining({ title: 'Map columns to a table', modal: true }));
    expect(dialog.width).toBeGreaterThan(300);
    expect(dialog.html).toContain('Push to table');
  });

  it('pushes every kind in sheet order and the table reads back the same configs', async () => {
    const kinds = [
      'Domain',
      'Research',
      'Fit',
      'People',
      'Emails',
      'Phone',
      'Who',
      'Scores',
      'Company',
      'Website',
      'Profile',
      'Tier',
      'Facts',
    ];
    setHeaders(kinds);
    const drafts = edit(state().drafts, {
      Research: agentOf('Research {input}'),
      Fit: { kind: 'criterion_grade', criterion: 'Sells to hospitals' },
      People: { kind: 'company_people_finder', roles: ['CTO', 'Head of Data'], maxResults: 3 },
      Emails: { kind: 'email_finder' },
      Phone: { kind: 'phone_finder' },
      Who: { kind: 'reverse_email_lookup', emailColumnKey: 'email' },
      Scores: { kind: 'discovery_scores', extraJson: '{"weights": {"fit": 2}}' },
      Company: { kind: 'company_name' },
      Website: { kind: 'company_website' },
      Profile: { kind: 'company_profile', key: 'profile_2' },
      Tier: agentOf('Tier of {research}', { agentType: 'llm', outputFormat: 'select', labels: ['Hot', 'Cold'] }),
      Facts: agentOf('Facts about {input}', {
        agentType: 'research_reasoning',
        outputFormat: 'json',
        outputSchema: '{"type":"object","properties":{"ceo":{"type":"string"}}}',
      }),
    });
    const outcome = pushColumns(
      drafts,
      `https://app.example.com/tables/${CONTACTS}`,
      { at: 'end' },
      { tableKeys: 'full_name, email' },
    );
    expect(outcome.status).toBe('created');
    if (outcome.status !== 'created') return;
    expect(outcome.columns).toHaveLength(13);
    const columns = await tableColumns(CONTACTS);
    expect(columns.map((column) => column.config.key)).toEqual([
      'full_name',
      'email',
      'domain',
      'research',
      'fit',
      'people',
      'emails',
      'phone',
      'who',
      'scores',
      'company',
      'website',
      'profile_2',
      'tier',
      'facts',
    ]);
    const sent = JSON.parse(runtime.httpLog.find((entry) => entry.url.includes('/columns'))!.body!).column_configs;
    expect(columns.slice(2).map((column) => column.config)).toEqual(sent);
    expect(columns.slice(2).map((column) => column.id)).toEqual(outcome.columns.map((column) => column.id));
    expect(sent.find((config: { key: string }) => config.key === 'who')).toEqual({
      kind: 'reverse_email_lookup',
      name: 'Who',
      key: 'who',
      email_column_key: 'email',
    });
  });

  it('inserts at the end, at the beginning and after a column, as insert_after says', async () => {
    setHeaders(['First', 'Second', 'Third']);
    const only = (header: string) => state().drafts.map((draft) => ({ ...draft, include: draft.header === header }));
    expect(pushColumns(only('First'), COMPANIES, { at: 'end' }).status).toBe('created');
    expect(pushColumns(only('Second'), COMPANIES, { at: 'beginning' }).status).toBe('created');
    const after = state()
      .tables.find((table) => table.id === COMPANIES)!
      .columns.find((column) => column.key === 'second')!;
    expect(pushColumns(only('Third'), COMPANIES, { at: 'after', columnId: after.id }).status).toBe('created');
    const keys = (await tableColumns(COMPANIES)).map((column) => column.config.key);
    expect(keys).toEqual(['second', 'third', 'company_name', 'company_website', 'company_profile', 'first']);
    const bodies = runtime.httpLog
      .filter((entry) => entry.url.includes('/columns'))
      .map((entry) => JSON.parse(entry.body!).insert_after);
    expect(bodies).toEqual([true, false, after.id]);
    const known = state()
      .tables.find((table) => table.id === COMPANIES)!
      .columns.map((column) => column.key);
    expect(known).toEqual(['second', 'third', 'first']);
  });

  it('checks references before sending anything', () => {
    setHeaders(['Pitch', 'Domain', 'Research', 'Notes']);
    const drafts = edit(state().drafts, {
      Pitch: agentOf('Pitch from {research}'),
      Research: agentOf('Research {Domain} {nowhere}'),
      Notes: agentOf('  '),
    });
    const outcome = pushColumns(drafts, CONTACTS, { at: 'end' });
    expect(outcome.status).toBe('invalid');
    const messages = outcome.issues
      .filter((issue) => issue.severity === 'error')
      .map((issue) => [issue.row, issue.field, issue.message]);
    expect(messages).toEqual([
      [0, 'prompt', expect.stringContaining('comes later')],
      [2, 'prompt', 'Unknown key {Domain}: did you mean {domain}?'],
      [2, 'prompt', expect.stringContaining('Unknown key {nowhere}')],
      [3, 'prompt', 'Prompt is empty'],
    ]);
    expect(columnsRequests()).toBe(0);
    const keysTaken = pushColumns(
      edit(state().drafts, {
        Research: agentOf('About {company_website}'),
        Pitch: { include: false },
        Notes: { include: false },
      }),
      COMPANIES,
      { at: 'end' },
      { tableKeys: 'company_website' },
    );
    expect(keysTaken.status).toBe('created');
  });

  it('maps 404 and pins 422 details onto the rows', async () => {
    setHeaders(['Domain', 'People']);
    const drafts = edit(state().drafts, { People: { kind: 'company_people_finder', roles: ['CEO'], maxResults: 500 } });
    const missing = pushColumns(edit(drafts, { People: { maxResults: 5 } }), 'tbl_rival_companies', { at: 'end' });
    expect(missing).toEqual(
      expect.objectContaining({
        status: 'failed',
        message: 'Table not found in your workspace: check the table ID or URL',
      }),
    );
    const refused = pushColumns(drafts, CONTACTS, { at: 'end' });
    expect(refused).toEqual(
      expect.objectContaining({
        status: 'failed',
        ambiguous: false,
        message: 'The service refused the mapping: see the marked field, Max results of "People"',
      }),
    );
    expect(refused.issues).toEqual([
      expect.objectContaining({
        row: 1,
        field: 'maxResults',
        severity: 'error',
        message: expect.stringMatching(/^Service: /),
      }),
    ]);
    const badAnchor = pushColumns(edit(drafts, { People: { maxResults: 5 } }), CONTACTS, {
      at: 'after',
      columnId: 'col_nope',
    });
    expect(badAnchor.issues).toEqual([expect.objectContaining({ row: null, field: 'position' })]);
    expect((await tableColumns(CONTACTS)).map((column) => column.config.key)).toEqual(['full_name', 'email']);
  });

  it("knows a company table's built-in keys; Push and Save as template agree on what a prompt may use", async () => {
    setHeaders(['Domain', 'Pitch']);
    const drafts = edit(state().drafts, { Pitch: agentOf('Pitch {company_name} from {company_profile}') });
    // Nothing listed under "Keys already in the table": a company table has them built in.
    expect(pushColumns(drafts, COMPANIES, { at: 'end' }).status).toBe('created');
    // A table without them: the service refuses, and the answer names the field it marked.
    const refused = pushColumns(drafts, CONTACTS, { at: 'end' });
    expect(refused).toMatchObject({
      status: 'failed',
      message: 'The service refused the mapping: see the marked field, Prompt of "Pitch"',
    });
    // A template holds only its own columns: refused before anything is sent, saying why, as the dialog warned.
    const saveTemplate = () =>
      runtime.run<TemplateResponse>(
        'saveTablesTemplate',
        [{ sheetId: state().sheetId, drafts, template: TEMPLATE, name: '', confirmReplace: true }],
        { kind: 'sidebar' },
      );
    const template = saveTemplate();
    expect(template).toMatchObject({ status: 'invalid', message: 'Fix 2 problems before saving the template' });
    expect(template.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.message)).toEqual([
      'Refers to {company_name}, built into company tables: a template holds only its own columns (add one with this key, or push to a table instead)',
      'Refers to {company_profile}, built into company tables: a template holds only its own columns (add one with this key, or push to a table instead)',
    ]);
    expect(runtime.httpLog.filter((entry) => entry.url.includes('/templates/')).length).toBe(0);
    // With a company_name column of its own, the template may use that one.
    setHeaders(['Domain', 'Company name', 'Pitch']);
    const own = edit(state().drafts, {
      'Company name': { key: 'company_name' },
      Pitch: agentOf('Pitch {company_name}'),
    });
    const saved = runtime.run<TemplateResponse>(
      'saveTablesTemplate',
      [{ sheetId: state().sheetId, drafts: own, template: TEMPLATE, name: '', confirmReplace: true }],
      { kind: 'sidebar' },
    );
    expect(saved.status).toBe('saved');
  });

  it("replaces a template's column list and name", async () => {
    setHeaders(['Domain', 'Research', 'Pitch']);
    const drafts = edit(state().drafts, {
      Research: agentOf('Research {input}'),
      Pitch: agentOf('Pitch from {research}', { agentType: 'llm' }),
    });
    const outcome = runtime.run<TemplateResponse>(
      'saveTablesTemplate',
      [
        {
          sheetId: state().sheetId,
          drafts,
          template: `https://app.example.com/templates/${TEMPLATE}`,
          name: 'Outbound',
          confirmReplace: true,
        },
      ],
      { kind: 'sidebar' },
    );
    expect(outcome.status).toBe('saved');
    const template = await api<{ name: string; column_configs: Array<{ key: string }> }>(
      'GET',
      `/v1/templates/${TEMPLATE}`,
    );
    expect(template.name).toBe('Outbound');
    expect(template.column_configs.map((config) => config.key)).toEqual(['domain', 'research', 'pitch']);
    const missing = runtime.run<TemplateResponse>(
      'saveTablesTemplate',
      [{ sheetId: state().sheetId, drafts, template: 'tpl_nope', name: '', confirmReplace: true }],
      { kind: 'sidebar' },
    );
    expect(missing).toEqual(
      expect.objectContaining({
        status: 'failed',
        message: 'Template not found in your workspace: check the template ID or URL',
      }),
    );
    expect(state().templates.map((item) => item.id)).toEqual([TEMPLATE]);
  });

  it('keeps the mapping with the document by header, across moved columns', () => {
    setHeaders(['Domain', 'Research']);
    const drafts = edit(state().drafts, { Research: agentOf('Research {input}') });
    runtime.run('saveTablesMapping', [{ sheetId: state().sheetId, drafts }], { kind: 'sidebar' });
    setHeaders(['Added', 'Research', 'Domain']);
    const reopened = state();
    expect(reopened.drafts.map((draft) => [draft.header, draft.kind, draft.include])).toEqual([
      ['Added', 'input', false],
      ['Research', 'agent', true],
      ['Domain', 'input', true],
    ]);
    expect(reopened.drafts[1].agent.prompt).toBe('Research {input}');
    expect(reopened.letters).toEqual(['A', 'B', 'C']);
    // Kept in the hidden records sheet, not in the document's 500 KB of properties.
    expect(hiddenRows(runtime.spreadsheet, RECORDS_SHEET).map((row) => row[0])).toContain(
      `sheetscout.tables.mapping.${reopened.sheetId}`,
    );
    expect(Object.keys(runtime.properties.document.all()).some((key) => key.startsWith('sheetscout.tables.'))).toBe(
      false,
    );
  });

  it('saves a mapping larger than one cell (long prompts) and reads it back', () => {
    setHeaders(['Domain', 'Research', 'More']);
    const prompt = `Research {input}. ${'Cover products, customers, pricing and news. '.repeat(1100)}`.slice(0, 50000);
    const drafts = edit(state().drafts, { Research: agentOf(prompt), More: agentOf(`${prompt.slice(0, 49000)} more`) });
    runtime.run('saveTablesMapping', [{ sheetId: state().sheetId, drafts }], { kind: 'sidebar' });
    expect(state().drafts[1].agent.prompt).toBe(prompt);
    const cells = records().getValues().flat().map(String);
    expect(Math.max(...cells.map((cell) => cell.length))).toBeLessThan(50000);
    expect(cells.join('').length).toBeGreaterThan(2 * prompt.length - 2000);
  });

  it('answers a refusal, writing nothing, when the mapping’s sheet was deleted while the dialog was open', () => {
    setHeaders(['Domain']);
    const { sheetId, drafts } = state();
    const before = runtime.properties.document.all();
    const answer = runtime.run('saveTablesMapping', [{ sheetId: sheetId + 999, drafts }], { kind: 'sidebar' });
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(/The sheet of this mapping was deleted/) });
    expect(runtime.properties.document.all()).toEqual(before);
    expect(columnsRequests()).toBe(0);
  });

  it('refuses to save or push while another execution holds the document lock', () => {
    setHeaders(['Domain']);
    const drafts = state().drafts;
    const release = runtime.locks.hold('document');
    try {
      expect(pushColumns(drafts, CONTACTS, { at: 'end' })).toEqual({
        ok: false,
        message: expect.stringMatching(/Sheet Scout is busy with this spreadsheet/),
      });
    } finally {
      release();
    }
    expect(columnsRequests()).toBe(0);
  }, 30000);

  it('asks for setup when there is no token, sending nothing and leaving no marker', () => {
    setHeaders(['Domain']);
    runtime.properties.user().delete(SETTINGS_KEYS.token);
    const outcome = pushColumns(edit(state().drafts, {}), CONTACTS, { at: 'end' });
    expect(outcome).toEqual(
      expect.objectContaining({
        status: 'failed',
        ambiguous: false,
        message: 'Set up Sheet Scout: Extensions > Sheet Scout > Settings',
      }),
    );
    expect(runtime.httpLog).toHaveLength(0);
    expect(state().pending).toEqual([]);
  });

  it("never re-sends a push that got no clear answer without the user's confirmation", async () => {
    setHeaders(['Domain']);
    const drafts = edit(state().drafts, {});
    await api('POST', '/_sandbox/faults', { route: 'columns', dropRate: 1, count: 1 });
    const first = pushColumns(drafts, CONTACTS, { at: 'end' });
    expect(first).toEqual(expect.objectContaining({ status: 'failed', ambiguous: true }));
    expect(columnsRequests()).toBe(1);
    const second = pushColumns(drafts, CONTACTS, { at: 'end' });
    expect(second.status).toBe('confirm');
    expect(columnsRequests()).toBe(1);
    expect(state().pending).toEqual([expect.objectContaining({ tableId: CONTACTS, state: 'ambiguous' })]);
    const confirmed = pushColumns(drafts, CONTACTS, { at: 'end' }, { confirmRepeat: true });
    expect(confirmed.status).toBe('created');
    expect(state().pending).toEqual([]);
  });
});
