// Contract tests over HTTP: creating deep research tasks (spec 4.1, 2.1, 7, 8): validation with precise 422 bodies,
// output_schema limits, plan and credit checks (402 bodies), depth budget reservation, and 503 with nothing created.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; the assertions check their shape */
import { sandboxPerFile, TOKENS } from './sandbox-client';

const sandbox = sandboxPerFile();
let target: string;

beforeAll(async () => {
  target = (await sandbox.companies('?limit=1'))[0].domain;
});

const create = (body: unknown, token: string = TOKENS.pro) =>
  sandbox.call('POST', '/v1/deep_research_tasks', { body, token });

/** Nests `leaf` inside `levels` object schemas: nested(1) is the root object with one string property. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
  for (let level = 1; level < levels; level++) schema = { type: 'object', properties: { child: schema } };
  return schema;
}

function expect422(reply: { status: number; body: any }, loc: (string | number)[], type?: string): void {
  expect(reply.status).toBe(422);
  expect(Array.isArray(reply.body.detail)).toBe(true);
  const found = reply.body.detail.find((entry: any) => JSON.stringify(entry.loc) === JSON.stringify(loc));
  expect(found).toBeDefined();
  expect(typeof found.msg).toBe('string');
  if (type) expect(found.type).toBe(type);
}

describe('response of creation (4.1, 2.1)', () => {
  test('returns the task at once with status created and every required field of 2.1', async () => {
    const reply = await create({ brief: `Research ${target}` });
    expect(reply.status).toBe(200);
    const task = reply.body;
    expect(task).toMatchObject({
      status: 'created',
      brief: `Research ${target}`,
      depth: 'medium',
      iterations: 0,
      agents: 0,
      sources: 0,
      report: null,
    });
    expect(typeof task.id).toBe('string');
    expect(Number.isNaN(Date.parse(task.created_at))).toBe(false);
    expect(Number.isNaN(Date.parse(task.updated_at))).toBe(false);
    expect(task.owner).toEqual({ id: 'usr_sandbox_pro', email: 'pro@sandbox.example.com' });
    expect(task.output_schema).toBeNull();
    expect(task.failure_reason).toBeNull();
  });

  test('no research runs at request time: without the clock moving the task stays created', async () => {
    const task = (await create({ brief: `Research ${target}` })).body;
    const again = (await sandbox.call('GET', `/v1/deep_research_tasks/${task.id}`)).body;
    expect(again.status).toBe('created');
    expect(again.agents).toBe(0);
  });

  test('echoes depth and output_schema', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const task = (await create({ brief: `Research ${target}`, depth: 'xhigh', output_schema: schema })).body;
    expect(task.depth).toBe('xhigh');
    expect(task.output_schema).toEqual(schema);
  });
});

describe('brief rules (4.1, 8)', () => {
  test('a missing brief is 422 at ["body","brief"]', async () =>
    expect422(await create({ depth: 'medium' }), ['body', 'brief'], 'missing'));
  test('an empty brief is 422', async () =>
    expect422(await create({ brief: '' }), ['body', 'brief'], 'string_too_short'));
  test('a brief that is not a string is 422', async () =>
    expect422(await create({ brief: 42 }), ['body', 'brief'], 'string_type'));
  test('a brief of 20,000 characters is accepted', async () => {
    const brief = `Research ${target} `.padEnd(20000, 'x');
    expect((await create({ brief })).status).toBe(200);
  });
  test('a brief of 20,001 characters is 422', async () => {
    expect422(await create({ brief: 'x'.repeat(20001) }), ['body', 'brief'], 'string_too_long');
  });
  test('length counts characters, not UTF-16 units: 20,000 emoji are accepted', async () => {
    expect((await create({ brief: '🚀'.repeat(20000) })).status).toBe(200);
  });
  test('a one-character brief is accepted at creation (judged later)', async () => {
    expect((await create({ brief: 'x' })).status).toBe(200);
  });
});

describe('depth rules (4.1, 8)', () => {
  test('depth defaults to medium and reserves 10 credits', async () => {
    const task = (await create({ brief: `Research ${target}` })).body;
    expect(task.depth).toBe('medium');
    expect(await sandbox.credits()).toBe(490);
  });
  test.each([
    ['medium', 10],
    ['high', 30],
    ['xhigh', 50],
  ])('depth %s reserves the full budget of %d credits', async (depth, reserved) => {
    await create({ brief: `Research ${target}`, depth });
    expect(await sandbox.credits()).toBe(500 - reserved);
  });
  test.each(['Medium', 'HIGH', 'low', 'extreme', ''])('depth %p is 422 (lowercase enum only)', async (depth) => {
    expect422(await create({ brief: `Research ${target}`, depth }), ['body', 'depth'], 'enum');
  });
  test('depth null is 422 (leave it out for the default)', async () => {
    expect422(await create({ brief: `Research ${target}`, depth: null }), ['body', 'depth'], 'enum');
  });
});

describe('output_schema rules (4.1 rule 3, 8)', () => {
  test('null means no schema', async () => {
    expect((await create({ brief: `Research ${target}`, output_schema: null })).status).toBe(200);
  });
  test('a non-object schema is 422', async () => {
    expect422(await create({ brief: 'x', output_schema: [1, 2] }), ['body', 'output_schema'], 'dict_type');
    expect422(await create({ brief: 'x', output_schema: 'object' }), ['body', 'output_schema'], 'dict_type');
  });
  test('the root must have type object', async () => {
    expect422(await create({ brief: 'x', output_schema: { type: 'array', items: { type: 'string' } } }), [
      'body',
      'output_schema',
      'type',
    ]);
    expect422(await create({ brief: 'x', output_schema: { properties: { a: { type: 'string' } } } }), [
      'body',
      'output_schema',
      'type',
    ]);
  });
  test('nested property definitions are validated in full, with the loc of the bad keyword', async () => {
    const schema = { type: 'object', properties: { hq: { type: 'object', properties: { city: { type: 'strng' } } } } };
    expect422(
      await create({ brief: 'x', output_schema: schema }),
      ['body', 'output_schema', 'properties', 'hq', 'properties', 'city', 'type'],
      'json_schema',
    );
  });
  test('unknown keywords and formats are rejected where they occur', async () => {
    const keyword = { type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } };
    expect422(await create({ brief: 'x', output_schema: keyword }), [
      'body',
      'output_schema',
      'properties',
      'a',
      'maxLenght',
    ]);
    const format = { type: 'object', properties: { a: { type: 'string', format: 'e-mail' } } };
    expect422(await create({ brief: 'x', output_schema: format }), [
      'body',
      'output_schema',
      'properties',
      'a',
      'format',
    ]);
  });
  test('required must be a list (meta-schema check)', async () => {
    expect422(await create({ brief: 'x', output_schema: { type: 'object', required: 'a' } }), [
      'body',
      'output_schema',
      'required',
    ]);
  });
  test('nesting of 5 levels is accepted, 6 is 422', async () => {
    expect((await create({ brief: `Research ${target}`, output_schema: nested(5) })).status).toBe(200);
    const reply = await create({ brief: 'x', output_schema: nested(6) });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].msg).toMatch(/nesting depth 6/);
  });
  test('nesting through arrays counts too', async () => {
    const schema = nested(5);
    (schema.properties as any).list = { type: 'array', items: nested(5) };
    expect((await create({ brief: 'x', output_schema: schema })).status).toBe(422);
  });
  test('50 properties are accepted, 51 are 422', async () => {
    const properties = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }]));
    expect(
      (await create({ brief: `Research ${target}`, output_schema: { type: 'object', properties: properties(50) } }))
        .status,
    ).toBe(200);
    const reply = await create({ brief: 'x', output_schema: { type: 'object', properties: properties(51) } });
    expect422(reply, ['body', 'output_schema']);
    expect(reply.body.detail[0].msg).toMatch(/51 properties/);
  });
  test('properties count across nested objects and $defs', async () => {
    const half = Object.fromEntries(Array.from({ length: 26 }, (_, index) => [`p${index}`, { type: 'string' }]));
    const schema = {
      type: 'object',
      $defs: { part: { type: 'object', properties: half } },
      properties: { a: { $ref: '#/$defs/part' } },
    };
    const reply = await create({ brief: 'x', output_schema: schema });
    expect(reply.status).toBe(200);
    const tooMany = {
      type: 'object',
      $defs: { part: { type: 'object', properties: half } },
      properties: { ...half, a: { $ref: '#/$defs/part' } },
    };
    expect((await create({ brief: 'x', output_schema: tooMany })).status).toBe(422);
  });
  test('shared definitions are allowed at the root as #/$defs/<name>', async () => {
    const schema = {
      type: 'object',
      $defs: { money: { type: 'number', minimum: 0 } },
      properties: { revenue: { $ref: '#/$defs/money' } },
    };
    expect((await create({ brief: `Research ${target}`, output_schema: schema })).status).toBe(200);
  });
  test('$defs below the root is 422 at its location', async () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'object', $defs: { x: { type: 'string' } }, properties: { b: { $ref: '#/properties/a/$defs/x' } } },
      },
    };
    expect422(await create({ brief: 'x', output_schema: schema }), [
      'body',
      'output_schema',
      'properties',
      'a',
      '$defs',
    ]);
  });
  test('definitions (draft-07 style) is 422', async () => {
    const schema = { type: 'object', definitions: { x: { type: 'string' } }, properties: { a: { type: 'string' } } };
    expect422(await create({ brief: 'x', output_schema: schema }), ['body', 'output_schema', 'definitions']);
  });
  test('a $ref that is not #/$defs/<name>, or does not resolve, is 422', async () => {
    const other = { type: 'object', properties: { a: { type: 'string' }, b: { $ref: '#/properties/a' } } };
    expect422(await create({ brief: 'x', output_schema: other }), ['body', 'output_schema', 'properties', 'b', '$ref']);
    const remote = { type: 'object', properties: { b: { $ref: 'https://example.com/schema.json' } } };
    expect422(await create({ brief: 'x', output_schema: remote }), [
      'body',
      'output_schema',
      'properties',
      'b',
      '$ref',
    ]);
    const dangling = { type: 'object', properties: { b: { $ref: '#/$defs/missing' } } };
    expect422(await create({ brief: 'x', output_schema: dangling }), [
      'body',
      'output_schema',
      'properties',
      'b',
      '$ref',
    ]);
  });
  test('a recursive definition is 422 (unbounded nesting)', async () => {
    const schema = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      properties: { root: { $ref: '#/$defs/node' } },
    };
    expect((await create({ brief: 'x', output_schema: schema })).status).toBe(422);
  });
  test('an unsupported $schema dialect is 422', async () => {
    expect422(
      await create({
        brief: 'x',
        output_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      }),
      ['body', 'output_schema', '$schema'],
    );
  });
  test('an invalid schema creates nothing and charges nothing', async () => {
    await create({ brief: 'x', output_schema: { type: 'array' } });
    expect(await sandbox.credits()).toBe(500);
    expect((await sandbox.call('GET', '/v1/deep_research_tasks')).body).toEqual([]);
  });
});

describe('body shape', () => {
  test('malformed JSON is 422 with a json_invalid entry', async () => {
    const reply = await sandbox.call('POST', '/v1/deep_research_tasks', {
      rawBody: '{"brief": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].type).toBe('json_invalid');
    expect(reply.body.detail[0].loc[0]).toBe('body');
  });
  test('a body that is not an object is 422', async () => {
    expect422(await create(['brief']), ['body']);
  });
  test('every problem is reported at once', async () => {
    const reply = await create({ brief: '', depth: 'HIGH', output_schema: { type: 'array' } });
    expect(reply.body.detail.map((entry: any) => entry.loc.join('.'))).toEqual([
      'body.brief',
      'body.depth',
      'body.output_schema.type',
    ]);
  });
});

describe('plan and credits (4.1 rules 4-5, 7)', () => {
  test('without a Pro plan: 402 plan_required with action', async () => {
    const reply = await create({ brief: `Research ${target}` }, TOKENS.free);
    expect(reply.status).toBe(402);
    expect(reply.body.detail.error).toBe('plan_required');
    expect(typeof reply.body.detail.action).toBe('string');
    expect(await sandbox.credits(TOKENS.free)).toBe(100);
  });
  test('validation comes before the plan check', async () => {
    expect((await create({ brief: '' }, TOKENS.free)).status).toBe(422);
  });
  test('credits below the depth budget: 402 insufficient_credits with required and available credits', async () => {
    const reply = await create({ brief: `Research ${target}`, depth: 'high' }, TOKENS.low);
    expect(reply.status).toBe(402);
    expect(reply.body.detail).toMatchObject({
      error: 'insufficient_credits',
      required_credits: 30,
      available_credits: 12,
    });
    expect(typeof reply.body.detail.action).toBe('string');
    expect(await sandbox.credits(TOKENS.low)).toBe(12);
  });
  test('a lower depth may fit: medium needs 10 of the 12 credits', async () => {
    expect((await create({ brief: `Research ${target}`, depth: 'medium' }, TOKENS.low)).status).toBe(200);
    expect(await sandbox.credits(TOKENS.low)).toBe(2);
    const again = await create({ brief: `Research ${target}` }, TOKENS.low);
    expect(again.body.detail).toMatchObject({
      error: 'insufficient_credits',
      required_credits: 10,
      available_credits: 2,
    });
  });
  test('exactly the budget is enough', async () => {
    await sandbox.control('POST', 'accounts/sandbox-pro', { credits: 50 });
    expect((await create({ brief: `Research ${target}`, depth: 'xhigh' })).status).toBe(200);
    expect(await sandbox.credits()).toBe(0);
  });
  test('plan changes through the control API take effect', async () => {
    await sandbox.control('POST', 'accounts/sandbox-free', { plan: 'pro' });
    expect((await create({ brief: `Research ${target}` }, TOKENS.free)).status).toBe(200);
    await sandbox.control('POST', 'accounts/sandbox-pro', { plan: 'free' });
    expect((await create({ brief: `Research ${target}` })).body.detail.error).toBe('plan_required');
  });
});

describe('503: scheduling unavailable (4.1 rule 2, 7)', () => {
  test('nothing is created or charged, and a retry succeeds', async () => {
    await sandbox.control('POST', 'faults', { route: 'tasks.create', errorRate: 1, errorStatus: 503, count: 1 });
    const failed = await create({ brief: `Research ${target}`, depth: 'high' });
    expect(failed.status).toBe(503);
    expect(typeof failed.body.detail).toBe('string');
    expect(await sandbox.credits()).toBe(500);
    expect((await sandbox.call('GET', '/v1/deep_research_tasks')).body).toEqual([]);
    const retried = await create({ brief: `Research ${target}`, depth: 'high' });
    expect(retried.status).toBe(200);
    expect(await sandbox.credits()).toBe(470);
  });
});
