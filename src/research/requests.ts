// The shapes of what the Research panel sends (see src/shared/request-check.ts), checked by each server function
// before anything else reads it.
import { flag, integer, oneOfValues, orNull, record, text, textList } from '../shared/request-check';
import { DEPTHS } from './spending/depth';
import { FIELD_TYPES } from './brief/output-schema';
import { REUSE_PERIODS_DAYS } from './launch/launch-request';

const fieldSpec = record(
  {
    name: text,
    type: oneOfValues(FIELD_TYPES.map((field) => field.type)),
    required: flag,
    evidence: flag,
    options: textList,
    description: text,
  },
  ['options', 'description'],
);

export const OUTPUT_REQUEST = {
  anyOf: [
    record({ kind: { const: 'report' }, statusHeader: text, reportHeader: text, sourcesHeader: orNull(text) }),
    record(
      {
        kind: { const: 'fields' },
        statusHeader: text,
        fields: { type: 'array', items: fieldSpec },
        schemaText: text,
        columns: { type: 'object', additionalProperties: text },
      },
      ['fields', 'schemaText', 'columns'],
    ),
  ],
};

/** A period the panel offers earlier results over. */
const REUSE_DAYS = { enum: [...REUSE_PERIODS_DAYS] };
const REUSE_CHOICE = record({ days: REUSE_DAYS, use: flag, tasks: { type: 'integer', minimum: 0 } });

export const LAUNCH_REQUEST = record(
  {
    template: text,
    depth: oneOfValues(DEPTHS),
    output: OUTPUT_REQUEST,
    rerun: flag,
    again: flag,
    sheetId: integer,
    rows: { type: 'array', items: integer },
    fitToCap: flag,
    replacing: textList,
    reuse: REUSE_CHOICE,
  },
  ['rerun', 'again', 'fitToCap', 'replacing', 'reuse'],
);

export const WATCH_REQUEST = record({
  template: text,
  depth: oneOfValues(DEPTHS),
  output: OUTPUT_REQUEST,
  sheetId: integer,
  rows: { type: 'array', items: integer },
  cadence: oneOfValues(['weekly', 'monthly']),
  weekday: { type: 'integer', minimum: 0, maximum: 6 },
  confirmedCreditsPerRun: orNull(integer),
});
export const WATCH_ACTION = oneOfValues(['pause', 'resume', 'stop']);

export const ENTRY_IDS = textList;
export const PAGE_INDEX = { type: 'integer', minimum: 0 };
export const TASK_ID = { type: 'string', minLength: 1 };
export const WRITE_TO_ROW_REQUEST = record(
  { taskId: TASK_ID, output: OUTPUT_REQUEST, otherCompany: flag, taskOutput: flag },
  ['otherCompany', 'taskOutput'],
);
export const SHOW_ROWS_REQUEST = record({
  sheetId: integer,
  rows: { type: 'array', items: integer },
  statusHeader: text,
});
export const QUESTION_COUNT_REQUEST = record(
  {
    sheetId: integer,
    rows: { type: 'array', items: integer },
    template: text,
    depth: oneOfValues(DEPTHS),
    output: OUTPUT_REQUEST,
    days: REUSE_DAYS,
  },
  ['depth', 'output', 'days'],
);
export const GUARD_REQUEST = record({ daily: orNull(integer), monthly: orNull(integer) });
