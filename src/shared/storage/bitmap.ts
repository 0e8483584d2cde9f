// Sets of small non-negative integers (the places of a launch's records: create-permits.ts, the spending history's
// open runs) kept as text in the document's properties: six members a character, in the base64url alphabet, so a
// launch of 5,000 records takes 834 characters per set however many of them are in it (a list of fingerprints took
// about 10 characters a member). Trailing empty characters are left out: the empty set is ''. Pure.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BITS = 6;
/** Members past this are refused (a launch holds at most a spreadsheet's rows): no text can make a huge set. */
export const BITMAP_MAX_MEMBER = 1 << 21;

/** A set of small non-negative integers, read from and written to its text. */
export class Bitmap {
  private constructor(private readonly words: number[]) {}

  /** The set a text holds (characters outside the alphabet count as empty). */
  static parse(text: unknown): Bitmap {
    const source = typeof text === 'string' ? text : '';
    return new Bitmap(Array.from(source, (char) => Math.max(0, ALPHABET.indexOf(char))));
  }

  static empty(): Bitmap {
    return new Bitmap([]);
  }

  /** The set of `0 .. count - 1`. */
  static upTo(count: number): Bitmap {
    const set = Bitmap.empty();
    for (let member = 0; member < count; member++) set.add(member);
    return set;
  }

  static of(members: Iterable<number>): Bitmap {
    const set = Bitmap.empty();
    for (const member of members) set.add(member);
    return set;
  }

  has(member: number): boolean {
    if (!Bitmap.valid(member)) return false;
    return ((this.words[Math.floor(member / BITS)] ?? 0) & (1 << (member % BITS))) !== 0;
  }

  add(member: number): void {
    if (!Bitmap.valid(member)) return;
    const at = Math.floor(member / BITS);
    while (this.words.length <= at) this.words.push(0);
    this.words[at] |= 1 << (member % BITS);
  }

  /** Removes `member`; whether it was there. */
  delete(member: number): boolean {
    if (!this.has(member)) return false;
    this.words[Math.floor(member / BITS)] &= ~(1 << (member % BITS));
    return true;
  }

  /** The members, ascending. */
  members(): number[] {
    const found: number[] = [];
    this.words.forEach((word, at) => {
      for (let bit = 0; bit < BITS; bit++) if (word & (1 << bit)) found.push(at * BITS + bit);
    });
    return found;
  }

  get size(): number {
    return this.members().length;
  }

  isEmpty(): boolean {
    return this.words.every((word) => word === 0);
  }

  /** Only the members `keep` accepts stay; whether any went. */
  retain(keep: (member: number) => boolean): boolean {
    let removed = false;
    for (const member of this.members()) if (!keep(member)) removed = this.delete(member) || removed;
    return removed;
  }

  toString(): string {
    let end = this.words.length;
    while (end > 0 && this.words[end - 1] === 0) end--;
    return this.words
      .slice(0, end)
      .map((word) => ALPHABET[word])
      .join('');
  }

  private static valid(member: number): boolean {
    return Number.isInteger(member) && member >= 0 && member <= BITMAP_MAX_MEMBER;
  }
}
