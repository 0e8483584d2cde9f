// Unpacks the data tables the bundle carries packed: tr46's UTS #46 mapping table and Unicode-class regexes, and
// tldts's public suffix trie. Apps Script loads the whole bundle at the start of every execution, and these tables
// were 354 KB of it (minified) as their packages ship them; build/packed-data.js packs them into 81 KB of base64
// strings (varint-coded, deflated; tiny-inflate unpacks) in src/shared/generated/, which the bundle uses in place of
// the packages' own files (webpack.config.js). Unpacked, each is exactly the package's value (every entry is checked
// by test/unit/shared/packed-data.test.ts), so tr46 and tldts run their own code on their own data. Each is unpacked
// when its package is first required, which src/shared/domain/domain.ts does on first use (the UTS #46 tables only for a
// non-ASCII host).
import inflate from 'tiny-inflate';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each base64 symbol's value by its character code; 64 for a code that is not a symbol. */
const BASE64_VALUE = new Uint8Array(128).fill(64);
for (let value = 0; value < BASE64.length; value++) BASE64_VALUE[BASE64.charCodeAt(value)] = value;

/** The bytes of unpadded base64 text (Apps Script's V8 has no atob, and Utilities belongs to src/platform). */
export function base64Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let held = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? BASE64_VALUE[code] : 64;
    if (value === 64) throw new Error(`packed data: not base64: ${JSON.stringify(text[i])}`);
    bits = (bits << 6) | value;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes[at++] = (bits >> held) & 0xff;
    }
  }
  return bytes.subarray(0, at);
}

/** Reads the varints build/packed-data.js writes (7 bits a byte, low first; signed ones zigzag-coded). */
class VarintReader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.at >= this.bytes.length;
  }
  byte(): number {
    return this.bytes[this.at++];
  }
  unsigned(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
  signed(): number {
    const zigzag = this.unsigned();
    return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
  }
  /** Text written as its length, then each UTF-16 code unit (Apps Script's V8 has no TextDecoder). */
  text(): string {
    const units = new Uint16Array(this.unsigned());
    for (let i = 0; i < units.length; i++) units[i] = this.unsigned();
    let text = '';
    for (let i = 0; i < units.length; i += 8192) text += String.fromCharCode(...units.subarray(i, i + 8192));
    return text;
  }
}

/** The bytes build/packed-data.js deflated (`size` of them) and wrote as base64. */
const inflated = (packed: string, size: number): Uint8Array => inflate(base64Bytes(packed), new Uint8Array(size));

/** One entry of tr46's mapping table: a code point or range, its status, and what it maps to. */
export type Uts46Entry = [number | [number, number], number] | [number | [number, number], number, string];

/**
 * tr46's lib/mappingTable.json. Entries cover every code point in order; each is packed as its length, a byte of
 * status (x4), range form (x2) and whether it maps, then the mapping's code points: the first as its offset from the
 * entry's first code point relative to the previous mapping's offset, the rest as steps from the one before.
 */
export function uts46MappingTable(packed: string, size: number): Uts46Entry[] {
  const reader = new VarintReader(inflated(packed, size));
  const table: Uts46Entry[] = [];
  let first = 0;
  let previousOffset = 0;
  while (!reader.done) {
    const last = first + reader.unsigned();
    const flags = reader.byte();
    const codePoints: number | [number, number] = flags & 2 ? [first, last] : first;
    const status = flags >> 2;
    if (flags & 1) {
      const mapping: number[] = [];
      const length = reader.unsigned();
      for (let i = 0; i < length; i++) {
        if (i === 0) {
          previousOffset += reader.signed();
          mapping.push(first + previousOffset);
        } else mapping.push(mapping[i - 1] + reader.signed());
      }
      table.push([codePoints, status, String.fromCodePoint(...mapping)]);
    } else table.push([codePoints, status]);
    first = last + 1;
  }
  return table;
}

/** How the packer codes a regex source's escapes: `\u{10A0D}`, `\u0300`, `\xAA` (upper-case hex). */
const ESCAPES: Record<number, (codePoint: number) => string> = {
  0xf1: (codePoint) => `\\u{${codePoint.toString(16).toUpperCase()}}`,
  0xf2: (codePoint) => `\\u${codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
  0xf3: (codePoint) => `\\x${codePoint.toString(16).toUpperCase().padStart(2, '0')}`,
};

/**
 * tr46's lib/regexes.js, given each regex's name and flags. The sources are packed one after another, each ended by
 * a 0: an ASCII character as itself, an escape as its kind (ESCAPES) and the step from the previous escape's code
 * point (the classes list code points in order, so steps are small).
 */
export function uts46Regexes(regexes: [string, string][], packed: string, size: number): Record<string, RegExp> {
  const reader = new VarintReader(inflated(packed, size));
  return Object.fromEntries(
    regexes.map(([name, flags]) => {
      let source = '';
      let codePoint = 0;
      for (let byte = reader.byte(); byte !== 0; byte = reader.byte()) {
        if (byte in ESCAPES) source += ESCAPES[byte]((codePoint += reader.signed()));
        else source += String.fromCharCode(byte);
      }
      return [name, new RegExp(source, flags)];
    }),
  );
}

/** tldts's data/trie.js arrays: three lengths, then the arrays (16-bit ones little-endian), then the labels' text. */
export function publicSuffixTrie(packed: string, size: number) {
  const bytes = inflated(packed, size);
  const reader = new VarintReader(bytes);
  const [nodes, edgeStarts, edges] = [reader.unsigned(), reader.unsigned(), reader.unsigned()];
  let at = reader.at;
  const bytesOf = (count: number) => bytes.slice(at, (at += count));
  const wordsOf = (count: number) => {
    const words = new Uint16Array(count);
    for (let i = 0; i < count; i++, at += 2) words[i] = bytes[at] | (bytes[at + 1] << 8);
    return words;
  };
  const nodeFlags = bytesOf(nodes);
  const edgeStart = wordsOf(edgeStarts);
  const edgeLength = bytesOf(edges);
  const edgeChild = wordsOf(edges);
  reader.at = at;
  const labelText = reader.text();
  return { nodeFlags, edgeStart, edgeLength, edgeChild, labelText };
}
