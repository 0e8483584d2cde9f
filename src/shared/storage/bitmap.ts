// Sets of small non-negative integers (the places of a launch's records: create-permits.ts, the spending history's
// open runs) kept as text in the document's properties: six members a character, in the base64url alphabet, so a
// launch of 5,000 records takes 834 characters per set however many of them are in it (a list of fingerprints took
// about 10 characters a member). Trailing empty characters are left out: the empty set is ''. Pure.

/** The base64url alphabet (RFC 4648), a character for each six bits (the seals' text too: platform/sealing.ts). */
export const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Members past this are left out (a launch holds at most a spreadsheet's rows): no set makes a huge text. */
export const BITMAP_MAX_MEMBER = 1 << 21;

/** The set a text holds (characters outside the alphabet, and text of another kind, hold none). */
export function readBits(text: unknown): Set<number> {
  const members = new Set<number>();
  Array.from(typeof text === 'string' ? text : '').forEach((char, at) => {
    const word = Math.max(0, BASE64URL.indexOf(char));
    for (let bit = 0; bit < 6; bit++) if (word & (1 << bit)) members.add(at * 6 + bit);
  });
  return members;
}

/** The text of a set (members that are not integers from 0 to BITMAP_MAX_MEMBER are left out). */
export function bitsText(members: Iterable<number>): string {
  const words: number[] = [];
  for (const member of members)
    if (Number.isInteger(member) && member >= 0 && member <= BITMAP_MAX_MEMBER) {
      const at = Math.floor(member / 6);
      while (words.length <= at) words.push(0);
      words[at] |= 1 << (member % 6);
    }
  return words
    .map((word) => BASE64URL[word])
    .join('')
    .replace(/A+$/, '');
}
