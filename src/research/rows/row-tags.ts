// Row tags: the short developer-metadata ids research puts on a launched row only when its key (the values of the
// brief's columns) does not tell it apart, i.e. a row outside the launch holds the same key (rows that hold it in the
// launch ask the same question: one record, no tag). Sheets allows 30,000 metadata characters per sheet and per
// spreadsheet (keys and values count), so tags are few, short, checked against that budget before a launch, and
// removed once their record no longer needs its rows (ledger.ts, heldTags: an imported task keeps its tag, it has no
// key). Pure.

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

/**
 * Whether a launch of `asked` rows may need tags: some asked row's key (`keyRows[i]` holds row i + 2's values) is held
 * by a row outside the launch too.
 */
export function keysHeldElsewhere(asked: readonly number[], keyRows: readonly string[][]): boolean {
  const askedSet = new Set(asked);
  const askedKeys = new Set(asked.map((row) => keyString(keyRows[row - 2] ?? [])));
  return keyRows.some((values, i) => !askedSet.has(i + 2) && askedKeys.has(keyString(values)));
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
