// The shapes of what the company search panel sends (see src/shared/request-check.ts): checked by each server
// function before anything else reads it, so a list that arrives as a string, or a missing part, is refused with a
// message instead of becoming a wrong search ("United States" sent as 13 one-letter countries).
import { SIZE_BUCKETS } from '../api/types';
import { flag, integer, oneOfValues, orNull, record, text, textList } from '../shared/request-check';
import { RESULT_COLUMNS } from './results/columns';

const filterForm = record({
  sizes: { type: 'array', items: oneOfValues(SIZE_BUCKETS) },
  sizeMode: oneOfValues(['include', 'exclude']),
  includeCountries: textList,
  excludeCountries: textList,
  includeCities: textList,
  excludeCities: textList,
  foundedFrom: orNull(integer),
  foundedTo: orNull(integer),
  excludeDomains: textList,
});

export const SEARCH_SPEC = record({
  mode: oneOfValues(['describe', 'similar']),
  query: text,
  reference: text,
  filters: filterForm,
  count: integer,
});

export const WRITE_REQUEST = record({
  searchId: orNull(text),
  spec: SEARCH_SPEC,
  columns: { type: 'array', items: oneOfValues(RESULT_COLUMNS.map((column) => column.key)) },
  target: { anyOf: [record({ kind: { const: 'new' } }), record({ kind: { const: 'append' }, sheetId: integer })] },
});

export const EXCLUDE_SOURCE = {
  anyOf: [
    record({ kind: { const: 'column' }, sheetId: integer, column: integer, skipHeader: flag }),
    record({ kind: { const: 'sheet' }, sheetId: integer }),
  ],
};

const domainList = record({ domains: textList, invalid: textList, duplicates: integer });

const excludeEntries = {
  type: 'array',
  items: { anyOf: [record({ id: text, label: text, list: domainList }), record({ id: text, label: text, text })] },
};

export const EXCLUDE_SUMMARY_REQUEST = record({ entries: excludeEntries, acceptMostRecent: flag });

export const LOOKALIKE_LIST_REQUEST = record({
  references: textList,
  filters: filterForm,
  exclude: excludeEntries,
  perReference: integer,
  top: integer,
  columns: { type: 'array', items: oneOfValues(RESULT_COLUMNS.map((column) => column.key)) },
});

export const SHEET_ID = integer;
