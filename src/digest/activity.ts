// What the period's timer runs did besides changing watched rows and refreshed cells and spending credits (those come
// from the outbox, the change log and the spending history), from the add-in's own records: the rows "Keep enriching
// new rows" filled on each sheet (its running totals, less what the last digest counted), and the runs that did
// nothing, with why (a scheduled refresh that checked no row, an account watch run not started, research on new rows
// not launched: each feature's last run as it keeps it). Pure over the stores.
import type { KeyValueStore } from '../ports';
import { readSettings } from '../new-rows/state';
import { readSchedules } from '../enrichment/refresh/schedule';
import { readWatches } from '../research/watch/watch';

/** Rows "Keep enriching new rows" filled on a sheet in the period. */
export interface FilledRows {
  sheetId: number;
  rows: number;
}

export type IdleKind = 'refresh' | 'watch' | 'new-rows';

/** A run of the period that did nothing, and why. */
export interface IdleRun {
  kind: IdleKind;
  sheetId: number;
  at: number;
  why: string;
}

export interface Activity {
  filled: FilledRows[];
  idle: IdleRun[];
  /** Each sheet's rows filled so far (by sheet id): what the next digest counts from once this one is posted. */
  filledTotals: Record<string, number>;
}

/** Research on new rows' last run launched something (else it says why it launched nothing). */
const LAUNCHED = /^Researching /;
/** A watch run's line that started nothing. */
const NOT_STARTED = /^(Not started|Service unavailable)/;

/** Why a scheduled refresh that checked no row did nothing. */
function refreshWhy(problem: string | null, days: number): string {
  if (problem) return `no row checked: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`;
  return `no row checked: every row was refreshed less than ${days} day${days === 1 ? '' : 's'} ago`;
}

/**
 * The period's activity (after `since`, up to `now`). `counted`: each sheet's rows filled as the last digest counted
 * them (absent: a sheet turned on since then counts all its rows, another its last check's).
 */
export function periodActivity(
  stores: { document: KeyValueStore; records: KeyValueStore },
  since: number,
  now: number,
  counted: Record<string, number> | undefined,
): Activity {
  const inPeriod = (at: number) => at > since && at <= now;
  const filledTotals: Record<string, number> = {};
  const filled: FilledRows[] = [];
  const idle: IdleRun[] = [];
  for (const setting of readSettings(stores.document)) {
    const total = setting.totals.filled;
    filledTotals[String(setting.sheetId)] = total;
    const before = counted?.[String(setting.sheetId)];
    const rows =
      setting.since > since || (before !== undefined && before > total)
        ? total
        : before !== undefined
          ? total - before
          : setting.lastFound && inPeriod(setting.lastFound.at)
            ? setting.lastFound.filled
            : 0;
    if (rows > 0) filled.push({ sheetId: setting.sheetId, rows });
    const last = setting.research?.lastRun;
    if (last && inPeriod(last.at) && !LAUNCHED.test(last.text))
      idle.push({ kind: 'new-rows', sheetId: setting.sheetId, at: last.at, why: last.text });
  }
  for (const schedule of readSchedules(stores.document)) {
    const last = schedule.lastRun;
    if (last && inPeriod(last.at) && last.checked === 0)
      idle.push({
        kind: 'refresh',
        sheetId: schedule.sheetId,
        at: last.at,
        why: refreshWhy(last.problem, schedule.days),
      });
  }
  for (const watch of readWatches(stores.records)) {
    const last = watch.lastRun;
    if (last && inPeriod(last.at) && NOT_STARTED.test(last.text))
      idle.push({ kind: 'watch', sheetId: watch.sheetId, at: last.at, why: last.text });
  }
  return { filled, idle: idle.sort((a, b) => a.at - b.at), filledTotals };
}
