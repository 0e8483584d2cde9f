// Long text kept in hidden sheets (research ledger records, full reports): split into parts that each fit a cell
// (Sheets' 50,000-character limit) and start with a marker character, so Sheets never parses a part as a formula,
// number, date or boolean; joined back exactly. Pure.

/** Characters of text per part (plus one marker character): well under the 50,000-character cell limit. */
export const TEXT_PART_LENGTH = 45000;
const PART_MARKER = '~';

/** The parts of `text` (at least one, so an empty text round-trips too). */
export function splitText(text: string, partLength = TEXT_PART_LENGTH): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length || parts.length === 0; at += partLength)
    parts.push(PART_MARKER + text.slice(at, at + partLength));
  return parts;
}

/** The text of parts read back from cells (a `'` Sheets kept before the marker is dropped too). */
export function joinText(parts: readonly unknown[]): string {
  return parts.map((part) => String(part ?? '').replace(/^'?~/, '')).join('');
}
