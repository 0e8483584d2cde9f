// Unit tests for output_schema checks: meta-schema errors with locations, the root type rule, and the limits walker
// (nesting depth through properties, items and $refs; property counting; $defs and $ref rules).
import {
  checkOutputSchema,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_PROPERTIES,
} from '../../../dev/sandbox/research/output-schema';

const BASE = ['body', 'output_schema'];
const check = (schema: unknown) => checkOutputSchema(schema, BASE);

function objectWithDepth(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
  for (let level = 1; level < levels; level++) schema = { type: 'object', properties: { child: schema } };
  return schema;
}

test('the limits are those of spec section 8', () => {
  expect(MAX_SCHEMA_DEPTH).toBe(5);
  expect(MAX_SCHEMA_PROPERTIES).toBe(50);
});

test('a plain object schema passes', () => {
  expect(check({ type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] })).toEqual(
    [],
  );
});

test.each([1, 3, 5])('%d levels of objects pass', (levels) => expect(check(objectWithDepth(levels))).toEqual([]));

test('6 levels fail at the sixth container', () => {
  const issues = check(objectWithDepth(6));
  expect(issues).toHaveLength(1);
  expect(issues[0].loc).toEqual([
    ...BASE,
    'properties',
    'child',
    'properties',
    'child',
    'properties',
    'child',
    'properties',
    'child',
    'properties',
    'child',
  ]);
});

test('arrays are a nesting level; combinators are not', () => {
  const arrays = {
    type: 'object',
    properties: {
      a: {
        type: 'array',
        items: {
          type: 'array',
          items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        },
      },
    },
  };
  expect(check(arrays)).toHaveLength(1);
  const combinators = {
    type: 'object',
    properties: { a: { anyOf: [{ allOf: [{ oneOf: [objectWithDepth(4)] }] }, { type: 'null' }] } },
  };
  expect(check(combinators)).toEqual([]);
});

test('depth is measured through $refs where they are used', () => {
  const schema = { type: 'object', $defs: { deep: objectWithDepth(4) }, properties: { a: { $ref: '#/$defs/deep' } } };
  expect(check(schema)).toEqual([]);
  const deeper = { type: 'object', $defs: { deep: objectWithDepth(5) }, properties: { a: { $ref: '#/$defs/deep' } } };
  expect(check(deeper)[0].msg).toMatch(/nesting depth 6/);
});

test('a definition referenced many times counts its properties once', () => {
  const part = {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`p${index}`, { type: 'string' }])),
  };
  const schema = {
    type: 'object',
    $defs: { part },
    properties: { a: { $ref: '#/$defs/part' }, b: { $ref: '#/$defs/part' }, c: { $ref: '#/$defs/part' } },
  };
  expect(check(schema)).toEqual([]);
});

test('meta-schema problems are located', () => {
  expect(check({ type: 'object', properties: { a: { minLength: -1 } } })[0].loc).toEqual([
    ...BASE,
    'properties',
    'a',
    'minLength',
  ]);
  expect(check({ type: 'object', properties: { a: { enum: 'x' } } })[0].loc).toEqual([
    ...BASE,
    'properties',
    'a',
    'enum',
  ]);
});

test('annotations are allowed; unknown keywords are not', () => {
  expect(
    check({
      type: 'object',
      title: 'T',
      description: 'D',
      properties: { a: { type: 'string', examples: ['x'], default: 'y', deprecated: false } },
    }),
  ).toEqual([]);
  expect(
    check({ type: 'object', properties: { a: { type: 'string', nullable: true, widget: 'x' } } }).map(
      (entry) => entry.loc,
    ),
  ).toEqual([[...BASE, 'properties', 'a', 'widget']]);
});

test('an invalid pattern is caught when compiling', () => {
  const issues = check({ type: 'object', properties: { a: { type: 'string', pattern: '([' } } });
  expect(issues).toHaveLength(1);
  expect(issues[0].type).toBe('json_schema');
});
