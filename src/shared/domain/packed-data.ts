// Unpacks the data tables the bundle carries packed: tr46's UTS #46 mapping table and Unicode-class regexes, and
// tldts's public suffix trie. Apps Script loads the whole bundle at the start of every execution, and these tables
// were 354 KB of it (minified) as their packages ship them; build/packed-data.js packs them into 60 KB of base-93
// strings (split into streams of one kind of value each, varint-coded, deflated; inflate.ts unpacks) in
// src/shared/generated/, which the bundle uses in place of the packages' own files (webpack.config.js). Unpacked, each
// is exactly the package's value (every entry is checked by test/unit/shared/packed-data.test.ts), so tr46 and tldts
// run their own code on their own data. Each is unpacked when its package is first required, which
// src/shared/domain/domain.ts does on first use (the UTS #46 tables only for a non-ASCII host). The JSON Schema
// meta-schemas the validators carry for error messages are packed too (build/validators.js), unpacked when read.
import { encode as punycodeEncode } from 'punycode/';
import { inflate } from './inflate';

/**
 * A base-93 digit's value by its character, or -1: the digits are the printable ASCII characters but '"' and '\\',
 * so that a packed string needs no escape in a "..." literal.
 */
const base93Digit = (code: number): number =>
  code < 32 || code > 126 || code === 34 || code === 92 ? -1 : code - 32 - (code > 34 ? 1 : 0) - (code > 92 ? 1 : 0);

/**
 * The bytes of base-93 text, Joachim Henke's basE91 with 93 digits: each pair of characters (93 x 93 = 8,649 values)
 * carries 13 bits, or 14 when the 13 are below 457 (basE91 has 89 values to spare, base64 carries 12 bits a pair).
 * Apps Script's V8 has no decoder of its own, and Utilities belongs to src/platform.
 */
export function base93Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(Math.ceil((text.length * 7) / 8) + 1);
  let queue = 0;
  let bits = 0;
  let pending = -1;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = base93Digit(text.charCodeAt(i));
    if (digit === -1) throw new Error(`packed data: not base-93: ${JSON.stringify(text[i])}`);
    if (pending === -1) {
      pending = digit;
      continue;
    }
    const value = pending + digit * 93;
    queue |= value << bits;
    bits += (value & 8191) > 456 ? 13 : 14;
    do {
      bytes[at++] = queue & 0xff;
      queue >>= 8;
      bits -= 8;
    } while (bits > 7);
    pending = -1;
  }
  if (pending !== -1) bytes[at++] = (queue | (pending << bits)) & 0xff;
  return bytes.subarray(0, at);
}

/** Reads the varints build/packed-data.js writes (7 bits a byte, low first; signed ones zigzag-coded). */
class VarintReader {
  // Declared, not initialized, fields: esbuild would otherwise define each through a helper of its own.
  declare private at: number;
  declare private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.at = 0;
  }
  done(): boolean {
    return this.at >= this.bytes.length;
  }
  byte(): number {
    return this.bytes[this.at++];
  }
  unsigned(): number {
    let value = 0;
    for (let scale = 1; ; scale *= 0x80) {
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
    }
  }
  signed(): number {
    const zigzag = this.unsigned();
    return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
  }
}

/** One packed stream: the base-93 text of its deflated bytes, and how many bytes it inflates to. */
export type Packed = [text: string, size: number];

/** The bytes of a stream build/packed-data.js deflated and wrote as base-93. */
const inflated = ([text, size]: Packed): Uint8Array => inflate(base93Bytes(text), new Uint8Array(size));

const reader = (packed: Packed) => new VarintReader(inflated(packed));

/** One entry of tr46's mapping table: a code point or range, its status, and what it maps to. */
export type Uts46Entry = [number | [number, number], number] | [number | [number, number], number, string];

/**
 * tr46's lib/mappingTable.json. Entries cover every code point in order; each is packed as its length (`lengths`,
 * a range when it is more than one code point), its status (`statuses`; the entries of `mappingStatuses` map), and
 * for a mapping its length (`mappingLengths`), its first code point (if any) as its offset from the entry's first
 * code point relative to the previous mapping's offset (`firstOffsets`), and the rest as steps from the one before
 * (`steps`).
 */
export function uts46MappingTable(
  mappingStatuses: number[],
  lengths: Packed,
  statuses: Packed,
  mappingLengths: Packed,
  firstOffsets: Packed,
  steps: Packed,
): Uts46Entry[] {
  const [length, mappingLength, firstOffset, step] = [lengths, mappingLengths, firstOffsets, steps].map(reader);
  const status = inflated(statuses);
  const table: Uts46Entry[] = [];
  let first = 0;
  let previousOffset = 0;
  for (let entry = 0; !length.done(); entry++) {
    const last = first + length.unsigned();
    const codePoints: number | [number, number] = last > first ? [first, last] : first;
    if (mappingStatuses.includes(status[entry])) {
      const mapping: number[] = [];
      for (let i = mappingLength.unsigned(); i > 0; i--) {
        if (mapping.length === 0) mapping.push(first + (previousOffset += firstOffset.signed()));
        else mapping.push(mapping[mapping.length - 1] + step.signed());
      }
      table.push([codePoints, status[entry], String.fromCodePoint(...mapping)]);
    } else table.push([codePoints, status[entry]]);
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
 * tr46's lib/regexes.js, given each regex's name and flags. The sources are packed one after another in `shapes`,
 * each ended by a 0: an ASCII character as itself, an escape as its kind (ESCAPES); `steps` holds each escape's
 * code point as the step from the previous escape's (the classes list code points in order, so steps are small).
 */
export function uts46Regexes(regexes: [string, string][], shapes: Packed, steps: Packed): Record<string, RegExp> {
  const shape = inflated(shapes);
  const step = reader(steps);
  let at = 0;
  return Object.fromEntries(
    regexes.map(([name, flags]) => {
      let source = '';
      let codePoint = 0;
      for (let byte = shape[at++]; byte !== 0; byte = shape[at++]) {
        if (byte in ESCAPES) source += ESCAPES[byte]((codePoint += step.signed()));
        else source += String.fromCharCode(byte);
      }
      return [name, new RegExp(source, flags)];
    }),
  );
}

/** A UTF-8 sequence of two, three or four bytes, each byte read as a character. */
const UTF8_SEQUENCE = /[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf7][\x80-\xbf]{3}/g;

/** The character of a UTF-8 sequence (its bytes read as characters). */
function utf8Character(sequence: string): string {
  let codePoint = sequence.charCodeAt(0) & (0x7f >> sequence.length);
  for (let i = 1; i < sequence.length; i++) codePoint = (codePoint << 6) | (sequence.charCodeAt(i) & 0x3f);
  return String.fromCodePoint(codePoint);
}

/**
 * The text of a stream of UTF-8. Apps Script's V8 has no TextDecoder: the bytes become characters in native calls,
 * and only the rare sequences of non-ASCII characters are decoded one by one.
 */
function textOf(packed: Packed): string {
  const bytes = inflated(packed);
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192)
    text += String.fromCharCode.apply(null, bytes.subarray(at, at + 8192) as unknown as number[]);
  return text.replace(UTF8_SEQUENCE, utf8Character);
}

/** The texts of a stream of UTF-8 texts, each ended by a 0. */
const textsOf = (packed: Packed): string[] => textOf(packed).split('\0').slice(0, -1);

/** A value packed as the UTF-8 text of its JSON (build/validators.js packs the meta-schemas so). */
export const packedJson = (packed: Packed): unknown => JSON.parse(textOf(packed));

/**
 * tldts's data/trie.js arrays. Its nodes are packed in order: their flags (`flags`), their number of edges
 * (`counts`), and each edge in order: its label (`labels`, UTF-8) and its child node (`children`). A label that is
 * the punycode form of another label of its node is packed empty, and `twins` holds which of the node's non-ASCII
 * labels that is.
 */
export function publicSuffixTrie(flags: Packed, counts: Packed, labels: Packed, children: Packed, twins: Packed) {
  const nodeFlags = inflated(flags);
  const [count, child, twin] = [counts, children, twins].map(reader);
  const label = textsOf(labels);
  const edgeStart = new Uint16Array(nodeFlags.length + 1);
  const edgeLength = new Uint8Array(label.length);
  const edgeChild = new Uint16Array(label.length);
  for (let node = 0, edge = 0; node < nodeFlags.length; node++) {
    edgeStart[node + 1] = edgeStart[node] + count.unsigned();
    let unicode: string[] | undefined;
    for (; edge < edgeStart[node + 1]; edge++) {
      if (label[edge] === '') {
        unicode ??= label.slice(edgeStart[node], edgeStart[node + 1]).filter((text) => /[^\0-\x7f]/.test(text));
        label[edge] = `xn--${punycodeEncode(unicode[twin.unsigned()])}`;
      }
      edgeLength[edge] = label[edge].length;
      edgeChild[edge] = child.unsigned();
    }
  }
  return { nodeFlags, edgeStart, edgeLength, edgeChild, labelText: label.join('') };
}
