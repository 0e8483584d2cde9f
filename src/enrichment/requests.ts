// The shapes of what the Enrich panel sends (see src/shared/request-check.ts).
import { flag, integer, record, text } from '../shared/request-check';

export const ENRICH_OPTIONS = record(
  { domainColumn: { ...integer, minimum: 1 }, fields: { type: 'array', items: text, maxItems: 50 }, overwrite: flag },
  ['domainColumn', 'fields', 'overwrite'],
);
