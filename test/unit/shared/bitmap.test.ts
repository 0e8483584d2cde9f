// Sets of small integers kept as text (src/shared/storage/bitmap.ts): six members a character whatever the members,
// read back exactly, the empty set as '', text of another kind read as no members, and no text can make a huge set.
import fc from 'fast-check';
import { Bitmap, BITMAP_MAX_MEMBER } from '../../../src/shared/storage/bitmap';

describe('bitmap', () => {
  it('reads back exactly the members written, in six members a character', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 30_000 }), { maxLength: 300 }), (members) => {
        const text = Bitmap.of(members).toString();
        expect(Bitmap.parse(text).members()).toEqual([...members].sort((a, b) => a - b));
        expect(text.length).toBe(members.length === 0 ? 0 : Math.floor(Math.max(...members) / 6) + 1);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      }),
      { seed: 46, numRuns: 200 },
    );
  });

  it('keeps a launch of 5,000 records in 834 characters per set, full or not', () => {
    expect(Bitmap.upTo(5_000).toString()).toHaveLength(834);
    const half = Bitmap.of(Array.from({ length: 2_500 }, (_, i) => i * 2 + 1));
    expect(half.toString()).toHaveLength(834);
    expect(half.size).toBe(2_500);
  });

  it('adds, deletes once, retains, and drops trailing empty characters', () => {
    const set = Bitmap.upTo(20);
    expect(set.delete(7)).toBe(true);
    expect(set.delete(7)).toBe(false);
    expect(set.has(7)).toBe(false);
    expect(set.retain((member) => member < 3)).toBe(true);
    expect(set.retain((member) => member < 3)).toBe(false);
    expect(set.members()).toEqual([0, 1, 2]);
    expect(set.toString()).toHaveLength(1);
    set.retain(() => false);
    expect(set.isEmpty()).toBe(true);
    expect(set.toString()).toBe('');
  });

  it('reads text of another kind as no members, and refuses members no launch has', () => {
    expect(Bitmap.parse(null).members()).toEqual([]);
    expect(Bitmap.parse(12).members()).toEqual([]);
    expect(Bitmap.parse('!!').members()).toEqual([]);
    const set = Bitmap.empty();
    for (const member of [-1, 1.5, Number.NaN, BITMAP_MAX_MEMBER + 1]) set.add(member);
    expect(set.isEmpty()).toBe(true);
    expect(set.has(-1)).toBe(false);
  });
});
