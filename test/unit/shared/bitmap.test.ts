// Sets of small integers kept as text (src/shared/storage/bitmap.ts): six members a character whatever the members,
// read back exactly, the empty set as '', text of another kind read as no members, and no set makes a huge text.
import fc from 'fast-check';
import { BITMAP_MAX_MEMBER, bitsText, readBits } from '../../../src/shared/storage/bitmap';

const upTo = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('bitmap', () => {
  it('reads back exactly the members written, in six members a character', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 30_000 }), { maxLength: 300 }), (members) => {
        const text = bitsText(members);
        expect([...readBits(text)]).toEqual([...members].sort((a, b) => a - b));
        expect(text.length).toBe(members.length === 0 ? 0 : Math.floor(Math.max(...members) / 6) + 1);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      }),
      { seed: 46, numRuns: 200 },
    );
  });

  it('keeps a launch of 5,000 records in 834 characters per set, full or not', () => {
    expect(bitsText(upTo(5_000))).toHaveLength(834);
    const half = upTo(2_500).map((i) => i * 2 + 1);
    expect(bitsText(half)).toHaveLength(834);
    expect(readBits(bitsText(half)).size).toBe(2_500);
  });

  it('drops trailing empty characters: the empty set is empty text', () => {
    expect(bitsText([0, 1, 2])).toHaveLength(1);
    expect(bitsText([0, 1, 2, 60].filter((member) => member < 3))).toHaveLength(1);
    expect(bitsText([])).toBe('');
    expect(bitsText(new Set([40]))).toBe('AAAAAAQ');
  });

  it('reads text of another kind as no members, and leaves out members no launch has', () => {
    expect(readBits(null).size).toBe(0);
    expect(readBits(12).size).toBe(0);
    expect(readBits('!!').size).toBe(0);
    expect(bitsText([-1, 1.5, Number.NaN, BITMAP_MAX_MEMBER + 1])).toBe('');
  });
});
