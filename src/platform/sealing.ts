// The document's sealer (src/shared/storage/seal.ts) over Apps Script: HMAC-SHA-256 by Utilities, a key from two
// random UUIDs, and the hidden sheets an earlier version wrote sealed as they are when the key is made; and the one
// door to the add-in's hidden sheets: each a sealed table over its grid (appContext().hiddenTable).
import { Sealer } from '../shared/storage/seal';
import type { KeyValueStore, TablePort } from '../ports';
import { INTERNAL_SHEET_NAMES } from '../shared/storage/internal-sheets';
import { SealedTable } from '../shared/storage/sealed-table';
import { HiddenTable, healSheetMaking, sealLegacyTable } from './sheets/hidden-table';
import type { Spreadsheet } from './spreadsheet';
import { BASE64URL } from '../shared/storage/bitmap';

/** Bytes of the MAC kept per row (128 bits). */
const SEAL_BYTES = 16;

/** Bytes (Apps Script's signed bytes too) as base64url without padding: computed here, no second service call. */
export function base64Url(bytes: readonly number[]): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 3) {
    const [a, b, c] = [bytes[at] & 255, (bytes[at + 1] ?? 0) & 255, (bytes[at + 2] ?? 0) & 255];
    const chunk = (a << 16) | (b << 8) | c;
    const chars = Math.min(4, Math.ceil(((bytes.length - at) * 8) / 6));
    for (let i = 0; i < chars; i++) text += BASE64URL[(chunk >> (18 - 6 * i)) & 63];
  }
  return text;
}

/** One service call a seal (the HMAC), the cost the emulator books for every Utilities call. */
function mac(key: string, message: string): string {
  return base64Url(Utilities.computeHmacSha256Signature(message, key, Utilities.Charset.UTF_8).slice(0, SEAL_BYTES));
}

function newSecret(): string {
  const random = `${Utilities.getUuid()}${Utilities.getUuid()}`;
  return Utilities.base64EncodeWebSafe(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, random));
}

/** The sealer of the spreadsheet's hidden tables, its key in `store` (the document's properties). */
export function documentSealer(store: KeyValueStore, spreadsheet: () => Spreadsheet): Sealer {
  return new Sealer({
    store,
    mac,
    newSecret,
    existingTables: () => INTERNAL_SHEET_NAMES.filter((name) => spreadsheet().getSheetByName(name) !== null),
    adoptLegacy: (table, sealRow) => sealLegacyTable(spreadsheet(), table, sealRow),
  });
}

/**
 * The spreadsheet's hidden sheets as sealed tables, all under one sealer (made on first use, with the document's
 * properties from `store`).
 */
export function sealedTables(
  store: () => KeyValueStore,
  spreadsheet: () => Spreadsheet,
): (name: string, headers: readonly string[]) => TablePort {
  let sealer: Sealer | null = null;
  // A sheet's making an earlier execution cut short is finished when this one first uses a table (its properties are
  // read then anyway: after the document lock, if it takes one).
  let healed = false;
  const heal = () => {
    if (!healed) healSheetMaking(store(), spreadsheet());
    healed = true;
  };
  return (name, headers) => {
    sealer ??= documentSealer(store(), spreadsheet);
    const grid = new HiddenTable(spreadsheet(), name, SealedTable.sealedHeaders(headers), store(), heal);
    return new SealedTable(grid, name, sealer, headers);
  };
}
