// The shapes of what the Enrich panel sends: job options and refresh requests (see src/shared/request-check.ts).
import { flag, integer, record, text } from '../shared/request-check';

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
