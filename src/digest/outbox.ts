// The digest's outbox: the account watch's signals waiting for the next digest, one row per watched row that changed
// (when, its sheet, its key values, the Signals cell's text, the watch run), appended when research writes them into
// the sheet (src/research/write-back.ts) and removed only once a digest holding them (named or counted) was posted:
// a post that fails loses none. Kept in a hidden sheet (a thousand rows' signals do not fit a property); nothing is
// kept while the spreadsheet has no digest. Appends go at the end, so the rows a digest read are its first ones. A
// signal written twice (a tick killed between its sheet write and the ledger's) is listed once by the digest (its run
// and row are the same). Pure over a TablePort.
import type { TablePort } from '../ports';

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
  constructor(
    private readonly table: TablePort,
    private readonly enabled: () => boolean,
    private readonly now: () => number,
  ) {}

  add(items: readonly SignalItem[]): void {
    if (items.length === 0 || !this.enabled()) return;
    const at = new Date(this.now()).toISOString();
    this.table.appendRows(items.map((item) => [at, item.sheetId, item.label, item.text, item.ref]));
  }

  /** Every waiting signal, oldest first, and how many rows they take (drop() that many once they are posted). */
  read(): { items: SignalItem[]; rows: number } {
    const { rows } = this.table.readAll();
    const items = rows.flatMap((row) =>
      row[1] === '' || row[1] === undefined
        ? []
        : [
            {
              sheetId: Number(row[1]),
              label: String(row[2] ?? ''),
              text: String(row[3] ?? ''),
              ref: String(row[4] ?? ''),
            },
          ],
    );
    return { items, rows: rows.length };
  }

  /** Removes the first `rows` rows (those a posted digest held). */
  drop(rows: number): void {
    if (rows > 0) this.table.deleteRows(Array.from({ length: rows }, (_, i) => i));
  }
}
