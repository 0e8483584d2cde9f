// The shapes of what the Enrich panel's "Keep enriching new rows" section sends (see src/shared/request-check.ts):
// turning it on or off, and research on new rows with the figures the user confirmed.
import { flag, integer, oneOfValues, orNull, record, text } from '../shared/request-check';
import { DEPTHS } from '../research/depth';
import { OUTPUT_REQUEST } from '../research/requests';

export const NEW_ROWS_REQUEST = record({ on: flag, domainColumn: { ...integer, minimum: 1 } }, ['domainColumn']);

export const NEW_ROWS_RESEARCH_REQUEST = record({
  template: text,
  depth: oneOfValues(DEPTHS),
  output: OUTPUT_REQUEST,
  monthlyLimit: integer,
  confirmed: orNull(record({ creditsPerRow: integer, monthlyLimit: integer })),
});
