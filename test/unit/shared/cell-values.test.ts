import { safeText, toCellValue, CELL_CHARACTER_LIMIT } from '../../../src/shared/cell-values';

describe('safeText', () => {
  // Every non-empty service string gets Sheets' text prefix: formula triggers, numbers in scientific notation,
  // booleans, dates and times, apostrophes and full-width signs all stay the exact text.
  it.each([
    '=cmd|"/c calc"!A1',
    '+1+1',
    '-2',
    '@SUM(A1)',
    '\t=1',
    '1-10',
    '00123',
    '$2.99',
    '1e10',
    'TRUE',
    'Jan 5',
    '10:00 AM',
    "'quoted",
    '\uff1d1+1',
    'Acme Corp',
    'stripe.com',
  ])('writes %p as text', (text) => {
    expect(safeText(text)).toBe(`'${text}`);
  });
  it('leaves an empty string empty', () => {
    expect(safeText('')).toBe('');
  });
  it('cuts text over the cell limit with a marker', () => {
    const out = safeText('a'.repeat(CELL_CHARACTER_LIMIT + 10));
    expect(out.length).toBe(CELL_CHARACTER_LIMIT);
    expect(out.endsWith(' [truncated]')).toBe(true);
  });
});

describe('toCellValue', () => {
  it('keeps numbers and booleans, blanks nullish, joins lists by newline', () => {
    expect(toCellValue(2014)).toBe(2014);
    expect(toCellValue(true)).toBe(true);
    expect(toCellValue(null)).toBe('');
    expect(toCellValue(Number.NaN)).toBe('');
    expect(toCellValue(['a', 'b'])).toBe("'a\nb");
    expect(toCellValue({ x: 1 })).toBe(`'{"x":1}`);
    expect(toCellValue('=HYPERLINK("http://evil")')).toBe(`'=HYPERLINK("http://evil")`);
  });
});
