// The shapes of what Settings > Digest sends (see src/shared/request-check.ts).
import { integer, oneOfValues, record, text } from '../shared/request-check';

export const DIGEST_REQUEST = record({ webhookUrl: text, cadence: oneOfValues(['weekly', 'run']), weekday: integer });
