// The validators the build compiles (schemasafe's module output, build/validators.js) agree with ajv, which compiled
// them before and which the sandbox runs, and their errors read as ajv's did: the keyword's value is found through
// the schema (and through the meta-schema's $ref and $dynamicRef), the place is the value's. Made compact by the build
// (build/compact-validators.js, build/shared-parts.js), they still do exactly what schemasafe's own code does.
import fc from 'fast-check';
import { validator, type Json, type Schema } from '@exodus/schemasafe';
import { requestValidator, metaSchemas, META_SCHEMA_ID } from '../../../src/shared/generated/validators';
import { schemaProblem, pointerParts } from '../../../src/shared/schema-errors';
import { requestProblem } from '../../../src/shared/request-check';
import { REFRESH_CHANGES_DAYS, REFRESH_REQUEST } from '../../../src/enrichment/requests';

const Ajv2020 = require('ajv/dist/2020').default;
const { requestSchemaTexts, REQUEST_OPTIONS } = require('../../../build/validators');

/** The message schemasafe's first error gives for `value` against `schema` (compiled here, in Node). */
function problemOf(schema: Schema & Record<string, unknown>, value: Json): string {
  const validate = validator(schema, { includeErrors: true });
  if (validate(value)) return 'valid';
  const { path, message } = schemaProblem({ byId: { s: schema }, rootId: 's' }, validate.errors![0], value);
  return `${path.join('.') || '(top)'} ${message}`;
}

type SchemaNode = Record<string, unknown>;

/**
 * What a panel can send: a JSON value (google.script.run carries no Infinity or NaN; where ajv calls Infinity an
 * integer, the compiled validators do not), or undefined, as an object's property the page left unset.
 */
const sendable = fc.oneof({ weight: 9, arbitrary: fc.jsonValue() }, { weight: 1, arbitrary: fc.constant(undefined) });

/**
 * Values shaped by a schema, mostly valid and sometimes not: each part is drawn from what the schema allows (its
 * properties, item type, enum, limits' neighbourhood) and, once in `oddsOfNoise` draws, from anything sendable (one
 * in five for the whole value, one in fifty for each part inside), so both verdicts and errors deep inside are reached.
 */
function nearValues(schema: SchemaNode, oddsOfNoise = 5): fc.Arbitrary<unknown> {
  const inner = (part: SchemaNode) => nearValues(part, 50);
  const shaped = (): fc.Arbitrary<unknown> => {
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as SchemaNode[]).map(inner));
    const limit = (key: string, fallback: number) =>
      typeof schema[key] === 'number' ? (schema[key] as number) : fallback;
    switch (schema.type) {
      case 'object': {
        const properties = Object.entries((schema.properties ?? {}) as Record<string, SchemaNode>);
        const required = (schema.required ?? []) as string[];
        return fc.record(Object.fromEntries(properties.map(([name, part]) => [name, inner(part)])), {
          requiredKeys: required.filter((name) => properties.some(([key]) => key === name)),
        });
      }
      case 'array':
        return fc.array(inner((schema.items ?? {}) as SchemaNode), { maxLength: 3 });
      case 'string':
        return fc.string({ maxLength: limit('maxLength', 20) + 1 });
      case 'integer':
        return fc.integer({ min: limit('minimum', -5) - 1, max: Math.min(limit('maximum', 1_000), 10_000) + 1 });
      case 'number':
        return fc.double({ noNaN: true, min: -10, max: 1_000 });
      case 'boolean':
        return fc.boolean();
      default:
        return sendable;
    }
  };
  return fc.oneof({ weight: oddsOfNoise - 1, arbitrary: shaped() }, { weight: 1, arbitrary: sendable });
}

describe('request validators', () => {
  it('accept and refuse what ajv does, for every request schema (both verdicts reached for each)', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const text of requestSchemaTexts() as string[]) {
      const schema = JSON.parse(text) as SchemaNode;
      const reference = ajv.compile(schema);
      // What the bundle carries, and what schemasafe compiles from the schema as it is: the same verdict, the same error.
      const carried = requestValidator(text)!;
      const schemasafe = validator(schema as Schema, REQUEST_OPTIONS);
      const verdicts = new Set<boolean>();
      fc.assert(
        fc.property(nearValues(schema), (value) => {
          verdicts.add(reference(value));
          expect([text, requestProblem(schema, value, 'request') === null]).toEqual([text, reference(value)]);
          const verdict = schemasafe(value as Json);
          expect([text, carried(value), carried.errors]).toEqual([text, verdict, schemasafe.errors]);
        }),
        { numRuns: 200 },
      );
      expect([text, [...verdicts].sort()]).toEqual([text, [false, true]]);
    }
  });

  it('name the part of a request that is wrong', () => {
    expect(requestProblem(REFRESH_REQUEST, { days: 30, skip: ['a.com', 4] }, 'request')).toBe('skip[1] must be string');
    expect(requestProblem(REFRESH_REQUEST, { skip: [] }, 'request')).toBe("request must have required property 'days'");
    expect(requestProblem(REFRESH_CHANGES_DAYS, -1, 'days')).toBe('days must be >= 0');
    expect(requestProblem(REFRESH_CHANGES_DAYS, 30, 'days')).toBeNull();
    // A property the page left undefined is absent, as JSON and ajv have it (an optional one is then fine).
    expect(requestProblem(REFRESH_REQUEST, { days: 30, skip: undefined }, 'request')).toBeNull();
    expect(requestProblem(REFRESH_REQUEST, { days: undefined }, 'request')).toBe(
      "request must have required property 'days'",
    );
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
