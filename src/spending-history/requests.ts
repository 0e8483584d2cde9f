// The shapes of what Settings > Spending sends (see src/shared/request-check.ts).
import { flag, record, text } from '../shared/request-check';

export const EXPORT_REQUEST = record({ sheetName: text, replace: flag }, ['replace']);
