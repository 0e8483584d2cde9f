// Row tags: the short developer-metadata ids research puts on a launched row only when its key (the values of the
// brief's columns) does not identify it, i.e. another row of the sheet holds the same key. Sheets allows 30,000
// metadata characters per sheet and per spreadsheet (keys and values count), so tags are few, short, checked against
// that budget before a launch, and removed once their record no longer needs its row (ledger.ts, heldTag: an imported
// task keeps its tag, it has no key). Pure.
import { keyString } from './row-locator';

/** Metadata key of a row tag (its value is the tag id). */
export const ROW_TAG_KEY = 'ss.row';
const TAG_ID_LENGTH = 10;
/** Google's limit, per sheet and per spreadsheet. */
export const METADATA_CHAR_LIMIT = 30000;
/** Characters left for other add-ons and the user's own scripts: tags never fill a sheet past the limit minus this. */
export const METADATA_RESERVE = 3000;

export const TAG_CHARS = ROW_TAG_KEY.length + TAG_ID_LENGTH;

/** A new tag id, unique among `taken`: hex characters of fresh UUIDs. */
export function newTagId(newUuid: () => string, taken: ReadonlySet<string>): string {
  for (;;) {
    const id = newUuid().replace(/-/g, '').slice(0, TAG_ID_LENGTH);
    if (!taken.has(id)) return id;
  }
}

/** The launched rows whose key another data row of the sheet shares (`keyRows[i]` holds row i + 2's key values). */
export function rowsNeedingTags(launched: readonly number[], keyRows: readonly string[][]): number[] {
  const counts = new Map<string, number>();
  const keys = keyRows.map((values) => keyString(values));
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return launched.filter((row) => (counts.get(keys[row - 2] ?? '') ?? 0) > 1);
}

/** Null when `newTags` more tags fit the metadata budget, else the message refusing the launch. */
export function tagBudgetProblem(
  newTags: number,
  use: { sheet: number; spreadsheet: number },
  keyHeaders: readonly string[],
): string | null {
  const needed = newTags * TAG_CHARS;
  const room = METADATA_CHAR_LIMIT - METADATA_RESERVE - Math.max(use.sheet, use.spreadsheet);
  if (needed <= room) return null;
  const key = keyHeaders.length > 0 ? keyHeaders.join(', ') : 'brief';
  return (
    `${newTags} of the selected rows share their ${key} with other rows. Telling them apart needs ` +
    `${needed.toLocaleString('en-US')} characters of row tags and this spreadsheet has room for ${Math.max(0, room).toLocaleString('en-US')} ` +
    `(Google allows 30,000 per sheet and per spreadsheet). Remove the duplicate rows, launch fewer of them at once, ` +
    `or wait until the research running in this sheet finishes.`
  );
}
