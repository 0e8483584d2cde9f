// A short fingerprint of a text (FNV-1a, 32 bits, base 36): to recognise a value later without keeping it (what the
// add-in wrote into a cell; which token a learned plan limit belongs to). Not a secret-keeping hash. Pure.

export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}
