// The account watch's pure rules (src/research/watch/watch.ts): the Signals text, the changed cells' notes, the cost of a
// month of runs.
import { creditsPerMonth, FIRST_LOOK, sameValue, signalsText, withSignals } from '../../../../src/research/watch/watch';
import type { OutputMapping, WatchMark } from '../../../../src/research/records/ledger';

const MARK: WatchMark = { id: 'w1', run: 2, signalsHeader: 'Signals', day: '2026-11-25' };
const MAPPING: OutputMapping = {
  kind: 'fields',
  statusHeader: 'Status',
  fields: [
    { name: 'employee_count', header: 'Employees' },
    { name: 'funding_stage', header: 'Funding' },
  ],
};
const COLUMNS = new Map([
  ['Status', 3],
  ['Employees', 4],
  ['Funding', 5],
  ['Signals', 6],
]);

describe('signalsText', () => {
  it('names each changed field: changed, new and removed values; "No change" when none changed', () => {
    expect(
      signalsText([
        { name: 'employee_count', before: '51-200', after: '201-500' },
        { name: 'funding_stage', before: '', after: 'Series B' },
        { name: 'ceo', before: 'Ada', after: '' },
        { name: 'country', before: 'FR', after: 'FR' },
      ]),
    ).toBe('employee_count 51-200 → 201-500; new funding_stage: Series B; ceo removed (was Ada)');
    expect(signalsText([{ name: 'founded', before: '2010', after: 2010 }])).toBe('No change');
  });

  it('cuts long values and a long list', () => {
    const long = 'x'.repeat(100);
    expect(signalsText([{ name: 'about', before: 'a', after: long }])).toBe(`about a → ${'x'.repeat(59)}…`);
    const many = Array.from({ length: 100 }, (_, i) => ({ name: `field_${i}`, before: 'a'.repeat(40), after: 'b' }));
    expect(signalsText(many).length).toBe(2000);
  });
});

describe('withSignals', () => {
  const cells = [
    { row: 7, column: 3, value: 'Done (4 credits)', note: null },
    { row: 7, column: 4, value: '201-500', note: null },
    { row: 7, column: 5, value: 'Series B', note: 'Raised in 2026\n\nSources:\nhttps://example.com' },
  ];

  it('adds the Signals cell, naming each field by its column, and a "Was X until <day>" note on each changed cell', () => {
    const before = ['acme.com', 'Acme', 'Done (6 credits)', '51-200', 'Series A'];
    const out = withSignals(cells, MAPPING, MARK, 7, before, COLUMNS);
    expect(out.find((cell) => cell.column === 6)).toEqual({
      row: 7,
      column: 6,
      value: 'Employees 51-200 → 201-500; Funding Series A → Series B',
      note: null,
    });
    expect(out.find((cell) => cell.column === 4)?.note).toBe('Was 51-200 until 2026-11-25');
    expect(out.find((cell) => cell.column === 5)?.note).toBe(
      'Was Series A until 2026-11-25\n\nRaised in 2026\n\nSources:\nhttps://example.com',
    );
    expect(out.find((cell) => cell.column === 3)?.note).toBeNull();
  });

  it('writes "No change" and no notes when nothing changed, and a first look over empty cells', () => {
    const same = withSignals(cells, MAPPING, MARK, 7, ['', '', '', '201-500', 'Series B'], COLUMNS);
    expect(same.find((cell) => cell.column === 6)?.value).toBe('No change');
    expect(same.find((cell) => cell.column === 4)?.note).toBeNull();
    const first = withSignals(cells, MAPPING, MARK, 7, ['', '', '', '', ''], COLUMNS);
    expect(first.find((cell) => cell.column === 6)?.value).toBe(FIRST_LOOK);
    expect(first.find((cell) => cell.column === 4)?.note).toBeNull();
  });
});

describe('watch values compared by value (the sheet shows them, the service answers them)', () => {
  it.each([
    ['a Yes/No field', 'FALSE', false, true],
    ['a Yes/No field that changed', 'FALSE', true, false],
    ['a number the sheet formats', '1,200', 1200, true],
    ['a number that changed', '1,200', 1201, false],
    ['an integer shown as is', '42', 42, true],
    ['text with its text prefix written', 'Series B', "'Series B", true],
    ['an enum that changed', 'Series A', "'Series B", false],
    ['a list in another order', 'Berlin\nParis', "'Paris\nBerlin", true],
    ['a list with another item', 'Berlin\nParis', "'Paris\nRome", false],
    ['a URL', 'https://acme.com/careers', "'https://acme.com/careers", true],
  ])('%s', (_name, before, after, same) => {
    expect(sameValue(before, after)).toBe(same);
  });

  it('a run whose Yes/No and number fields come back the same writes "No change" and no notes', () => {
    const mapping: OutputMapping = {
      kind: 'fields',
      statusHeader: 'Status',
      fields: [
        { name: 'sells_to_smb', header: 'sells_to_smb' },
        { name: 'employees', header: 'employees' },
      ],
    };
    const columns = new Map([
      ['sells_to_smb', 4],
      ['employees', 5],
      ['Signals', 6],
    ]);
    const written = [
      { row: 7, column: 4, value: false, note: null },
      { row: 7, column: 5, value: 1200, note: null },
    ];
    const out = withSignals(written, mapping, MARK, 7, ['acme.com', '', '', 'FALSE', '1,200'], columns);
    expect(out.find((cell) => cell.column === 6)?.value).toBe('No change');
    expect(out.filter((cell) => cell.note)).toEqual([]);
  });
});

it('counts a month as five weekly runs or one monthly run', () => {
  expect(creditsPerMonth(30, 'weekly')).toBe(150);
  expect(creditsPerMonth(30, 'monthly')).toBe(30);
});
