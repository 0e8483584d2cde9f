// The shapes of what the Tables dialog sends (see src/shared/request-check.ts). The drafts themselves are read
// column by column by the mapping code (mapping.ts), which keeps what it understands and reports the rest.
import { flag, integer, record, text } from '../shared/request-check';

const drafts = { type: 'array' };

export const SAVE_REQUEST = record({ sheetId: integer, drafts });
export const PUSH_REQUEST = record(
  { sheetId: integer, drafts, table: text, position: {}, tableKeys: text, confirmRepeat: flag },
  ['tableKeys', 'confirmRepeat'],
);
export const TEMPLATE_REQUEST = record({ sheetId: integer, drafts, template: text, name: text, confirmReplace: flag }, [
  'confirmReplace',
]);
