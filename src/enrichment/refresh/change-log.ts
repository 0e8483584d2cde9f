// What refreshes changed, for the Enrich panel's "Changes" list: one row per changed cell (sheet, domain, column
// header, value before and after, when) in a hidden table, appended by each refresh (from the panel or a schedule),
// read for a sheet since a date, newest first. Kept CHANGES_KEPT_DAYS (and at most MAX_ROWS), then removed by the next
// refresh that appends.
// Rows are found again by their domain and, for a domain in several rows, by which of them (top down) the change was
// in, so the list follows sorts and inserted rows. Pure: the table is a port.
import type { TablePort } from '../../ports';

export const CHANGE_LOG_HEADERS = ['Sheet id', 'Domain', 'Column', 'Before', 'After', 'Changed at', 'Occurrence'];
const CHANGES_KEPT_DAYS = 90;
const DAY_MS = 86_400_000;
/** Expired rows are removed once there are this many (or more), so most appends are one write. */
const PRUNE_AT = 200;
/** The log keeps at most this many changes (the oldest go first): 120,000 cells, 1.2 % of a spreadsheet's 10 million. */
const MAX_ROWS = 20_000;

export interface LoggedChange {
  sheetId: number;
  domain: string;
  header: string;
  before: string;
  after: string;
  at: number;
  /**
   * Which of the sheet's enriched rows holding the domain the change was in, counted from the top (1 = the first); 0
   * for a change logged before this was kept.
   */
  occurrence: number;
}

function rowOf(change: LoggedChange): Array<string | number> {
  const at = new Date(change.at).toISOString();
  return [change.sheetId, change.domain, change.header, change.before, change.after, at, change.occurrence];
}

function changeOf(row: readonly unknown[]): LoggedChange | null {
  const at = Date.parse(String(row[5] ?? ''));
  if (!Number.isFinite(at) || typeof row[1] !== 'string' || row[1] === '') return null;
  return {
    sheetId: Number(row[0]),
    domain: row[1],
    header: String(row[2] ?? ''),
    before: String(row[3] ?? ''),
    after: String(row[4] ?? ''),
    at,
    occurrence: Number(row[6]) || 0,
  };
}

export class ChangeLog {
  constructor(private readonly table: TablePort) {}

  /**
   * Appends the changes (one write), and removes the expired ones when enough have gathered, and the oldest beyond
   * MAX_ROWS (rows are appended in time order, so the first rows are the oldest).
   */
  append(changes: readonly LoggedChange[], now: number): void {
    if (changes.length === 0) return;
    const { rows } = this.table.readColumns(6, 1);
    const cutoff = now - CHANGES_KEPT_DAYS * DAY_MS;
    const over = Math.max(0, rows.length + changes.length - MAX_ROWS);
    const gone = rows.flatMap(([at], index) => (index < over || Date.parse(String(at ?? '')) < cutoff ? [index] : []));
    if (over > 0 || gone.length >= PRUNE_AT) this.table.deleteRows(gone);
    this.table.appendRows(changes.slice(-MAX_ROWS).map(rowOf));
  }

  /** Every sheet's changes after `after` (epoch ms), oldest first (the account digest's: src/digest). */
  changedAfter(after: number): LoggedChange[] {
    return this.table
      .readAll()
      .rows.map(changeOf)
      .filter((change): change is LoggedChange => change !== null && change.at > after);
  }

  /** The sheet's changes since `from` (epoch ms), newest first, at most `limit`. */
  since(sheetId: number, from: number, limit: number): LoggedChange[] {
    const found: LoggedChange[] = [];
    for (const row of this.table.readAll().rows) {
      const change = changeOf(row);
      if (change && change.sheetId === sheetId && change.at >= from) found.push(change);
    }
    return found.sort((a, b) => b.at - a.at).slice(0, limit);
  }
}
