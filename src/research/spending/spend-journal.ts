// What this spreadsheet's research has spent, day by day, kept where no edit of the grid reaches it: the document's
// properties. The ledger (a hidden sheet any editor can change, clear or delete) adds to it every change of what a
// record counts against the spending cap (a launch's reservations, a create sent again, a task finishing cheaper than
// reserved, a create the service refused), by the day the research was launched; the cap counts the larger of the
// journal and the ledger, so a deleted, cleared or damaged ledger, a record moved back in time or marked failed by
// hand, counts what it counted before. What counts more is added before the ledger saves it, what counts less after:
// a crash in between leaves the journal high (the safe side). Days of the current and the previous month are kept
// (a few KB). Pure.
import type { KeyValueStore } from '../../ports';
import type { Calendar } from './calendar';

export const SPEND_JOURNAL_KEY = 'sheetscout.research.spent';

/** Credits counted against the cap by launch day (the spreadsheet's calendar: "2026-11-25"). */
export type SpentByDay = Record<string, number>;

/** One change of what a record counts: `credits` (negative when it counts less now) for research launched at `at`. */
export interface SpendChange {
  at: number;
  credits: number;
}

export interface SpendJournal {
  add(changes: readonly SpendChange[]): void;
  days(): SpentByDay;
}

function parseDays(text: string | null): SpentByDay {
  try {
    const parsed: unknown = JSON.parse(text ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    const days: SpentByDay = {};
    for (const [day, credits] of Object.entries(parsed as Record<string, unknown>))
      if (/^\d{4}-\d{2}-\d{2}$/.test(day) && typeof credits === 'number' && Number.isFinite(credits))
        days[day] = credits;
    return days;
  } catch {
    return {};
  }
}

/** The month before `month` ("2026-01" -> "2025-12"). */
function previousMonth(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/**
 * The journal in `store` (the document's properties), read fresh for each change (another editor's launch may have
 * added to it; changes happen under the document lock) and written once per change set.
 */
export function documentSpendJournal(store: KeyValueStore, calendar: Calendar, now: () => number): SpendJournal {
  return {
    add(changes) {
      const moved = changes.filter((change) => change.credits !== 0);
      if (moved.length === 0) return;
      const days = parseDays(store.fresh(SPEND_JOURNAL_KEY));
      for (const change of moved) {
        const day = calendar.day(change.at);
        days[day] = Math.max(0, (days[day] ?? 0) + change.credits);
      }
      const month = calendar.month(now());
      const kept = new Set([month, previousMonth(month)]);
      const pruned = Object.fromEntries(Object.entries(days).filter(([day]) => kept.has(day.slice(0, 7))));
      store.set(SPEND_JOURNAL_KEY, JSON.stringify(pruned));
    },
    days: () => parseDays(store.get(SPEND_JOURNAL_KEY)),
  };
}
