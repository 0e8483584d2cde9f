import { safeText, toCellValue, CELL_CHARACTER_LIMIT } from '../../../src/shared/cell-values';

describe('safeText', () => {
  it.each(['=cmd|"/c calc"!A1', '+1+1', '-2', '@SUM(A1)', '\t=1', '\r=1'])('escapes formula trigger %p', (text) => {
    expect(safeText(text)).toBe(`'${text}`);
  });
  it.each(['1-10', '00123', '10001+', '$2.99', '2024/01/02'])('escapes text Sheets would coerce: %p', (text) => {
    expect(safeText(text)).toBe(`'${text}`);
  });
  it.each(['Acme Corp', 'a=b', 'stripe.com', 'Payments infrastructure'])('leaves plain text %p alone', (text) => {
    expect(safeText(text)).toBe(text);
  });
  it('cuts text over the cell limit with a marker', () => {
    const out = safeText('a'.repeat(CELL_CHARACTER_LIMIT + 10));
    expect(out.length).toBeLessThan(CELL_CHARACTER_LIMIT);
    expect(out.endsWith(' [truncated]')).toBe(true);
  });
});

describe('toCellValue', () => {
  it('keeps numbers and booleans, blanks nullish, joins lists by newline', () => {
    expect(toCellValue(2014)).toBe(2014);
    expect(toCellValue(true)).toBe(true);
    expect(toCellValue(null)).toBe('');
    expect(toCellValue(Number.NaN)).toBe('');
    expect(toCellValue(['a', 'b'])).toBe('a\nb');
    expect(toCellValue({ x: 1 })).toBe('{"x":1}');
    expect(toCellValue('=HYPERLINK("http://evil")')).toBe(`'=HYPERLINK("http://evil")`);
  });
});
