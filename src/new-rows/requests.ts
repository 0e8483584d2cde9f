// The shapes of what the Enrich panel's "Keep enriching new rows" section sends (see src/shared/request-check.ts):
// turning it on or off, and research on new rows with the figures the user confirmed (its output checked against the
// Research panel's own schema, compiled once).
import { flag, integer, oneOfValues, orNull, record, text } from '../shared/request-check';
import { DEPTHS } from '../research/spending/depth';

export const NEW_ROWS_REQUEST = record({ on: flag, domainColumn: { ...integer, minimum: 1 } }, ['domainColumn']);

/** The output is checked on its own against the Research panel's schema (research/requests.ts, OUTPUT_REQUEST). */
export const NEW_ROWS_RESEARCH_REQUEST = record({
  template: text,
  depth: oneOfValues(DEPTHS),
  output: { type: 'object' },
  monthlyLimit: integer,
  confirmed: orNull(record({ creditsPerRow: integer, monthlyLimit: integer })),
});
