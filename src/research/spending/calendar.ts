// The calendars research spending is counted in: the cap's (days and months in a time zone kept in the document's
// properties, so that an editor changing the spreadsheet's time zone in File > Settings cannot move spending out of
// today or this month) and the spreadsheet's own (what the panels show a day as).
import type { KeyValueStore } from '../../ports';
import { formatInSpreadsheetZone, formatInZone, spreadsheetTimeZone } from '../../platform/spreadsheet';

/** DocumentProperties: the time zone the cap counts days and months in. */
const CAP_ZONE_KEY = 'sheetscout.research.capZone';

/** Calendar keys of an instant in one time zone ("2026-11-23", "2026-11"). */
export interface Calendar {
  day(ms: number): string;
  month(ms: number): string;
}

/**
 * The calendar the cap and the spend journal count in: the zone kept in the document's properties (set the first
 * time it is needed), not the spreadsheet's current one, which any editor can change.
 */
export function capCalendar(document: KeyValueStore): Calendar {
  let zone: string | null = null;
  const capZone = () => {
    zone ??= document.get(CAP_ZONE_KEY);
    if (!zone) document.set(CAP_ZONE_KEY, (zone = spreadsheetTimeZone()));
    return zone;
  };
  return {
    day: (ms) => formatInZone(ms, capZone(), 'yyyy-MM-dd'),
    month: (ms) => formatInZone(ms, capZone(), 'yyyy-MM'),
  };
}

/** From now on the cap counts its days and months in the spreadsheet's current time zone (its owner set it). */
export function countCapInSpreadsheetZone(document: KeyValueStore): void {
  document.set(CAP_ZONE_KEY, spreadsheetTimeZone());
}

/** The spreadsheet's calendar: days and months in its own time zone. */
export function spreadsheetCalendar(): Calendar {
  return {
    day: (ms) => formatInSpreadsheetZone(ms, 'yyyy-MM-dd'),
    month: (ms) => formatInSpreadsheetZone(ms, 'yyyy-MM'),
  };
}
