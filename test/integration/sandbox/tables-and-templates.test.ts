// Contract tests over HTTP: creating table columns (spec 4.5, 2.5, 2.6, addendum column configs) and replacing
// templates (4.6, 2.7), with the read-back endpoints, insert_after semantics, prompt references and 404/422 cases.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; the assertions check their shape */
import { sandboxPerFile, TOKENS } from './sandbox-client';

const sandbox = sandboxPerFile();

const TABLE = 'tbl_labs_companies';
const addColumns = (body: unknown, table = TABLE, token: string = TOKENS.pro) =>
  sandbox.call('POST', `/v1/tables/${table}/columns`, { body, token });
const columnKeys = async (table = TABLE) =>
  (await sandbox.call('GET', `/v1/tables/${table}`)).body.columns.map((column: any) => column.config.key);
const agent = (key: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  kind: 'agent',
  name: key,
  key,
  value: { agent_type: 'research_pro', prompt, output_format: 'text', ...extra },
});

function expectIssue(reply: { status: number; body: any }, loc: (string | number)[]): void {
  expect(reply.status).toBe(422);
  expect(reply.body.detail.map((entry: any) => JSON.stringify(entry.loc))).toContain(JSON.stringify(loc));
}

/** One valid config of each of the 11 variants. */
const ALL_VARIANTS = [
  { kind: 'input', name: 'Domain', key: 'domain' },
  agent('summary', 'Summarize {input} using {domain}'),
  { kind: 'criterion_grade', name: 'B2B fit', key: 'b2b_fit', value: { criterion: 'The company sells to businesses' } },
  { kind: 'company_people_finder', name: 'Leaders', key: 'leaders', value: { roles: ['CEO', 'CTO'], max_results: 3 } },
  { kind: 'discovery_scores', name: 'Scores', key: 'scores' },
  { kind: 'company_name', name: 'Name', key: 'name2' },
  { kind: 'company_website', name: 'Site', key: 'site2' },
  { kind: 'company_profile', name: 'Profile', key: 'profile2' },
  { kind: 'email_finder', name: 'Email', key: 'work_email' },
  { kind: 'phone_finder', name: 'Phone', key: 'phone' },
  { kind: 'reverse_email_lookup', name: 'Who is this', key: 'who', email_column_key: 'work_email' },
];

describe('create columns (4.5, 2.6)', () => {
  test('all 11 config variants are accepted; the response is the created column records', async () => {
    const reply = await addColumns({ column_configs: ALL_VARIANTS });
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(11);
    reply.body.forEach((record: any, index: number) => {
      expect(typeof record.id).toBe('string');
      expect(Number.isNaN(Date.parse(record.created_at))).toBe(false);
      expect(record.config).toMatchObject({
        kind: ALL_VARIANTS[index].kind,
        name: ALL_VARIANTS[index].name,
        key: ALL_VARIANTS[index].key,
      });
    });
    expect(new Set(reply.body.map((record: any) => record.id)).size).toBe(11);
    expect(reply.body[1].config.value).toEqual(ALL_VARIANTS[1].value);
    expect(reply.body[10].config.email_column_key).toBe('work_email');
  });

  test('insert_after defaults to true: new columns go at the end, in order', async () => {
    await addColumns({
      column_configs: [
        { kind: 'input', name: 'A', key: 'a' },
        { kind: 'input', name: 'B', key: 'b' },
      ],
    });
    expect(await columnKeys()).toEqual(['company_name', 'company_website', 'company_profile', 'a', 'b']);
  });

  test('insert_after false puts them at the beginning', async () => {
    await addColumns({
      column_configs: [
        { kind: 'input', name: 'A', key: 'a' },
        { kind: 'input', name: 'B', key: 'b' },
      ],
      insert_after: false,
    });
    expect(await columnKeys()).toEqual(['a', 'b', 'company_name', 'company_website', 'company_profile']);
  });

  test('insert_after a column id puts them right after that column', async () => {
    await addColumns({
      column_configs: [{ kind: 'input', name: 'A', key: 'a' }],
      insert_after: 'col_labs_company_name',
    });
    expect(await columnKeys()).toEqual(['company_name', 'a', 'company_website', 'company_profile']);
    const created = (await addColumns({ column_configs: [{ kind: 'input', name: 'B', key: 'b' }], insert_after: true }))
      .body[0];
    await addColumns({ column_configs: [{ kind: 'input', name: 'C', key: 'c' }], insert_after: created.id });
    expect(await columnKeys()).toEqual(['company_name', 'a', 'company_website', 'company_profile', 'b', 'c']);
  });

  test('an unknown column id in insert_after is 422 and adds nothing', async () => {
    expectIssue(
      await addColumns({ column_configs: [{ kind: 'input', name: 'A', key: 'a' }], insert_after: 'col_nope' }),
      ['body', 'insert_after'],
    );
    expect(await columnKeys()).toEqual(['company_name', 'company_website', 'company_profile']);
  });

  test.each([null, 3, '', ['col_labs_company_name']])(
    'insert_after %p is 422 (unsupported value)',
    async (insertAfter) => {
      expectIssue(
        await addColumns({ column_configs: [{ kind: 'input', name: 'A', key: 'a' }], insert_after: insertAfter }),
        ['body', 'insert_after'],
      );
    },
  );

  test('prompts may reference {input}, existing column keys and new column keys', async () => {
    const reply = await addColumns({
      column_configs: [
        agent('first', 'About {input} at {company_website}'),
        agent('second', 'Refine {first} for {company_name}'),
      ],
    });
    expect(reply.status).toBe(200);
  });

  test('a prompt reference to a key no column has is 422 at the prompt', async () => {
    expectIssue(await addColumns({ column_configs: [agent('first', 'About {missing_key}')] }), [
      'body',
      'column_configs',
      0,
      'value',
      'prompt',
    ]);
  });

  test('a later call can reference columns added earlier', async () => {
    await addColumns({ column_configs: [agent('first', 'About {input}')] });
    expect((await addColumns({ column_configs: [agent('second', 'Use {first}')] })).status).toBe(200);
  });

  test('self references and cycles are 422', async () => {
    expectIssue(await addColumns({ column_configs: [agent('loop', 'Again {loop}')] }), [
      'body',
      'column_configs',
      0,
      'value',
      'prompt',
    ]);
    const cycle = await addColumns({ column_configs: [agent('a', 'Uses {b}'), agent('b', 'Uses {a}')] });
    expect(cycle.status).toBe(422);
    expect(cycle.body.detail[0].msg).toMatch(/Circular/);
  });

  test('a reverse email lookup must name an existing or new column', async () => {
    expectIssue(
      await addColumns({
        column_configs: [{ kind: 'reverse_email_lookup', name: 'Who', key: 'who', email_column_key: 'nowhere' }],
      }),
      ['body', 'column_configs', 0, 'email_column_key'],
    );
  });

  test('duplicate keys (within the call or with existing columns) are 422', async () => {
    expectIssue(await addColumns({ column_configs: [{ kind: 'input', name: 'X', key: 'company_name' }] }), [
      'body',
      'column_configs',
      0,
      'key',
    ]);
    expectIssue(
      await addColumns({
        column_configs: [
          { kind: 'input', name: 'X', key: 'x' },
          { kind: 'input', name: 'Y', key: 'x' },
        ],
      }),
      ['body', 'column_configs', 1, 'key'],
    );
  });

  test.each([
    [{}, ['body', 'column_configs']],
    [{ column_configs: [] }, ['body', 'column_configs']],
    [{ column_configs: 'input' }, ['body', 'column_configs']],
    [{ column_configs: ['input'] }, ['body', 'column_configs', 0]],
    [{ column_configs: [{ name: 'A', key: 'a' }] }, ['body', 'column_configs', 0]],
    [{ column_configs: [{ kind: 'formula', name: 'A', key: 'a' }] }, ['body', 'column_configs', 0, 'kind']],
    [{ column_configs: [{ kind: 'input', key: 'a' }] }, ['body', 'column_configs', 0, 'name']],
    [{ column_configs: [{ kind: 'input', name: 'A', key: '' }] }, ['body', 'column_configs', 0, 'key']],
    [{ column_configs: [{ kind: 'input', name: 'A', key: 'has space' }] }, ['body', 'column_configs', 0, 'key']],
    [{ column_configs: [{ kind: 'agent', name: 'A', key: 'a' }] }, ['body', 'column_configs', 0, 'value']],
    [
      { column_configs: [{ kind: 'agent', name: 'A', key: 'a', value: { prompt: 'x', output_format: 'text' } }] },
      ['body', 'column_configs', 0, 'value', 'agent_type'],
    ],
    [
      { column_configs: [agent('a', 'x', { agent_type: 'wizard' })] },
      ['body', 'column_configs', 0, 'value', 'agent_type'],
    ],
    [{ column_configs: [agent('a', '')] }, ['body', 'column_configs', 0, 'value', 'prompt']],
    [
      { column_configs: [agent('a', 'x', { output_format: 'pdf' })] },
      ['body', 'column_configs', 0, 'value', 'output_format'],
    ],
    [
      { column_configs: [agent('a', 'x', { output_format: 'select' })] },
      ['body', 'column_configs', 0, 'value', 'labels'],
    ],
    [
      { column_configs: [agent('a', 'x', { output_format: 'multiselect', labels: [] })] },
      ['body', 'column_configs', 0, 'value', 'labels'],
    ],
    [
      { column_configs: [agent('a', 'x', { output_format: 'json' })] },
      ['body', 'column_configs', 0, 'value', 'output_schema'],
    ],
    [
      { column_configs: [agent('a', 'x', { output_format: 'json', output_schema: { type: 'array' } })] },
      ['body', 'column_configs', 0, 'value', 'output_schema', 'type'],
    ],
    [
      { column_configs: [{ kind: 'criterion_grade', name: 'A', key: 'a', value: {} }] },
      ['body', 'column_configs', 0, 'value', 'criterion'],
    ],
    [
      { column_configs: [{ kind: 'company_people_finder', name: 'A', key: 'a', value: { roles: [] } }] },
      ['body', 'column_configs', 0, 'value', 'roles'],
    ],
    [
      {
        column_configs: [
          { kind: 'company_people_finder', name: 'A', key: 'a', value: { roles: ['CEO'], max_results: 0 } },
        ],
      },
      ['body', 'column_configs', 0, 'value', 'max_results'],
    ],
    [
      { column_configs: [{ kind: 'reverse_email_lookup', name: 'A', key: 'a' }] },
      ['body', 'column_configs', 0, 'email_column_key'],
    ],
  ])('body %j is 422 at %j', async (body, loc) => expectIssue(await addColumns(body), loc));

  test('select, multiselect and json formats with their required parts are accepted', async () => {
    const reply = await addColumns({
      column_configs: [
        agent('stage', 'Stage of {input}', { output_format: 'select', labels: ['Seed', 'Growth'] }),
        agent('tags', 'Tags of {input}', { output_format: 'multiselect', labels: ['B2B', 'B2C'] }),
        agent('facts', 'Facts of {input}', {
          output_format: 'json',
          output_schema: { type: 'object', properties: { founded: { type: 'integer' } } },
        }),
        agent('linkedin_url', 'LinkedIn of {input}', { agent_type: 'linkedin', output_format: 'url' }),
        agent('reasoned', 'Think about {input}', { agent_type: 'research_reasoning', output_format: 'grade' }),
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body[0].config.value.labels).toEqual(['Seed', 'Growth']);
  });

  test('a table of another workspace, or an unknown table, is 404', async () => {
    const body = { column_configs: [{ kind: 'input', name: 'A', key: 'a' }] };
    expect((await addColumns(body, 'tbl_rival_companies')).status).toBe(404);
    expect((await addColumns(body, 'tbl_missing')).status).toBe(404);
    expect((await addColumns(body, 'tbl_rival_companies', TOKENS.rival)).status).toBe(200);
    expect((await sandbox.call('GET', '/v1/tables/tbl_rival_companies')).status).toBe(404);
  });

  test('members of one organization share its workspace; a solo user has a personal one', async () => {
    expect(
      (await addColumns({ column_configs: [{ kind: 'input', name: 'A', key: 'a' }] }, TABLE, TOKENS.pro2)).status,
    ).toBe(200);
    expect(await columnKeys()).toContain('a');
    expect(
      (await addColumns({ column_configs: [{ kind: 'input', name: 'A', key: 'a' }] }, 'tbl_solo_contacts', TOKENS.solo))
        .status,
    ).toBe(200);
    expect(
      (await addColumns({ column_configs: [{ kind: 'input', name: 'A', key: 'a' }] }, 'tbl_solo_contacts')).status,
    ).toBe(404);
  });

  test('reset brings the seeded columns back', async () => {
    await addColumns({ column_configs: [{ kind: 'input', name: 'A', key: 'a' }] });
    await sandbox.reset();
    expect(await columnKeys()).toEqual(['company_name', 'company_website', 'company_profile']);
  });
});

describe('replace template (4.6, 2.7)', () => {
  const TEMPLATE = 'tpl_labs_account_research';
  const replace = (body: unknown, template = TEMPLATE, token: string = TOKENS.pro) =>
    sandbox.call('PUT', `/v1/templates/${template}`, { body, token });

  test('name and column_configs are replaced; the response is the template object, and reads back the same', async () => {
    const configs = [{ kind: 'input', name: 'Website', key: 'website' }, agent('pitch', 'Write a pitch for {website}')];
    const reply = await replace({ name: 'Outbound', column_configs: configs });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: TEMPLATE, name: 'Outbound', column_configs: configs });
    expect(typeof reply.body.created_at).toBe('string');
    for (const config of reply.body.column_configs)
      expect(Object.keys(config)).toEqual(expect.arrayContaining(['kind', 'name', 'key']));
    expect((await sandbox.call('GET', `/v1/templates/${TEMPLATE}`)).body).toEqual(reply.body);
  });

  test('a null or absent name keeps the current name', async () => {
    const before = (await sandbox.call('GET', `/v1/templates/${TEMPLATE}`)).body.name;
    expect((await replace({ name: null, column_configs: [{ kind: 'input', name: 'A', key: 'a' }] })).body.name).toBe(
      before,
    );
    expect((await replace({ column_configs: [{ kind: 'input', name: 'B', key: 'b' }] })).body.name).toBe(before);
  });

  test('column_configs is required and validated like create-columns', async () => {
    expectIssue(await replace({ name: 'X' }), ['body', 'column_configs']);
    expectIssue(await replace({ column_configs: [{ kind: 'nope', name: 'A', key: 'a' }] }), [
      'body',
      'column_configs',
      0,
      'kind',
    ]);
    expectIssue(await replace({ column_configs: [agent('a', 'Uses {company_name}')] }), [
      'body',
      'column_configs',
      0,
      'value',
      'prompt',
    ]);
    expectIssue(await replace({ name: 5, column_configs: [{ kind: 'input', name: 'A', key: 'a' }] }), ['body', 'name']);
  });

  test('a template of another workspace, or an unknown template, is 404', async () => {
    const body = { column_configs: [{ kind: 'input', name: 'A', key: 'a' }] };
    expect((await replace(body, 'tpl_rival_account_research')).status).toBe(404);
    expect((await replace(body, 'tpl_missing')).status).toBe(404);
    expect((await sandbox.call('GET', '/v1/templates/tpl_rival_account_research')).status).toBe(404);
    expect((await replace(body, 'tpl_rival_account_research', TOKENS.rival)).status).toBe(200);
  });
});
