// What the document keeps per sheet for bulk enrichment besides the job: the field columns finished jobs filled (so a
// later run can tell a value the profile lacks from a row not enriched yet: see sheet/rows.ts) and the fields last
// chosen in the panel for that sheet. Both live in DocumentProperties, one small value per sheet.
import type { KeyValueStore } from '../../ports';
import { utf8Bytes } from '../../shared/storage/chunked-store';

/** DocumentProperties key prefix: per sheet, normalized domain header -> normalized headers of filled field columns. */
export const FILLED_COLUMNS_PREFIX = 'sheetscout.enrich.filled.';
/**
 * Room for one property value (8,066 bytes measured, 9 KB by Google's quota page), in UTF-8 bytes: past it only the
 * latest domain column's entry is kept.
 */
const FILLED_COLUMNS_MAX_BYTES = 8000;

type FilledColumns = Record<string, string[]>;

function readFilledColumns(store: KeyValueStore, sheetId: number): FilledColumns {
  const text = store.get(FILLED_COLUMNS_PREFIX + sheetId);
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const filled: FilledColumns = {};
    for (const [domainHeader, headers] of Object.entries(parsed)) {
      if (Array.isArray(headers))
        filled[domainHeader] = headers.filter((header): header is string => typeof header === 'string');
    }
    return filled;
  } catch {
    return {};
  }
}

/** Normalized headers of the field columns finished jobs filled on this sheet next to this domain column. */
export function filledColumns(store: KeyValueStore, sheetId: number, domainHeader: string): Set<string> {
  return new Set(readFilledColumns(store, sheetId)[domainHeader] ?? []);
}

/**
 * The value that records the field columns a job filled to the end (normalized headers), adding to what earlier jobs
 * filled: `{ key: value }` for the job's last write (job-state.ts saveJob).
 */
export function filledColumnsValue(
  store: KeyValueStore,
  sheetId: number,
  domainHeader: string,
  headers: string[],
): Record<string, string> {
  const filled = readFilledColumns(store, sheetId);
  const merged = { ...filled, [domainHeader]: [...new Set([...(filled[domainHeader] ?? []), ...headers])] };
  const text = JSON.stringify(merged);
  return {
    [FILLED_COLUMNS_PREFIX + sheetId]:
      utf8Bytes(text) <= FILLED_COLUMNS_MAX_BYTES ? text : JSON.stringify({ [domainHeader]: merged[domainHeader] }),
  };
}

/** DocumentProperties key prefix: per sheet, the profile field keys last chosen in the Enrich panel (JSON list). */
export const CHOSEN_FIELDS_PREFIX = 'sheetscout.enrich.fields.';

/** The field keys last chosen for this sheet, or null when none were. */
export function chosenFields(store: KeyValueStore, sheetId: number): string[] | null {
  const text = store.get(CHOSEN_FIELDS_PREFIX + sheetId);
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((key) => typeof key === 'string')
      ? (parsed as string[])
      : null;
  } catch {
    return null;
  }
}

/** The value that remembers the fields chosen for this sheet (`{ key: value }`), or none when they are remembered. */
export function chosenFieldsValue(store: KeyValueStore, sheetId: number, keys: string[]): Record<string, string> {
  const text = JSON.stringify(keys);
  return store.get(CHOSEN_FIELDS_PREFIX + sheetId) === text ? {} : { [CHOSEN_FIELDS_PREFIX + sheetId]: text };
}
