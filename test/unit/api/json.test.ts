// Tolerant JSON parsing: raw control characters inside strings (the task `brief` echoed with raw
// newlines) are repaired; everything else behaves like JSON.parse, without ever throwing.

import { parseJsonTolerant } from '../../../src/api/json';

describe('parseJsonTolerant', () => {
  test('parses ordinary JSON unchanged', () => {
    expect(parseJsonTolerant('{"a":[1,"x\\ny"],"b":null}')).toEqual({ ok: true, value: { a: [1, 'x\ny'], b: null } });
  });

  test('repairs a raw newline, tab and carriage return inside the brief', () => {
    const body = '{"id":"t1","brief":"Line one\nLine two\r\n\tindented","status":"done"}';
    expect(() => JSON.parse(body)).toThrow();
    expect(parseJsonTolerant(body)).toEqual({
      ok: true,
      value: { id: 't1', brief: 'Line one\nLine two\r\n\tindented', status: 'done' },
    });
  });

  test('repairs other control characters and keeps escaped quotes and backslashes intact', () => {
    const body = '{"brief":"a\u0001b \\"quoted\\" back\\\\slash\nend"}';
    expect(parseJsonTolerant(body)).toEqual({ ok: true, value: { brief: 'a\u0001b "quoted" back\\slash\nend' } });
  });

  test('leaves whitespace between tokens alone', () => {
    expect(parseJsonTolerant('{\n\t"a": "x\ny"\n}\n')).toEqual({ ok: true, value: { a: 'x\ny' } });
  });

  test('strips a byte-order mark', () => {
    expect(parseJsonTolerant('\uFEFF[1]')).toEqual({ ok: true, value: [1] });
  });

  test.each([
    ['empty body', '', 'empty body'],
    ['blank body', '  \n', 'empty body'],
    ['HTML', '<html>Bad gateway</html>', 'invalid JSON'],
    ['truncated JSON', '{"a": "b', 'invalid JSON'],
    ['truncated JSON with a raw newline', '{"a": "b\nc', 'invalid JSON'],
  ])('%s is a typed failure', (_name, body, reason) => {
    expect(parseJsonTolerant(body)).toEqual({ ok: false, reason });
  });

  test('a failure never quotes the body (it could hold a secret)', () => {
    const result = parseJsonTolerant('not json, token sk_live_abcdef');
    expect(JSON.stringify(result)).not.toContain('sk_live');
  });
});
