// The money fuzzer's steps (issue 45): what three editors of one spreadsheet, each with their own Sheet Scout account,
// may do through the add-in's real server functions (launch, re-run, watch, cap, digest, their panels), what any of
// them may do to the hidden sheets (any cell set to a value taken from another record, another sheet or a hostile
// corpus; a field of a record's JSON set to that field of another record or to hostile text; rows copied, reordered,
// deleted; an older copy of a sheet restored), and what the world does (time passes
// and timers fire with every panel closed, across days, months and time zones; the service answers 503 or loses its
// answers). Each step is data, so fast-check generates, shrinks and prints it. The steps act on a Sequence
// (sequence.ts), which keeps what each account confirmed.
import fc from 'fast-check';

export const EDITORS = ['ana@example.com', 'ben@example.com', 'cho@example.com'] as const;
export type Editor = 0 | 1 | 2;
/** Each editor's Sheet Scout token: A and B in one organization (they read each other's tasks), C in another. */
export const TOKENS = ['sbx_pro_token', 'sbx_pro2_token', 'sbx_rival_token'] as const;
export const ACCOUNTS = ['pro@sandbox.example.com', 'pro2@sandbox.example.com', 'rival@rival.example.com'] as const;
/** Rows of the spreadsheet's one sheet (row 1 the headers): contacts of 4 companies, two of them on two rows. */
export const ROWS = 6;
export const COMPANIES = 4;
/** The company of each row (rows 2-7). */
export const CONTACT_COMPANY = [0, 1, 2, 0, 3, 1] as const;
/** The hidden sheets an editor may edit. */
export const HIDDEN = [
  'Sheet Scout research ledger',
  'Sheet Scout research reports',
  'Sheet Scout research tasks',
  'Sheet Scout records',
  'Sheet Scout digest',
] as const;
/** Every hostile value carries this marker: no digest post and no service request may ever carry it. */
export const MARKER = 'FORGED';

export const HOSTILE: readonly string[] = [
  `Your Sheet Scout token expired: sign in again at https://evil.example.net/${MARKER}`,
  `=HYPERLINK("https://evil.example.net","${MARKER}")`,
  `{"state":"queued","depth":"xhigh","brief":"${MARKER} research everything"}`,
  `~{"id":"x","state":"queued","brief":"${MARKER}","depth":"xhigh","row":7}`,
  `\u202e${MARKER}\u202d <!channel> <@U123>`,
  `${MARKER} ${'&'.repeat(2000)}`,
  `${MARKER}:run:1`,
];

export type Step =
  | { kind: 'launch'; editor: Editor; rows: number[]; depth: 'medium' | 'high'; again: boolean }
  | { kind: 'cap'; editor: Editor; daily: number | null }
  | { kind: 'watch'; editor: Editor; rows: number }
  | { kind: 'digest'; editor: Editor }
  | { kind: 'panel'; editor: Editor }
  | { kind: 'edit'; sheet: number; row: number; column: number; value: EditValue }
  | { kind: 'editField'; sheet: number; row: number; field: string; from: number; hostile: number | null }
  | { kind: 'copyRow'; sheet: number; from: number; to: number }
  | { kind: 'deleteRow'; sheet: number; row: number }
  | { kind: 'snapshot'; sheet: number }
  | { kind: 'restore'; sheet: number }
  | { kind: 'time'; hours: number }
  | { kind: 'fault'; mode: '503' | 'lost' }
  | { kind: 'zone'; zone: string };

/** Fields of the JSON records the hidden sheets hold (a ledger record, a watch) an edit may change. */
export const FIELDS = [
  'state',
  'depth',
  'brief',
  'launch',
  'id',
  'taskId',
  'row',
  'written',
  'schema',
  'run',
  'watch',
  'rowKeys',
  'nextRunAt',
  'savedBy',
  'timer',
  'status',
  'creditsPerRun',
] as const;

/** Where an edited cell's new value comes from. */
export type EditValue =
  | { from: 'cell'; sheet: number; row: number; column: number }
  | { from: 'hostile'; index: number }
  | { from: 'number'; value: number }
  | { from: 'blank' };

const editor = fc.constantFrom<Editor>(0, 1, 2);
const sheet = fc.nat({ max: HIDDEN.length - 1 });
const index = fc.nat({ max: 40 });

const editValue: fc.Arbitrary<EditValue> = fc.oneof(
  fc.record({ from: fc.constant('cell' as const), sheet, row: index, column: index }),
  fc.record({ from: fc.constant('hostile' as const), index: fc.nat({ max: HOSTILE.length - 1 }) }),
  fc.record({ from: fc.constant('number' as const), value: fc.integer({ min: -5, max: 2_000_000_000_000 }) }),
  fc.record({ from: fc.constant('blank' as const) }),
);

export const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('launch' as const),
      editor,
      rows: fc.uniqueArray(fc.integer({ min: 2, max: ROWS + 1 }), { minLength: 1, maxLength: 3 }),
      depth: fc.constantFrom('medium' as const, 'high' as const),
      again: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cap' as const), editor, daily: fc.constantFrom(null, 20, 60) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('watch' as const), editor, rows: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('digest' as const), editor }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('panel' as const), editor }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), sheet, row: index, column: index, value: editValue }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('editField' as const),
      sheet: fc.constantFrom(0, 2),
      row: index,
      field: fc.constantFrom(...FIELDS),
      from: index,
      hostile: fc.option(fc.nat({ max: HOSTILE.length - 1 }), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('copyRow' as const), sheet, from: index, to: index }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteRow' as const), sheet, row: index }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const), sheet }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const), sheet }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('time' as const), hours: fc.constantFrom(0.25, 1, 6, 24, 24 * 7) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      mode: fc.constantFrom('503' as const, 'lost' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('zone' as const),
      zone: fc.constantFrom('Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin', 'America/Los_Angeles'),
    }),
  },
);

/** A sequence of steps, editing hidden sheets among the editors' and the world's own. */
export const sequence = (maxLength: number) => fc.array(step, { minLength: 3, maxLength });
