import type { ApiError, Result } from '../../../src/api/errors';
import type { ColumnRecord, CreateColumnsRequest, ReplaceTemplateRequest, Template } from '../../../src/api/types';
import { pinValidationDetails } from '../../../src/tables/refusals';
import {
  readDeclaredKeys,
  placeColumns,
  positionContext,
  pushToTable,
  saveAsTemplate,
} from '../../../src/tables/operations';
import type { TablesApi } from '../../../src/tables/ports';
import { loadHistory, loadPending } from '../../../src/tables/store';
import { agent, draft } from './helpers';
import { ManualClock } from '../../fakes/ports';
import { memoryRecordStores } from '../../fakes/table';

class FakeApi implements TablesApi {
  calls: Array<{ op: string; id: string; body: unknown }> = [];
  columnResults: Array<Result<ColumnRecord[]>> = [];
  templateResults: Array<Result<Template>> = [];
  private next = 1;
  createColumns(tableId: string, request: CreateColumnsRequest): Result<ColumnRecord[]> {
    this.calls.push({ op: 'columns', id: tableId, body: request });
    const queued = this.columnResults.shift();
    if (queued) return queued;
    const records = request.column_configs.map((config) => ({
      id: `col_${this.next++}`,
      created_at: '2026-11-21T12:00:00Z',
      config,
    }));
    return { ok: true, value: records, status: 200, retries: 0 };
  }
  replaceTemplate(templateId: string, request: ReplaceTemplateRequest): Result<Template> {
    this.calls.push({ op: 'template', id: templateId, body: request });
    return (
      this.templateResults.shift() ?? {
        ok: true,
        value: {
          id: templateId,
          created_at: 'x',
          name: request.name ?? 'Old name',
          column_configs: request.column_configs,
        },
        status: 200,
        retries: 0,
      }
    );
  }
}

const fail = (error: ApiError) => ({ ok: false as const, error, retries: 0 });

function setup() {
  const api = new FakeApi();
  const store = memoryRecordStores();
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0));
  return { api, store, clock, deps: { api, stores: store, clock } };
}

const example = () => [
  draft('Domain'),
  draft('Notes', { include: false }),
  agent('Research', 'Research {input}'),
  agent('Pitch', 'Pitch from {research}'),
];

describe('pushToTable', () => {
  it('sends the included columns in order with insert_after and remembers the created columns', () => {
    const { api, store, deps } = setup();
    const outcome = pushToTable(deps, {
      drafts: example(),
      tableInput: 'https://app.example.com/tables/tbl_1',
      position: { at: 'end' },
    });
    expect(outcome).toEqual(expect.objectContaining({ status: 'created', tableId: 'tbl_1' }));
    expect(api.calls).toHaveLength(1);
    const body = api.calls[0].body as CreateColumnsRequest;
    expect(body.insert_after).toBe(true);
    expect(body.column_configs.map((config) => config.key)).toEqual(['domain', 'research', 'pitch']);
    const table = loadHistory(store).tables[0];
    expect(table.columns.map((column) => `${column.id}:${column.key}`)).toEqual([
      'col_1:domain',
      'col_2:research',
      'col_3:pitch',
    ]);
    expect(loadPending(store)).toEqual([]);
  });

  it('sends nothing while the mapping has errors', () => {
    const { api, deps } = setup();
    const outcome = pushToTable(deps, {
      drafts: [agent('A', 'use {b}'), agent('B', 'use {a}')],
      tableInput: 'tbl_1',
      position: { at: 'end' },
    });
    expect(outcome.status).toBe('invalid');
    expect(outcome.issues.filter((issue) => issue.severity === 'error')).toHaveLength(2);
    expect(api.calls).toHaveLength(0);
    expect(pushToTable(deps, { drafts: example(), tableInput: 'https://x/tasks/1', position: { at: 'end' } })).toEqual(
      expect.objectContaining({ status: 'invalid', issues: [expect.objectContaining({ field: 'target' })] }),
    );
  });

  it('lets a later push reference columns pushed before, and offers their order for "after"', () => {
    const { api, store, deps } = setup();
    pushToTable(deps, {
      drafts: [draft('Domain'), agent('Research', 'Research {input}')],
      tableInput: 'tbl_1',
      position: { at: 'end' },
    });
    const second = pushToTable(deps, {
      drafts: [agent('Pitch', 'Pitch from {research}')],
      tableInput: 'tbl_1',
      position: { at: 'after', columnId: 'col_1' },
    });
    expect(second.status).toBe('invalid');
    expect(second.issues[0].message).toContain('after the new columns');
    const third = pushToTable(deps, {
      drafts: [agent('Pitch', 'Pitch from {research}')],
      tableInput: 'tbl_1',
      position: { at: 'after', columnId: 'col_2' },
    });
    expect(third.status).toBe('created');
    expect((api.calls[1].body as CreateColumnsRequest).insert_after).toBe('col_2');
    const beginning = pushToTable(deps, { drafts: [draft('Id')], tableInput: 'tbl_1', position: { at: 'beginning' } });
    expect(beginning.status).toBe('created');
    expect(loadHistory(store).tables[0].columns.map((column) => column.key)).toEqual([
      'id',
      'domain',
      'research',
      'pitch',
    ]);
  });

  it('asks before repeating a push that succeeded, and sends when confirmed', () => {
    const { api, deps } = setup();
    const input = { drafts: example(), tableInput: 'tbl_1', position: { at: 'end' as const } };
    pushToTable(deps, input);
    const again = pushToTable(deps, input);
    expect(again).toEqual(
      expect.objectContaining({
        status: 'confirm',
        message: expect.stringContaining('already pushed to table tbl_1 at 2026-11-21 12:00 UTC'),
      }),
    );
    expect(api.calls).toHaveLength(1);
    expect(pushToTable(deps, { ...input, confirmRepeat: true }).status).toBe('created');
    expect(api.calls).toHaveLength(2);
  });

  it('never re-sends an ambiguous push without confirmation', () => {
    const { api, store, deps } = setup();
    api.columnResults.push(fail({ kind: 'ambiguous', cause: 'timeout', detail: 'Timeout' }));
    const input = { drafts: example(), tableInput: 'tbl_1', position: { at: 'end' as const } };
    const first = pushToTable(deps, input);
    expect(first).toEqual(expect.objectContaining({ status: 'failed', ambiguous: true }));
    expect(loadPending(store)).toEqual([expect.objectContaining({ tableId: 'tbl_1', state: 'ambiguous' })]);
    const second = pushToTable(deps, input);
    expect(second).toEqual(
      expect.objectContaining({ status: 'confirm', message: expect.stringContaining('no clear answer') }),
    );
    expect(api.calls).toHaveLength(1);
    expect(pushToTable(deps, { ...input, drafts: [draft('Other')] }).status).toBe('created');
    expect(pushToTable(deps, { ...input, confirmRepeat: true }).status).toBe('created');
    expect(loadPending(store)).toEqual([]);
  });

  it('treats an execution that stopped mid-call like an ambiguous push', () => {
    const { api, deps } = setup();
    const input = { drafts: example(), tableInput: 'tbl_1', position: { at: 'end' as const } };
    api.createColumns = () => {
      throw new Error('Exceeded maximum execution time');
    };
    expect(() => pushToTable(deps, input)).toThrow();
    api.createColumns = FakeApi.prototype.createColumns.bind(api);
    expect(pushToTable(deps, input).status).toBe('confirm');
  });

  it('treats network failures that may have been sent as ambiguous, and others as definite', () => {
    const { api, store, deps } = setup();
    api.columnResults.push(fail({ kind: 'network', maybeSent: true, detail: 'x' }));
    expect(pushToTable(deps, { drafts: example(), tableInput: 'tbl_1', position: { at: 'end' } })).toEqual(
      expect.objectContaining({ ambiguous: true }),
    );
    api.columnResults.push(fail({ kind: 'network', maybeSent: false, detail: 'x' }));
    expect(pushToTable(deps, { drafts: [draft('B')], tableInput: 'tbl_2', position: { at: 'end' } })).toEqual(
      expect.objectContaining({ status: 'failed', ambiguous: false, message: 'Network error, retry later' }),
    );
    expect(loadPending(store).map((item) => item.tableId)).toEqual(['tbl_1']);
  });

  it('maps 404 to "table not found in your workspace"', () => {
    const { api, deps } = setup();
    api.columnResults.push(fail({ kind: 'not_found' }));
    const outcome = pushToTable(deps, { drafts: example(), tableInput: 'tbl_x', position: { at: 'end' } });
    expect(outcome).toEqual(
      expect.objectContaining({
        status: 'failed',
        message: 'Table not found in your workspace: check the table ID or URL',
      }),
    );
    expect(outcome.issues).toEqual([expect.objectContaining({ row: null, field: 'target' })]);
  });

  it('pins 422 details onto the rows that produced the configs', () => {
    const { api, deps } = setup();
    api.columnResults.push(
      fail({
        kind: 'validation',
        detail: [
          { loc: ['body', 'column_configs', 1, 'value', 'prompt'], msg: 'unknown key', type: 'value_error' },
          { loc: ['body', 'insert_after'], msg: 'unknown column', type: 'value_error' },
        ],
      }),
    );
    const outcome = pushToTable(deps, {
      drafts: example(),
      tableInput: 'tbl_1',
      position: { at: 'after', columnId: 'zzz' },
    });
    expect(outcome).toEqual(
      expect.objectContaining({
        status: 'failed',
        message: 'The service refused the mapping: see the marked field, Prompt of "Research"',
      }),
    );
    expect(outcome.issues).toEqual([
      { row: 2, field: 'prompt', severity: 'error', message: 'Service: unknown key' },
      { row: null, field: 'position', severity: 'error', message: 'Service: unknown column' },
    ]);
  });

  it('names each field the service marked, by its label and column', () => {
    const { api, deps } = setup();
    const configsAt = (index: number, ...rest: Array<string | number>) => ['body', 'column_configs', index, ...rest];
    api.columnResults.push(
      fail({
        kind: 'validation',
        detail: [
          { loc: configsAt(1, 'value', 'prompt'), msg: 'unknown key', type: 'value_error' },
          { loc: configsAt(1, 'value', 'prompt'), msg: 'too long', type: 'value_error' },
          { loc: configsAt(0, 'name'), msg: 'taken', type: 'value_error' },
        ],
      }),
    );
    const outcome = pushToTable(deps, { drafts: example(), tableInput: 'tbl_1', position: { at: 'end' } });
    expect(outcome).toMatchObject({
      message: 'The service refused the mapping: see the 2 marked fields, Prompt of "Research", Name of "Domain"',
    });
  });
});

describe('helpers', () => {
  it('pins unknown locations to the mapping and unknown fields to the extra-fields editor', () => {
    expect(
      pinValidationDetails(
        [
          { loc: ['body', 'column_configs', 0, 'weights'], msg: 'bad', type: 't' },
          { loc: ['body'], msg: 'bad body', type: 't' },
          { loc: ['body', 'column_configs', 9], msg: 'x', type: 't' },
        ],
        [4],
      ),
    ).toEqual([
      { row: 4, field: 'extraJson', severity: 'error', message: 'Service: bad' },
      { row: null, field: 'mapping', severity: 'error', message: 'Service: bad body (body)' },
      { row: null, field: 'mapping', severity: 'error', message: 'Service: x (body.column_configs.9)' },
    ]);
  });

  it('marks the first edited field of a path, so a schema property named "name" lands on the schema', () => {
    const pinned = pinValidationDetails(
      [
        {
          loc: ['body', 'column_configs', 0, 'value', 'output_schema', 'properties', 'name'],
          msg: 'bad type',
          type: 't',
        },
        { loc: ['body', 'column_configs', 0], msg: 'Circular column references: a -> b -> a', type: 'value_error' },
      ],
      [2],
    );
    expect(pinned.map((issue) => [issue.row, issue.field])).toEqual([
      [2, 'outputSchema'],
      [2, 'kind'],
    ]);
  });

  it('places created columns and splits known keys by position', () => {
    const cols = ['a', 'b', 'c'].map((key) => ({ id: `id_${key}`, key, name: key, kind: 'input' }));
    const table = { id: 't', columns: cols, pushes: [], updatedAt: 0 };
    const split = (context: { existingBefore?: readonly string[]; existingAfter?: readonly string[] }) => [
      context.existingBefore,
      context.existingAfter,
    ];
    // A company table's built-in keys are known like the keys the user lists.
    const builtIn = ['company_name', 'company_website', 'company_profile'];
    expect(split(positionContext(table, { at: 'after', columnId: 'id_b' }))).toEqual([['a', 'b', ...builtIn], ['c']]);
    expect(split(positionContext(table, { at: 'after', columnId: 'unknown' }))).toEqual([
      ['a', 'b', 'c', ...builtIn],
      [],
    ]);
    expect(split(positionContext(undefined, { at: 'beginning' }, ['company_name']))).toEqual([[], builtIn]);
    expect(split(positionContext(table, { at: 'after', columnId: 'id_a' }, ['x', 'b']))).toEqual([
      ['a', 'x', ...builtIn],
      ['b', 'c'],
    ]);
    expect(positionContext(table, { at: 'end' }).unknownHint).toContain('Keys already in the table');
    const added = [{ id: 'n', key: 'n', name: 'n', kind: 'input' }];
    expect(placeColumns(cols, added, { at: 'after', columnId: 'id_a' }).map((column) => column.key)).toEqual([
      'a',
      'n',
      'b',
      'c',
    ]);
    expect(placeColumns(cols, added, { at: 'beginning' }).map((column) => column.key)).toEqual(['n', 'a', 'b', 'c']);
  });
});

describe('declared table keys', () => {
  it('reads comma or space separated keys, with or without braces', () => {
    expect(readDeclaredKeys(' company_name, {company_website}  company_name\nx ')).toEqual([
      'company_name',
      'company_website',
      'x',
    ]);
    expect(readDeclaredKeys(undefined)).toEqual([]);
  });

  it('lets a push reference keys the table already has, when declared', () => {
    const { api, deps } = setup();
    const drafts = [agent('About', 'Describe {stage}')];
    const blocked = pushToTable(deps, { drafts, tableInput: 'tbl_1', position: { at: 'end' } });
    expect(blocked.issues[0].message).toContain('Keys already in the table');
    expect(
      pushToTable(deps, { drafts, tableInput: 'tbl_1', position: { at: 'end' }, tableKeys: ['stage'] }).status,
    ).toBe('created');
    expect(api.calls).toHaveLength(1);
  });

  it("knows a company table's built-in keys: a push may use them undeclared, a template may not", () => {
    const { api, deps } = setup();
    const drafts = [agent('About', 'Describe {company_website} for {company_name}')];
    expect(pushToTable(deps, { drafts, tableInput: 'tbl_1', position: { at: 'end' } }).status).toBe('created');
    const template = saveAsTemplate(deps, { drafts, templateInput: 'tpl_1', name: '', confirmReplace: true });
    expect(template).toMatchObject({ status: 'invalid', message: 'Fix 2 problems before saving the template' });
    expect(template.issues.map((issue) => issue.message)).toEqual([
      'Refers to {company_website}, built into company tables: a template holds only its own columns (add one with this key, or push to a table instead)',
      'Refers to {company_name}, built into company tables: a template holds only its own columns (add one with this key, or push to a table instead)',
    ]);
    expect(api.calls).toHaveLength(1);
  });
});

describe('saveAsTemplate', () => {
  it('replaces the template with the included columns and the name', () => {
    const { api, store, deps } = setup();
    const input = { drafts: example(), templateInput: 'https://app.example.com/templates/tpl_1', name: ' Outbound ' };
    expect(saveAsTemplate(deps, { ...input, confirmReplace: false })).toEqual(
      expect.objectContaining({
        status: 'confirm',
        message: 'This replaces every column of template tpl_1 with the 3 included columns. Replace?',
      }),
    );
    expect(api.calls).toHaveLength(0);
    const outcome = saveAsTemplate(deps, { ...input, confirmReplace: true });
    expect(outcome.status).toBe('saved');
    expect(api.calls[0]).toEqual({
      op: 'template',
      id: 'tpl_1',
      body: { name: 'Outbound', column_configs: expect.any(Array) },
    });
    expect(loadHistory(store).templates).toEqual([
      expect.objectContaining({ id: 'tpl_1', name: 'Outbound', columns: 3 }),
    ]);
    // The next save names what it replaces, as this document last saved it.
    expect(
      saveAsTemplate(deps, { drafts: [draft('Domain')], templateInput: 'tpl_1', name: '', confirmReplace: false }),
    ).toEqual(
      expect.objectContaining({
        status: 'confirm',
        message: 'This replaces template "Outbound" (tpl_1) and its 3 columns with the 1 included column. Replace?',
      }),
    );
  });

  it('leaves the name out when none is given', () => {
    const { api, deps } = setup();
    saveAsTemplate(deps, { drafts: example(), templateInput: 'tpl_1', name: '', confirmReplace: true });
    expect(api.calls[0].body).not.toHaveProperty('name');
  });

  it('validates without any existing table columns, and maps 404', () => {
    const { api, deps } = setup();
    expect(
      saveAsTemplate(deps, {
        drafts: [agent('Pitch', 'from {research}')],
        templateInput: 'tpl_1',
        name: '',
        confirmReplace: true,
      }).status,
    ).toBe('invalid');
    api.templateResults.push(fail({ kind: 'not_found' }));
    expect(saveAsTemplate(deps, { drafts: example(), templateInput: 'tpl_x', name: '', confirmReplace: true })).toEqual(
      expect.objectContaining({
        status: 'failed',
        message: 'Template not found in your workspace: check the template ID or URL',
      }),
    );
  });
});
