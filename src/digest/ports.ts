// What the digest works through (src/digest/context.ts builds it over Apps Script): the document's and the acting
// user's properties, the clock, HTTP counted against the user's daily requests, the document lock, the spreadsheet's
// name and link, its sheets' names and clock, the outbox of watch signals, the refresh's changes, the spending
// history's runs and the other work of the timer's runs (activity.ts) since a time, the shared timer, and (for
// Settings) who the acting user is.
import type { ClockPort, HttpPort, KeyValueStore, LockPort } from '../ports';
import type { TimerDeps } from '../scheduler/timer';
import type { LocalTime } from '../enrichment/refresh/schedule';
import type { RefreshChange, RunCost } from './compose';
import type { SignalItem } from '../shared/storage/digest-outbox';
import type { Activity } from './activity';

export interface DigestPorts {
  document: KeyValueStore;
  user: KeyValueStore;
  clock: ClockPort;
  http: HttpPort;
  lock: LockPort;
  timer: TimerDeps;
  spreadsheet(): { id: string; name: string; url: string };
  sheetName(sheetId: number): string;
  /** A time as the spreadsheet's clock says it (Utilities.formatDate pattern). */
  format(ms: number, pattern: string): string;
  local(ms: number): LocalTime;
  outbox: {
    read(): { items: SignalItem[]; rows: number };
    drop(rows: number): void;
  };
  /** The cells refreshes changed after `since` (every sheet). */
  changes(since: number): RefreshChange[];
  /** The spending history's runs started after `since`, and those of `ids`. */
  runs(since: number, ids: readonly string[]): Array<RunCost & { id: string }>;
  /** The period's other work since `since` (activity.ts): `counted`, each sheet's filled rows the last digest counted. */
  activity(since: number, counted: Record<string, number> | undefined): Activity;
  /** The acting user's Sheet Scout account (GET /v1/user), or why it could not be read. */
  whoAmI(): { email: string } | { problem: string };
  newId(): string;
  timeZone(): string;
}
