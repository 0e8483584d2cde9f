// Reading response bodies: defaults the interface gives (report kind, degradation_reasons), the
// checks that turn unusable bodies into bad_response reasons, and a task whose brief arrives with
// raw newlines read end to end through the client.

import { createServiceClient } from '../../../src/api/client';
import {
  readColumnRecords,
  readLookup,
  readSearch,
  readSimilar,
  readTask,
  readTaskList,
  readTemplate,
  readUser,
} from '../../../src/api/responses';
import { BASE_URL, ScriptedHttp, TOKEN, candidate, reply, searchBody, taskBody } from './fakes';
import { ManualClock } from '../../fakes/ports';

describe('task reports', () => {
  test('a done task with a markdown report gets the default empty degradation_reasons', () => {
    const report = {
      kind: 'markdown',
      markdown: 'Acme makes anvils [1].',
      sources: [{ id: 1, url: 'https://acme.com' }],
    };
    const read = readTask(taskBody({ status: 'done', report }));
    expect(read).toEqual({
      ok: true,
      value: taskBody({ status: 'done', report: { ...report, degradation_reasons: [] } }),
    });
  });

  test('a report without kind is recognised by its fields', () => {
    const markdown = readTask(taskBody({ report: { markdown: 'x', sources: [] } }));
    const schema = readTask(
      taskBody({ report: { fields: { ceo: { value: 'Ana', sources: ['https://a'], reasoning: 'r' } } } }),
    );
    expect(markdown.ok && markdown.value.report?.kind).toBe('markdown');
    expect(schema.ok && schema.value.report).toEqual({
      kind: 'schema',
      fields: { ceo: { value: 'Ana', sources: ['https://a'], reasoning: 'r' } },
      degradation_reasons: [],
    });
  });

  test('degradation reasons are kept', () => {
    const report = { kind: 'schema', fields: {}, degradation_reasons: ['Finalized early'] };
    const read = readTask(taskBody({ report }));
    expect(read.ok && read.value.report?.degradation_reasons).toEqual(['Finalized early']);
  });

  test.each([
    ['a missing id', { id: undefined }, 'task field id is missing or not a string'],
    ['a string counter', { agents: '3' }, 'task field agents is missing or not a number'],
    ['an unknown depth', { depth: 'low' }, 'unknown task depth low'],
    ['a missing owner', { owner: null }, 'task owner is missing'],
    [
      'a markdown report without sources',
      { report: { kind: 'markdown', markdown: 'x' } },
      'markdown report without markdown or sources',
    ],
    ['a report of unknown kind', { report: { kind: 'pdf' } }, 'unknown report kind pdf'],
  ])('a task with %s is refused', (_name, overrides, reason) => {
    expect(readTask(taskBody(overrides))).toEqual({ ok: false, reason });
  });

  test('a task list must be an array of tasks', () => {
    expect(readTaskList({ tasks: [] })).toEqual({ ok: false, reason: 'task list is not an array' });
    expect(readTaskList([taskBody(), { id: 'x' }])).toMatchObject({ ok: false });
  });
});

describe('other resources', () => {
  test('user organisation fields default to null', () => {
    const read = readUser({ user_id: 'u', email: 'e@x', available_credits: 0 });
    expect(read).toEqual({
      ok: true,
      value: {
        user_id: 'u',
        email: 'e@x',
        available_credits: 0,
        organization_id: null,
        organization_name: null,
        organization_slug: null,
      },
    });
    expect(readUser({ user_id: 'u', email: 'e@x', available_credits: '5' })).toMatchObject({ ok: false });
  });

  test('a profile needs id and domain; context defaults to an empty object', () => {
    expect(readLookup(200, { id: 'c1', domain: 'acme.com', company_name: 'Acme' })).toEqual({
      ok: true,
      value: { state: 'ready', profile: { id: 'c1', domain: 'acme.com', company_name: 'Acme', context: {} } },
    });
    expect(readLookup(200, { domain: 'acme.com' })).toEqual({
      ok: false,
      reason: 'company profile field id is missing or not a string',
    });
  });

  test('search responses need results with id and domain; request metadata is kept', () => {
    expect(readSearch(searchBody(['a.com']))).toEqual({ ok: true, value: searchBody(['a.com']) });
    expect(readSearch({ results: [{ name: 'x' }] })).toEqual({
      ok: false,
      reason: 'search result without id or domain',
    });
    expect(readSearch({ items: [] })).toEqual({ ok: false, reason: 'search response without results' });
    expect(readSearch({ results: [] })).toEqual({ ok: true, value: { results: [], request: {} } });
  });

  test('lookalike responses carry the reference company, or null when it is absent', () => {
    const withReference = readSimilar(searchBody(['b.com'], { reference_company: candidate('acme.com') }));
    expect(withReference.ok && withReference.value.reference_company).toEqual(candidate('acme.com'));
    const without = readSimilar(searchBody(['b.com']));
    expect(without.ok && without.value.reference_company).toBeNull();
    expect(readSimilar(searchBody([], { reference_company: { name: 'x' } }))).toMatchObject({ ok: false });
  });

  test('column records need id, created_at and a config with kind, name and key', () => {
    const record = {
      id: 'c',
      created_at: 't',
      config: { kind: 'agent', name: 'CEO', key: 'ceo', value: { prompt: 'x' } },
    };
    expect(readColumnRecords([record])).toEqual({ ok: true, value: [record] });
    expect(readColumnRecords([{ ...record, config: { kind: 'agent' } }])).toMatchObject({ ok: false });
    expect(readColumnRecords({ columns: [] })).toMatchObject({ ok: false });
  });

  test('a template needs column configs; a null name reads as empty', () => {
    const template = { id: 't', created_at: 'c', name: null, column_configs: [{ kind: 'input', name: 'D', key: 'd' }] };
    expect(readTemplate(template)).toEqual({ ok: true, value: { ...template, name: '' } });
    expect(readTemplate({ ...template, column_configs: [{ kind: 'input' }] })).toMatchObject({ ok: false });
  });
});

test('a task whose brief has raw newlines is read through the client', () => {
  const clock = new ManualClock();
  const http = new ScriptedHttp(clock);
  const client = createServiceClient({ http, clock, settings: { baseUrl: BASE_URL, token: TOKEN } });
  const raw = JSON.stringify(taskBody({ brief: 'PLACEHOLDER' })).replace(
    'PLACEHOLDER',
    'Research Acme:\n- CEO\n- funding',
  );
  http.answer(reply(200, raw));
  const result = client.getTask('task_1');
  expect(result).toMatchObject({ ok: true, value: { brief: 'Research Acme:\n- CEO\n- funding' }, status: 200 });
});
