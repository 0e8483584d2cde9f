// The digest's outbox: the account watch's signals waiting for the next digest, one row per watched row that changed
// (when, its sheet, its key values, the Signals cell's text, the watch run), appended when research writes them into
// the sheet (src/research/rows/write-back.ts) and removed only once a digest holding them (named or counted) was posted
// (src/digest/): a post that fails loses none. It stands below both features, so that the one writes and the other
// reads it without either importing the other. Kept in a hidden sheet (a thousand rows' signals do not fit a
// property); nothing is kept while the spreadsheet has no digest (its settings, which src/digest/settings.ts keeps
// under DIGEST_CONFIG_KEY). Appends go at the end, so the rows a digest read are its first ones. A signal written
// twice (a tick killed between its sheet write and the ledger's) is listed once by the digest (its run and row are the
// same). The outbox is a sealed table (sealed-table.ts): a row another editor writes, or edits, is never posted; the
// document's properties keep when the newest posted signal was kept, so an older row put back after its digest went
// out is not posted twice. Pure over a TablePort and the document's store.
import type { KeyValueStore, TablePort } from '../../ports';
import { DIGEST_SHEET } from './internal-sheets';

/** The document's digest settings (src/digest/settings.ts): the outbox keeps signals only while there are some. */
export const DIGEST_CONFIG_KEY = 'sheetscout.digest';

/** When the newest signal a posted digest held was kept (ISO time): older rows were posted. */
const POSTED_THROUGH_KEY = 'sheetscout.digest.postedThrough';

export const OUTBOX_HEADERS = ['at', 'sheet_id', 'label', 'text', 'ref'];

/** A watched row's signals, as written into its Signals cell. */
export interface SignalItem {
  sheetId: number;
  /** The row's key values ("acme.com"). */
  label: string;
  text: string;
  /** The watch run ("<watch id>:<run>"): a row's signals of one run are listed once. */
  ref: string;
}

export interface DigestOutboxPort {
  /** Keeps signals for the next digest (nothing when the spreadsheet has no digest). */
  add(items: readonly SignalItem[]): void;
}

export class DigestOutbox implements DigestOutboxPort {
  /** When the newest signal the last read() gave was kept. */
  private newestRead: string | null = null;

  constructor(
    private readonly table: TablePort,
    private readonly enabled: () => boolean,
    private readonly now: () => number,
    private readonly store: KeyValueStore,
  ) {}

  add(items: readonly SignalItem[]): void {
    if (items.length === 0 || !this.enabled()) return;
    const at = new Date(this.now()).toISOString();
    this.table.appendRows(items.map((item) => [at, item.sheetId, item.label, item.text, item.ref]));
  }

  /** Every waiting signal, oldest first, and how many rows they take (drop() that many once they are posted). */
  read(): { items: SignalItem[]; rows: number } {
    const { rows } = this.table.readAll();
    const postedThrough = this.store.get(POSTED_THROUGH_KEY) ?? '';
    const waiting = rows.filter((row) => row[1] !== '' && row[1] !== undefined && String(row[0]) > postedThrough);
    this.newestRead = waiting.reduce<string | null>(
      (newest, row) => (newest && newest > String(row[0]) ? newest : String(row[0])),
      null,
    );
    const items = waiting.map((row) => ({
      sheetId: Number(row[1]),
      label: String(row[2] ?? ''),
      text: String(row[3] ?? ''),
      ref: String(row[4] ?? ''),
    }));
    return { items, rows: rows.length };
  }

  /** Removes the first `rows` rows (those a posted digest held), and notes that what it read was posted. */
  drop(rows: number): void {
    if (this.newestRead) this.store.set(POSTED_THROUGH_KEY, this.newestRead);
    if (rows > 0) this.table.deleteRows(Array.from({ length: rows }, (_, i) => i));
  }
}

/** The document's digest settings as stored, when they are whole (named by an id, set by an account); null: none. */
export function storedDigestConfig<T extends { id: string; setBy: string }>(document: KeyValueStore): T | null {
  let config: T | null;
  try {
    const text = document.get(DIGEST_CONFIG_KEY);
    config = text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
  return config && typeof config.id === 'string' && typeof config.setBy === 'string' ? config : null;
}

/** The outbox in its hidden sheet: it keeps nothing while the document has no digest. */
export function digestOutbox(
  hiddenTable: (name: string, headers: readonly string[]) => TablePort,
  document: KeyValueStore,
  now: () => number,
): DigestOutbox {
  const hasDigest = () => storedDigestConfig(document) !== null;
  return new DigestOutbox(hiddenTable(DIGEST_SHEET, OUTBOX_HEADERS), hasDigest, now, document);
}
