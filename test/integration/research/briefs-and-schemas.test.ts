// Issue 13 item 6 through the built bundle, the emulator and the sandbox over HTTP: a brief is measured in code
// points, cells reach the brief as displayed, and a pasted schema is checked as a JSON Schema (ajv, 2020-12, strict)
// on the server before anything is sent, while what the spec accepts is sent.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { OutputRequest } from '../../../src/research/launch/launch-request';
import { sandboxSuite } from '../harness';
import { launch, runtimeFor, SHEET } from './harness';

const suite = sandboxSuite({ clock: 'manual' });

const TOKEN = 'sbx_pro_token';
let runtime: GasRuntime | null = null;

const reportOutput: OutputRequest = {
  kind: 'report',
  statusHeader: 'Status',
  reportHeader: 'Report',
  sourcesHeader: null,
};
const pasted = (schema: unknown): OutputRequest => ({
  kind: 'fields',
  statusHeader: 'Status',
  schemaText: JSON.stringify(schema),
});
const withProperty = (property: Record<string, unknown>) => ({ type: 'object', properties: { name: property } });

describe('research briefs and schemas (integration)', () => {
  it('sends a brief of 20,000 code points written with astral characters (40,000 UTF-16 units)', async () => {
    const [company] = await suite.control.companies(1);
    const head = `Research ${company.domain} `;
    const brief = head + '\u{1F4C8}'.repeat(20000 - head.length);
    runtime = await runtimeFor(suite, [['Brief'], [brief]]);
    const response = launch(runtime, { template: '{Brief}', depth: 'medium', output: reportOutput }, [2]);
    expect(response).toMatchObject({ ok: true, created: 1, tooLong: [] });
    const tasks = await suite.control.tasks(TOKEN);
    expect(tasks.map((task) => task.brief)).toEqual([brief]);
  });

  it('puts cells into the brief as they are displayed (a typed number, boolean and currency)', async () => {
    runtime = await runtimeFor(suite, [
      ['Company', 'Employees', 'Public', 'Revenue'],
      ['Acme', '', '', ''],
    ]);
    const sheet = runtime.spreadsheet.sheet(SHEET);
    sheet.typeInto('B2', '42');
    sheet.typeInto('C2', 'true');
    sheet.typeInto('D2', '$1,234.50');
    expect(sheet.getValues('B2:D2')).toEqual([[42, true, 1234.5]]);
    const response = launch(
      runtime,
      {
        template: '{Company}: {Employees} staff, listed {Public}, revenue {Revenue}',
        depth: 'medium',
        output: reportOutput,
      },
      [2],
    );
    expect(response).toMatchObject({ ok: true, created: 1 });
    const tasks = await suite.control.tasks(TOKEN);
    expect(tasks.map((task) => task.brief)).toEqual(['Acme: 42 staff, listed TRUE, revenue $1,234.50']);
  });

  it.each([
    [
      'maxLength "10"',
      withProperty({ type: 'string', maxLength: '10' }),
      'Invalid JSON Schema at #/properties/name/maxLength: must be integer',
    ],
    [
      'minItems -1',
      withProperty({ type: 'array', minItems: -1 }),
      'Invalid JSON Schema at #/properties/name/minItems: must be >= 0',
    ],
    [
      'pattern "("',
      withProperty({ type: 'string', pattern: '(' }),
      'Invalid JSON Schema at #/properties/name/pattern: Invalid regular expression: /(/u: Unterminated group',
    ],
  ])('refuses a pasted schema with %s before sending anything', async (_case, schema, message) => {
    runtime = await runtimeFor(suite, [['Company'], ['Acme']]);
    const response = launch(runtime, { template: 'Research {Company}', depth: 'medium', output: pasted(schema) }, [2]);
    expect(response).toMatchObject({ ok: false, created: 0, errors: [message] });
    expect(await suite.control.tasks(TOKEN)).toEqual([]);
  });

  it.each([
    ['{"type":"object"} with no properties', { type: 'object' }],
    [
      '"required" naming a property it does not define',
      { type: 'object', properties: { hq: { type: 'string' } }, required: ['hq', 'ceo'] },
    ],
  ])('sends a pasted schema the spec accepts: %s', async (_case, schema) => {
    runtime = await runtimeFor(suite, [['Company'], ['Acme']]);
    const response = launch(runtime, { template: 'Research {Company}', depth: 'medium', output: pasted(schema) }, [2]);
    expect(response).toMatchObject({ ok: true, created: 1, failed: [] });
    expect(await suite.control.tasks(TOKEN)).toHaveLength(1);
  });
});
