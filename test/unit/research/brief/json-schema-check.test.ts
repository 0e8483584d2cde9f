import { jsonSchemaProblems } from '../../../../src/research/brief/json-schema-check';
import { resolveOutput } from '../../../../src/research/launch/launch-request';
import fc from 'fast-check';

const withProperty = (property: Record<string, unknown>) => ({ type: 'object', properties: { name: property } });

describe('jsonSchemaProblems (2020-12, strict)', () => {
  // Issue 13 item 6: what the service rejects is refused before sending (each was sent before).
  it.each([
    [
      'maxLength as a string',
      withProperty({ type: 'string', maxLength: '10' }),
      /#\/properties\/name\/maxLength: must be integer/,
    ],
    [
      'a negative minItems',
      withProperty({ type: 'array', minItems: -1 }),
      /#\/properties\/name\/minItems: must be >= 0/,
    ],
    [
      'a pattern that is not a regular expression',
      withProperty({ type: 'string', pattern: '(' }),
      /Invalid regular expression/,
    ],
    [
      'an unknown keyword (strict mode)',
      withProperty({ type: 'string', maxLenght: 10 }),
      /unknown keyword: "maxLenght"/,
    ],
    ['an unknown format', withProperty({ type: 'string', format: 'postcode' }), /unknown format "postcode"/],
    [
      'an unknown type',
      withProperty({ type: 'strin' }),
      /#\/properties\/name\/type: must be one of "array", "boolean", "integer"/,
    ],
    [
      'a reference that does not resolve',
      withProperty({ $ref: '#/$defs/missing' }),
      /can't resolve reference #\/\$defs\/missing/,
    ],
    [
      'another dialect',
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      /Unsupported "\$schema"/,
    ],
    ['a list', [], /must be a JSON object/],
  ])('refuses %s', (_case, schema, message) => {
    const problems = jsonSchemaProblems(schema);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(message);
  });

  it.each([
    ['an object with no properties', { type: 'object' }],
    [
      '"required" naming a property that is not defined',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
    ],
    [
      '"properties" without a sibling "type"',
      { type: 'object', properties: { a: { properties: { b: { type: 'integer', minimum: 0 } } } } },
    ],
    ['the 2020-12 dialect declared', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }],
    [
      'formats, patterns and $defs',
      {
        type: 'object',
        $defs: { url: { type: 'string', format: 'uri' } },
        properties: { site: { $ref: '#/$defs/url' }, code: { type: 'string', pattern: '^[A-Z]{2}$', maxLength: 2 } },
      },
    ],
  ])('accepts %s', (_case, schema) => {
    expect(jsonSchemaProblems(schema)).toEqual([]);
  });
});

describe("resolveOutput with the server's check", () => {
  const pasted = (schema: unknown) => ({
    kind: 'fields' as const,
    statusHeader: 'Status',
    schemaText: JSON.stringify(schema),
  });

  it("refuses a schema the service would reject, with the check's message, where the panel's light checks pass it", () => {
    const schema = withProperty({ type: 'string', maxLength: '10' });
    expect(resolveOutput(pasted(schema)).ok).toBe(true);
    expect(resolveOutput(pasted(schema), jsonSchemaProblems)).toEqual({
      ok: false,
      errors: ['Invalid JSON Schema at #/properties/name/maxLength: must be integer'],
    });
  });

  it('accepts {"type":"object"} with only the status column', () => {
    expect(resolveOutput(pasted({ type: 'object' }), jsonSchemaProblems)).toEqual({
      ok: true,
      schema: { type: 'object' },
      mapping: { kind: 'fields', statusHeader: 'Status', fields: [] },
      headers: ['Status'],
    });
  });
});

describe('the strict walk agrees with ajv compiling the schema (what it replaced, and what the sandbox runs)', () => {
  // ajv in this Node process may generate code; the add-in's bundle must not (build/validators.js).
  const Ajv2020 = require('ajv/dist/2020').default;
  const addFormats = require('ajv-formats').default;
  const ajvAccepts = (schema: unknown): boolean => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false });
    addFormats(ajv);
    try {
      if (!ajv.validateSchema(schema)) return false;
      ajv.compile(schema);
      return true;
    } catch {
      return false;
    }
  };
  const leaf = fc.oneof(
    fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean') }),
    fc.record({ type: fc.constant('string'), format: fc.constantFrom('uri', 'date', 'email', 'postcode', 'hostname') }),
    fc.record({ type: fc.constant('string'), pattern: fc.constantFrom('^[A-Z]{2}$', '(', 'a{2,1}', '\\d+', '[') }),
    fc.record({ $ref: fc.constantFrom('#/$defs/known', '#/$defs/missing', '#') }),
    fc.record({ type: fc.constant('string'), maxLenght: fc.constant(3) }),
    fc.record({ enum: fc.constant(['a', 'b']), description: fc.string() }),
  );
  const node = fc.letrec((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.record({
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('schema')),
      }),
      fc.record({ type: fc.constant('array'), items: tie('schema') }),
      fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
    ),
  })).schema;
  it('accepts and refuses the same generated schemas', () => {
    fc.assert(
      fc.property(node, (inner) => {
        const schema = { type: 'object', $defs: { known: { type: 'string' } }, properties: { field: inner } };
        expect(jsonSchemaProblems(schema).length === 0).toBe(ajvAccepts(schema));
      }),
      { numRuns: 400 },
    );
  });
});
