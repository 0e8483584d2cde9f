// The build's JSON Schema validators (build/validators.js), made compact (build/compact-validators.js), do exactly what
// schemasafe's own code for the same schema does: the meta-schema's, which checks a pasted output schema, gives the
// same verdict and the same errors in the same order for schemas of every kind, valid or not (each request schema's
// validator is compared with schemasafe's in test/unit/shared/schema-errors.test.ts), and each error reads the same
// from the trimmed meta-schemas the bundle carries as from the meta-schemas as ajv ships them. A schemasafe writing
// its code in a form the compaction does not know fails the build rather than passing through.
import fc from 'fast-check';
import { validator, type Json, type Schema } from '@exodus/schemasafe';
import { metaSchemas, META_SCHEMA_ID, validateJsonSchema2020 } from '../../../src/shared/generated/validators';
import { schemaProblem, type SchemaDocuments } from '../../../src/shared/schema-errors';

const { metaSchemaSource } = require('../../../build/validators');
const { compact } = require('../../../build/compact-validators');

type MetaDocument = Schema & { $id: string; properties?: Record<string, unknown> };
const { schema: metaSchema, options: metaOptions } = metaSchemaSource() as {
  schema: MetaDocument;
  options: { schemas: MetaDocument[] };
};

/** The keywords the 2020-12 meta-schema checks (its documents' properties, the older ones too), and a misspelt one. */
const KEYWORDS = [
  ...[metaSchema, ...metaOptions.schemas].flatMap((document) => Object.keys(document.properties ?? {})),
  'maxLenght',
];

/** A keyword's value: right for some keywords, wrong for the others. */
const keywordValue = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.integer({ min: -2, max: 5 }),
  fc.constantFrom('string', 'object', 'strin', '#', '#/$defs/a', '^a$', '(', 'uri', 'a b', 'https://x.test/s#'),
  fc.array(fc.constantFrom('string', 'null', 'a', 7), { maxLength: 3 }),
);

/** Schema-like values: keywords with schemas, lists and maps of them, or any value, at any depth. */
const schemaLike = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small' },
    fc.boolean(),
    keywordValue,
    fc.dictionary(
      fc.constantFrom(...KEYWORDS),
      fc.oneof(
        keywordValue,
        tie('schema'),
        fc.array(tie('schema'), { maxLength: 2 }),
        fc.dictionary(fc.constantFrom('a', 'b~/c', '^[a-z]+$'), tie('schema'), { maxKeys: 2 }),
      ),
      { maxKeys: 4 },
    ),
  ),
})).schema;

/** What a validator makes of a value: its verdict and errors, or the error it throws. */
function outcome(validate: { (value: Json): boolean; errors?: unknown }, value: unknown): unknown[] {
  try {
    return [validate(value as Json), validate.errors];
  } catch (error) {
    return ['throws', String(error)];
  }
}

describe('the compact validators', () => {
  it("the meta-schema's gives the verdict and the errors of schemasafe's own code (both verdicts reached)", () => {
    const schemasafe = validator(metaSchema, metaOptions);
    const shipped: SchemaDocuments = {
      byId: Object.fromEntries([metaSchema, ...metaOptions.schemas].map((document) => [document.$id, document])),
      rootId: META_SCHEMA_ID,
    };
    const verdicts = new Set<boolean>();
    fc.assert(
      fc.property(schemaLike, (value) => {
        const expected = outcome(schemasafe, value);
        if (typeof expected[0] === 'boolean') verdicts.add(expected[0]);
        expect(outcome(validateJsonSchema2020, value)).toEqual(expected);
        for (const error of validateJsonSchema2020.errors ?? [])
          expect(schemaProblem({ byId: metaSchemas, rootId: META_SCHEMA_ID }, error, value)).toEqual(
            schemaProblem(shipped, error, value),
          );
      }),
      { numRuns: 3000 },
    );
    expect([...verdicts].sort()).toEqual([false, true]);
  });

  it('refuse schemasafe code in a form they do not know', () => {
    const unknownForm = 'if (!ok) {\n  validate.errors.push({ keywordLocation: "#/type", instanceLocation: "#" })\n}\n';
    expect(() => compact(unknownForm)).toThrow(/no rewrite shortens/);
    expect(() => compact('const fail_ = 1\n')).toThrow(/already uses the name fail_/);
  });
});
