import { estimateCredits, estimateMessage, reservationFor, taskCost } from '../../../../src/research/spending/depth';
import {
  buildSchema,
  checkSchemaLimits,
  isEvidenced,
  parsePastedSchema,
  schemaFields,
} from '../../../../src/research/brief/output-schema';

describe('credit arithmetic', () => {
  it('reserves the full depth budget and bills only agents that ran', () => {
    expect([reservationFor('medium'), reservationFor('high'), reservationFor('xhigh')]).toEqual([10, 30, 50]);
    expect(taskCost('done', 8)).toBe(16);
    expect(taskCost('failed', 8)).toBe(0);
  });

  it('checks a launch against available credits and suggests a lower depth', () => {
    const estimate = estimateCredits('xhigh', 3, 100);
    expect(estimate).toMatchObject({ total: 150, fits: false, suggestedDepth: 'high', tasksThatFit: 2 });
    expect(estimateMessage(estimate)).toBe('Needs 150 credits, you have 100. Try depth high. 2 rows fit at xhigh.');
    expect(estimateCredits('medium', 2, 12)).toMatchObject({ fits: false, suggestedDepth: null });
    expect(estimateCredits('medium', 1, 12).fits).toBe(true);
  });

  it('counts a task per distinct question, not per row, and says so', () => {
    const shared = estimateCredits('medium', 5000, null, 10000);
    expect(shared).toMatchObject({ rows: 10000, tasks: 5000, total: 50000 });
    expect(estimateMessage(shared)).toBe(
      '10000 rows ask 5000 distinct questions: 5000 tasks x 10 = 50000 credits reserved',
    );
    expect(estimateMessage(estimateCredits('medium', 20, 500))).toBe(
      '20 rows x 10 = 200 credits reserved of 500 available',
    );
    expect(estimateMessage(estimateCredits('high', 4, 100, 9))).toBe(
      'Needs 120 credits, you have 100. Try depth medium. 3 tasks fit at high.',
    );
  });
});

describe('output schema', () => {
  it('builds a schema with Evidenced wrappers, enums, lists and URLs', () => {
    const result = buildSchema([
      { name: 'employees', type: 'integer', required: true, evidence: false },
      { name: 'hq', type: 'string', required: false, evidence: true },
      { name: 'tier', type: 'enum', required: false, evidence: false, options: ['A', ' B '] },
      { name: 'segments', type: 'list', required: false, evidence: false },
      { name: 'site', type: 'url', required: false, evidence: false },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const props = result.schema.properties as Record<string, Record<string, unknown>>;
    expect(result.schema.required).toEqual(['employees']);
    expect(props.hq.properties).toHaveProperty('reasoning');
    expect(props.tier.enum).toEqual(['A', 'B']);
    expect(props.segments).toEqual({ type: 'array', items: { type: 'string' } });
    expect(props.site).toEqual({ type: 'string', format: 'uri' });
    expect(schemaFields(result.schema)).toEqual([
      { name: 'employees', evidence: false },
      { name: 'hq', evidence: true },
      { name: 'tier', evidence: false },
      { name: 'segments', evidence: false },
      { name: 'site', evidence: false },
    ]);
  });

  it('rejects bad builder input with one message per problem', () => {
    const result = buildSchema([
      { name: '', type: 'string', required: false, evidence: false },
      { name: 'a', type: 'enum', required: false, evidence: false, options: [] },
      { name: 'A', type: 'string', required: false, evidence: false },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(3);
  });

  it('enforces root type, depth, property count and $defs placement', () => {
    expect(checkSchemaLimits({ type: 'array' })).toEqual([expect.stringContaining('root')]);
    const nest = (levels: number): Record<string, unknown> =>
      levels === 1
        ? { type: 'object', properties: { leaf: { type: 'string' } } }
        : { type: 'object', properties: { child: nest(levels - 1) } };
    expect(checkSchemaLimits(nest(5))).toEqual([]);
    expect(checkSchemaLimits(nest(6))).toEqual([expect.stringContaining('nests 6 levels')]);
    const many = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, { type: 'string' }])),
    };
    expect(checkSchemaLimits(many)).toEqual([expect.stringContaining('51 properties')]);
    expect(checkSchemaLimits({ type: 'object', properties: { a: { type: 'object', $defs: { x: {} } } } })).toEqual([
      expect.stringContaining('only at the root'),
    ]);
    expect(checkSchemaLimits({ type: 'object', properties: { a: { $ref: '#/definitions/x' } } })).toEqual([
      expect.stringContaining('$ref'),
    ]);
  });

  it("counts a $ref definition's depth where it is used", () => {
    const deep = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } },
      },
    };
    const schema = {
      type: 'object',
      $defs: { D: deep },
      properties: { x: { type: 'object', properties: { y: { $ref: '#/$defs/D' } } } },
    };
    expect(checkSchemaLimits(schema)).toEqual([]);
    const deeper = {
      type: 'object',
      $defs: { D: deep },
      properties: {
        x: { type: 'object', properties: { y: { type: 'object', properties: { z: { $ref: '#/$defs/D' } } } } },
      },
    };
    expect(checkSchemaLimits(deeper)).toEqual([expect.stringContaining('nests 6 levels')]);
    expect(
      checkSchemaLimits({
        type: 'object',
        $defs: { L: { type: 'object', properties: { next: { $ref: '#/$defs/L' } } } },
        properties: { l: { $ref: '#/$defs/L' } },
      }),
    ).toEqual([expect.stringContaining('recursive')]);
  });

  it('parses pasted schemas and reports JSON errors', () => {
    expect(parsePastedSchema('{').ok).toBe(false);
    // Issue 13 item 6: what JSON Schema 2020-12 and the spec accept is accepted (both were refused before).
    expect(parsePastedSchema('{"type":"object"}')).toEqual({ ok: true, schema: { type: 'object' } });
    expect(parsePastedSchema('{"type":"object","properties":{}}').ok).toBe(true);
    const requiredUndefined = { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] };
    expect(parsePastedSchema(JSON.stringify(requiredUndefined))).toEqual({ ok: true, schema: requiredUndefined });
    expect(checkSchemaLimits({ type: 'object', required: ['only_required'] })).toEqual([]);
    expect(parsePastedSchema('{"type":"object","properties":{"a":{"type":"string"}}}').ok).toBe(true);
  });

  it('recognises Evidenced values', () => {
    expect(isEvidenced({ value: 1, sources: [], reasoning: '' })).toBe(true);
    expect(isEvidenced({ value: 1 })).toBe(false);
  });
});

describe("pasted schema: the server's JSON Schema check runs before the limit walk", () => {
  it('passes the parsed schema to the check and stops at its problems', () => {
    const seen: unknown[] = [];
    const check = (schema: unknown) => {
      seen.push(schema);
      return ['checked'];
    };
    // Over the property limit too: the check's problems come first and alone.
    const many = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, { type: 'string' }])),
    };
    expect(parsePastedSchema(JSON.stringify(many), check)).toEqual({ ok: false, errors: ['checked'] });
    expect(seen).toEqual([many]);
    expect(parsePastedSchema(JSON.stringify(many), () => [])).toEqual({
      ok: false,
      errors: [expect.stringContaining('51 properties')],
    });
  });
});
