// The packed data's DEFLATE decoder (src/shared/domain/inflate.ts) inflates what Node's zlib deflates, whatever the
// block types: stored (level 0), fixed Huffman codes (Z_FIXED), dynamic ones (levels 1 to 9), on data with and without
// repeats, of lengths that cross block boundaries.
import fc from 'fast-check';
import * as zlib from 'zlib';
import { inflate } from '../../../src/shared/domain/inflate';

/** Bytes of every kind: random, runs, and text-like repeats (so that matches of every length and distance occur). */
const data = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc
    .array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 300 })), { maxLength: 40 })
    .map((runs) => Uint8Array.from(runs.flatMap(([byte, times]) => new Array<number>(times).fill(byte)))),
  fc
    .array(fc.constantFrom('stripe', '.com', 'kawasaki', '.jp', 'xn--', '\u00f8', '-'), { maxLength: 2000 })
    .map((words) => Uint8Array.from(Buffer.from(words.join(''), 'utf8'))),
);

const settings = fc.oneof(
  fc.record({ level: fc.integer({ min: 0, max: 9 }) }),
  fc.constant({ level: 9, strategy: zlib.constants.Z_FIXED }),
  fc.constant({ level: 9, strategy: zlib.constants.Z_HUFFMAN_ONLY }),
  fc.constant({ level: 9, strategy: zlib.constants.Z_RLE }),
);

describe('inflate', () => {
  it('inflates what zlib deflates, block type by block type', () => {
    fc.assert(
      fc.property(data, settings, (bytes, options) => {
        const deflated = zlib.deflateRawSync(bytes, options);
        expect(Buffer.from(inflate(deflated, new Uint8Array(bytes.length)))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('inflates large inputs, whose matches reach 32 KB back', () => {
    const text = Buffer.from(Array.from({ length: 20000 }, (_, i) => `label${(i * 7919) % 5000}.`).join(''));
    for (const level of [0, 1, 6, 9]) {
      const deflated = zlib.deflateRawSync(text, { level });
      expect(Buffer.from(inflate(deflated, new Uint8Array(text.length)))).toEqual(text);
    }
  });

  it('refuses a reserved block type', () => {
    expect(() => inflate(Uint8Array.of(0b111), new Uint8Array(1))).toThrow('packed data: not a DEFLATE block');
  });
});
