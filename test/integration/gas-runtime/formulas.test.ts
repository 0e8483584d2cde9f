// Custom-function formulas in cells: arguments from literals, cells and ranges; array results spilling
// and #REF! when blocked; recalculation of dependents; #ERROR!/#NAME?; reopening the file; the 30-second
// limit; the formula cell as the active range; references following inserted rows.
import { createManualClock, GasRuntime } from '../../../dev/gas-runtime';
import { fixtureRuntime } from './helpers';

let rt: GasRuntime;
beforeEach(() => {
  rt = fixtureRuntime('formulas', { clock: createManualClock() });
});

const sheet = () => rt.spreadsheet.sheet();

test('arguments arrive as literals, cell values and 2-D arrays for ranges', () => {
  sheet().setValues('A1:B2', [
    [5, 'x'],
    [true, new Date(Date.UTC(2025, 0, 6))],
  ]);
  rt.userEdit('C1', '=DOUBLE(21)');
  rt.userEdit('C2', '=DOUBLE(A1)');
  rt.userEdit('C3', '=DESCRIBE(A1:B2)');
  rt.userEdit('C4', '=DESCRIBE("a ""quoted"" text")');
  rt.userEdit('C5', '=DESCRIBE(B2)');
  rt.userEdit('C6', '=describe(Sheet1!A2)');
  expect(sheet().getValues('C1:C6')).toEqual([
    [42],
    [10],
    ['array 2x2 [[5,"x"],[true,"2025-01-06T00:00:00.000Z"]]'],
    ['string a "quoted" text'],
    ['date 2025-01-06T00:00:00.000Z'],
    ['boolean true'],
  ]);
  expect(sheet().getFormulas('C1:C2')).toEqual([['=DOUBLE(21)'], ['=DOUBLE(A1)']]);
});

test('array results spill below and to the right; 1-D arrays spill down', () => {
  rt.userEdit('B2', '=GRID(2, 3)');
  rt.userEdit('F1', '=LIST(3)');
  expect(sheet().getValues('B2:D3')).toEqual([
    [0, 1, 2],
    [10, 11, 12],
  ]);
  expect(sheet().getFormulas('B2:D3')).toEqual([
    ['=GRID(2, 3)', '', ''],
    ['', '', ''],
  ]);
  expect(sheet().getValues('F1:F3')).toEqual([['item 1'], ['item 2'], ['item 3']]);
});

test('a formula entered again replaces its own spill, as in Sheets (a wider result is not blocked by the old one)', () => {
  rt.userEdit('B2', '=GRID(1, 3)');
  expect(sheet().getValues('B2:D2')).toEqual([[0, 1, 2]]);
  // Made a range: it spills two rows where the one-row result was (issue 29: the old spill made it #REF!).
  rt.userEdit('B2', '=GRID(2, 3)');
  expect(sheet().getValues('B2:D3')).toEqual([
    [0, 1, 2],
    [10, 11, 12],
  ]);
  // A narrower result leaves nothing of the wider one behind; a plain value replaces the spill.
  rt.userEdit('B2', '=GRID(1, 2)');
  expect(sheet().getValues('B2:D3')).toEqual([
    [0, 1, ''],
    ['', '', ''],
  ]);
  rt.userEdit('B2', 'plain');
  expect(sheet().getValues('B2:D2')).toEqual([['plain', '', '']]);
});

test("a spill onto data shows #REF! with Sheets' message, and expands once the data is gone", () => {
  rt.userEdit('D3', 'in the way');
  rt.userEdit('B2', '=GRID(2, 3)');
  expect(sheet().getValues('B2:D3')).toEqual([
    ['#REF!', '', ''],
    ['', '', 'in the way'],
  ]);
  expect(sheet().getErrors('B2')).toEqual([['Array result was not expanded because it would overwrite data in D3.']]);
  rt.userEdit('D3', '');
  expect(sheet().getValues('B2:D3')).toEqual([
    [0, 1, 2],
    [10, 11, 12],
  ]);
  rt.userEdit('C3', 'typed into the spill');
  expect(sheet().getValues('B2:D3')).toEqual([
    ['#REF!', '', ''],
    ['', 'typed into the spill', ''],
  ]);
});

test('editing an argument cell recalculates dependents, also when a script writes it', () => {
  rt.userEdit('A1', '2');
  rt.userEdit('B1', '=DOUBLE(A1)');
  rt.userEdit('C1', '=DOUBLE(B1)');
  expect(sheet().getValues('A1:C1')).toEqual([[2, 4, 8]]);
  rt.userEdit('A1', '5');
  expect(sheet().getValues('A1:C1')).toEqual([[5, 10, 20]]);
  rt.run('writeCell', ['A1', 7]);
  expect(sheet().getValues('A1:C1')).toEqual([[7, 14, 28]]);
});

test('a thrown error shows #ERROR! with its message; unknown and private functions show #NAME?', () => {
  rt.userEdit('A1', '=FAIL("boom")');
  rt.userEdit('A2', '=NOPE(1)');
  rt.userEdit('A3', '=helper_(1)');
  rt.userEdit('A4', '=WRITER()');
  expect(sheet().getValues('A1:A4')).toEqual([['#ERROR!'], ['#NAME?'], ['#NAME?'], ['#ERROR!']]);
  expect(sheet().getErrors('A1:A4')).toEqual([
    ['boom'],
    ["Unknown function: 'NOPE'."],
    ["Unknown function: 'helper_'."],
    ['You do not have permission to call setValue'],
  ]);
});

test('reopening the file evaluates every custom formula again', () => {
  rt.userEdit('A1', '=COUNTED(1)');
  rt.userEdit('A2', '=COUNTED(2)');
  expect(rt.cache.script.get('calls')).toBe('2');
  rt.open();
  expect(rt.cache.script.get('calls')).toBe('4');
  rt.userEdit('B1', 'unrelated');
  expect(rt.cache.script.get('calls')).toBe('4');
});

test("a custom function running past 30 seconds shows Google's timeout", () => {
  rt.userEdit('A2', '=SLOW()');
  expect(sheet().getValues('A2')).toEqual([['#ERROR!']]);
  expect(sheet().getErrors('A2')).toEqual([['Exceeded maximum execution time (line 0).']]);
});

test("inside a custom function the active sheet and range are the formula's", () => {
  rt.spreadsheet.insertSheet('Other');
  rt.userEdit('C7', '=WHERE()');
  rt.userEdit('Other!B2', '=WHERE()');
  expect(sheet().getValues('C7')).toEqual([['Sheet1!C7']]);
  expect(rt.spreadsheet.sheet('Other').getValues('B2')).toEqual([['Other!B2']]);
});

test('inserting rows moves formulas and rewrites their references', () => {
  rt.userEdit('A3', '4');
  rt.userEdit('B3', '=DOUBLE(A3)');
  rt.run('insertRowAtTop');
  expect(sheet().getFormulas('B4')).toEqual([['=DOUBLE(A4)']]);
  rt.userEdit('A4', '6');
  expect(sheet().getValues('B4')).toEqual([[12]]);
});

test('deleting a referenced row turns the reference into #REF!', () => {
  rt.userEdit('A2', '3');
  rt.userEdit('B5', '=DOUBLE(A2)');
  expect(sheet().getValues('B5')).toEqual([[6]]);
  sheet().deleteRows(2, 1);
  rt.recalculate();
  expect(sheet().getFormulas('B4')).toEqual([['=DOUBLE(#REF!)']]);
  expect(sheet().getValues('B4')).toEqual([['#REF!']]);
});
