// The account watch's pure rules (src/research/watch.ts): the Signals text, the changed cells' notes, the cost of a
// month of runs.
import { creditsPerMonth, FIRST_LOOK, signalsText, withSignals, type WatchMark } from '../../../src/research/watch';
import type { OutputMapping } from '../../../src/research/ledger';

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
    ).toBe('employee_count 51-200 -> 201-500; new funding_stage: Series B; ceo removed (was Ada)');
    expect(signalsText([{ name: 'founded', before: '2010', after: 2010 }])).toBe('No change');
  });

  it('cuts long values and a long list', () => {
    const long = 'x'.repeat(100);
    expect(signalsText([{ name: 'about', before: 'a', after: long }])).toBe(`about a -> ${'x'.repeat(59)}…`);
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

  it('adds the Signals cell and a "Was X until <day>" note on each changed cell (before its evidence note)', () => {
    const before = ['acme.com', 'Acme', 'Done (6 credits)', '51-200', 'Series A'];
    const out = withSignals(cells, MAPPING, MARK, 7, before, COLUMNS);
    expect(out.find((cell) => cell.column === 6)).toEqual({
      row: 7,
      column: 6,
      value: 'employee_count 51-200 -> 201-500; funding_stage Series A -> Series B',
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

it('counts a month as five weekly runs or one monthly run', () => {
  expect(creditsPerMonth(30, 'weekly')).toBe(150);
  expect(creditsPerMonth(30, 'monthly')).toBe(30);
});
