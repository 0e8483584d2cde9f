// Whether a range =COMPANY_LOOKUP still lines up with its inputs (src/functions/placement.ts): a formula a sort moved
// inside its input range says so and how to put it right; one at the range's first row (or below its header, or
// elsewhere: another sheet, outside the range, a single cell) answers as usual.
import { sortedAwayText, type CallingCell } from '../../../src/functions/placement';

const at = (a1Row: number, formula: string, column = 2, sheetName = 'Leads'): CallingCell => ({
  sheetName,
  row: a1Row,
  column,
  formula,
});

describe('a range COMPANY_LOOKUP sorted away from its inputs', () => {
  it('says so, with where it belongs and the one-formula-per-row alternative', () => {
    expect(sortedAwayText(at(17, '=COMPANY_LOOKUP(A2:A31)'), false)).toBe(
      'Sorted away from A2:A31: its rows would not line up. Move it back to B2, or use one =COMPANY_LOOKUP(A17) per row',
    );
    expect(sortedAwayText(at(9, '=company_lookup($C$2:$C, "domain", TRUE)', 5), true)).toBe(
      'Sorted away from $C$2:$C: its rows would not line up. Move it back to E1, or use one =COMPANY_LOOKUP(C10) per row',
    );
    expect(sortedAwayText(at(4, "=COMPANY_LOOKUP('Leads'!A:A)"), false)).toMatch(/Move it back to B1/);
  });

  it('leaves alone a formula whose rows line up or that is not beside its inputs', () => {
    expect(sortedAwayText(at(2, '=COMPANY_LOOKUP(A2:A31)'), false)).toBeNull();
    expect(sortedAwayText(at(1, '=COMPANY_LOOKUP(A2:A31, "domain", TRUE)'), true)).toBeNull();
    expect(sortedAwayText(at(40, '=COMPANY_LOOKUP(A2:A31)'), false)).toBeNull();
    expect(sortedAwayText(at(17, '=COMPANY_LOOKUP(Other!A2:A31)'), false)).toBeNull();
    expect(sortedAwayText(at(17, '=IFERROR(COMPANY_LOOKUP(A2:A31), "")'), false)).toBeNull();
    expect(sortedAwayText(at(17, '=SIMILAR(A2:A31)'), false)).toBeNull();
    expect(sortedAwayText(at(5, '=COMPANY_LOOKUP(A1:A31, , TRUE)'), true)).toBeNull();
    expect(sortedAwayText(null, false)).toBeNull();
  });
});
