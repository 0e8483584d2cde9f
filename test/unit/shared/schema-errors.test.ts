// The validators the build compiles (schemasafe's module output, build/validators.js) agree with ajv, which compiled
// them before and which the sandbox runs, and their errors read as ajv's did: the keyword's value is found through
// the schema (and through the meta-schema's $ref and $dynamicRef), the place is the value's.
import fc from 'fast-check';
import { validator, type Json, type Schema } from '@exodus/schemasafe';
import { requestValidators, metaSchemas, META_SCHEMA_ID } from '../../../src/shared/generated/validators';
import { schemaProblem, pointerParts } from '../../../src/shared/schema-errors';
import { requestProblem } from '../../../src/shared/request-check';
import { REFRESH_CHANGES_DAYS, REFRESH_REQUEST } from '../../../src/enrichment/requests';

const Ajv2020 = require('ajv/dist/2020').default;

/** The message schemasafe's first error gives for `value` against `schema` (compiled here, in Node). */
function problemOf(schema: Schema & Record<string, unknown>, value: Json): string {
  const validate = validator(schema, { includeErrors: true });
  if (validate(value)) return 'valid';
  const { path, message } = schemaProblem({ byId: { s: schema }, rootId: 's' }, validate.errors![0], value);
  return `${path.join('.') || '(top)'} ${message}`;
}

describe('request validators', () => {
  it('accept and refuse what ajv does, for every request schema', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [text, validate] of Object.entries(requestValidators)) {
      const reference = ajv.compile(JSON.parse(text));
      fc.assert(
        fc.property(fc.anything(), (value) => expect([text, validate!(value)]).toEqual([text, reference(value)])),
        { numRuns: 100 },
      );
    }
  });

  it('name the part of a request that is wrong', () => {
    expect(requestProblem(REFRESH_REQUEST, { days: 30, skip: ['a.com', 4] }, 'request')).toBe('skip[1] must be string');
    expect(requestProblem(REFRESH_REQUEST, { skip: [] }, 'request')).toBe("request must have required property 'days'");
    expect(requestProblem(REFRESH_CHANGES_DAYS, -1, 'days')).toBe('days must be >= 0');
    expect(requestProblem(REFRESH_CHANGES_DAYS, 30, 'days')).toBeNull();
    expect(() => requestProblem({ type: 'string', title: 'no such request' }, 1, 'x')).toThrow(/rebuild Sheet Scout/);
  });
});

describe('schemaProblem', () => {
  const schema = {
    type: 'object',
    required: ['depth'],
    properties: {
      depth: { enum: ['medium', 'high'] },
      count: { type: 'integer', minimum: 1, maximum: 100 },
      brief: { type: 'string', maxLength: 5 },
      target: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      kind: { const: 'list' },
      tags: { type: 'array', maxItems: 1, items: { type: 'string' } },
      strict: { type: 'object', additionalProperties: false },
    },
  };
  it.each([
    [{}, "(top) must have required property 'depth'"],
    [{ depth: 'low' }, 'depth must be one of "medium", "high"'],
    [{ depth: 'high', count: 0 }, 'count must be >= 1'],
    [{ depth: 'high', count: 101 }, 'count must be <= 100'],
    [{ depth: 'high', count: 1.5 }, 'count must be integer'],
    [{ depth: 'high', brief: 'abcdef' }, 'brief must NOT have more than 5 characters'],
    [{ depth: 'high', target: 3 }, 'target must be string or null'],
    [{ depth: 'high', kind: 'one' }, 'kind must be "list"'],
    [{ depth: 'high', tags: ['a', 'b'] }, 'tags must NOT have more than 1 items'],
    [{ depth: 'high', tags: [7] }, 'tags.0 must be string'],
    [{ depth: 'high', strict: { extra: 1 } }, "strict must NOT have additional property 'extra'"],
    [[], '(top) must be object'],
  ])('words %j as %p', (value, message) => {
    expect(problemOf(schema, value)).toBe(message);
  });

  it("follows the meta-schema's references to the keyword that refused", () => {
    const documents = { byId: metaSchemas, rootId: META_SCHEMA_ID };
    const error = {
      keywordLocation: [
        '#/allOf/1/$ref/properties/properties/additionalProperties/$dynamicRef',
        '/allOf/1/$ref/properties/items/$dynamicRef',
        '/allOf/3/$ref/properties/minItems/$ref/$ref/minimum',
      ].join(''),
      instanceLocation: '#/properties/a/items/minItems',
    };
    const schema = { properties: { a: { items: { minItems: -1 } } } };
    expect(schemaProblem(documents, error, schema)).toEqual({
      path: ['properties', 'a', 'items', 'minItems'],
      message: 'must be >= 0',
    });
  });

  it('reads JSON pointers with escaped parts', () => {
    expect(pointerParts('#/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
    expect(pointerParts('#')).toEqual([]);
  });
});
