// Tolerant JSON parsing of service responses. The task endpoint has been seen echoing `brief` with
// raw newlines inside a JSON string (addendum), which strict JSON.parse rejects. parseJsonTolerant
// escapes raw control characters found inside strings and parses again. It never throws.

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; reason: string };

const BYTE_ORDER_MARK = '\uFEFF';
/**
 * The engine's parse message is not passed on: V8 quotes a slice of the input in it, and a slice
 * of an arbitrary body could hold part of a secret.
 */
const INVALID_JSON = 'invalid JSON';

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function escapeControlCharacter(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Returns `text` with every raw control character (U+0000-U+001F) that sits inside a JSON string
 * literal replaced by its escape sequence. Characters outside strings are left alone (JSON allows
 * tab, newline and carriage return there as whitespace).
 */
function escapeControlCharactersInStrings(text: string): string {
  let output = '';
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (char === '\\') {
        escaped = true;
      } else if (char === '"') {
        inString = false;
      } else if (char < ' ') {
        output += escapeControlCharacter(char);
        continue;
      }
    } else if (char === '"') {
      inString = true;
    }
    output += char;
  }
  return output;
}

/** Parses JSON, repairing raw control characters inside strings if the strict parse fails. */
export function parseJsonTolerant(text: string): JsonParseResult {
  const body = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, reason: 'empty body' };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    const repaired = escapeControlCharactersInStrings(body);
    if (repaired === body) return { ok: false, reason: INVALID_JSON };
    try {
      return { ok: true, value: JSON.parse(repaired) };
    } catch {
      return { ok: false, reason: INVALID_JSON };
    }
  }
}
