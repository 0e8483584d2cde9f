// The shapes of what the Enrich panel sends: job options, refresh requests and the refresh schedule (see
// src/shared/request-check.ts).
import { flag, integer, oneOfValues, record, text } from '../shared/request-check';

export const ENRICH_OPTIONS = record(
  { domainColumn: { ...integer, minimum: 1 }, fields: { type: 'array', items: text, maxItems: 50 }, overwrite: flag },
  ['domainColumn', 'fields', 'overwrite'],
);

/** "Refresh data older than N days": the days, and the domains this run already handed back (at most 10,000). */
export const REFRESH_REQUEST = record(
  {
    days: { ...integer, minimum: 0, maximum: 3650 },
    skip: { type: 'array', items: { ...text, maxLength: 253 }, maxItems: 10_000 },
  },
  ['skip'],
);

/**
 * The refresh schedule of the active sheet: off, or weekly on a day (0 = Sunday) / monthly, after an hour of the day
 * (default 6), for data older than N days.
 */
export const REFRESH_SCHEDULE_REQUEST = record(
  {
    cadence: oneOfValues(['off', 'weekly', 'monthly']),
    weekday: { ...integer, minimum: 0, maximum: 6 },
    days: { ...integer, minimum: 0, maximum: 3650 },
    hour: { ...integer, minimum: 0, maximum: 23 },
  },
  ['hour'],
);

/** "Changes since N days ago". */
export const REFRESH_CHANGES_DAYS = { ...integer, minimum: 0, maximum: 3650 };
