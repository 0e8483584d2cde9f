// What refreshes changed, for the Enrich panel's "Changes" list: one row per changed cell (sheet, domain, column
// header, value before and after, when) in a hidden table, appended by each refresh (from the panel or a schedule),
// read for a sheet since a date, newest first. Kept CHANGES_KEPT_DAYS, then removed by the next refresh that appends.
// Rows are found again by their domain, so the list follows sorts and inserted rows. Pure: the table is a port.
import type { TablePort } from '../ports';

export const CHANGE_LOG_HEADERS = ['Sheet id', 'Domain', 'Column', 'Before', 'After', 'Changed at'];
const CHANGES_KEPT_DAYS = 90;
const DAY_MS = 86_400_000;
/** Expired rows are removed once there are this many (or more), so most appends are one write. */
const PRUNE_AT = 200;

export interface LoggedChange {
  sheetId: number;
  domain: string;
  header: string;
  before: string;
  after: string;
  at: number;
}

function rowOf(change: LoggedChange): Array<string | number> {
  return [change.sheetId, change.domain, change.header, change.before, change.after, new Date(change.at).toISOString()];
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
  };
}

export class ChangeLog {
  constructor(private readonly table: TablePort) {}

  /** Appends the changes (one write), and removes the expired ones when enough have gathered. */
  append(changes: readonly LoggedChange[], now: number): void {
    if (changes.length === 0) return;
    const { rows } = this.table.readColumns(6, 1);
    const cutoff = now - CHANGES_KEPT_DAYS * DAY_MS;
    const expired = rows.flatMap(([at], index) => (Date.parse(String(at ?? '')) < cutoff ? [index] : []));
    if (expired.length >= PRUNE_AT) this.table.deleteRows(expired);
    this.table.appendRows(changes.map(rowOf));
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
