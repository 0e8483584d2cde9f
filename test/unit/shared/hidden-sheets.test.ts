// The one door to the add-in's hidden sheets: every store of records in a hidden sheet, present and future, is made by
// appContext().hiddenTable() and so is a sealed table (src/shared/storage/sealed-table.ts). This holds the code to it:
// no other file of src/ builds the grid of a hidden sheet, reaches one of the internal sheets by name, or writes a
// sheet by name except the user's (search results, the spending export, both refused on the internal sheets).
import * as fs from 'fs';
import * as path from 'path';

const SRC = path.join(__dirname, '../../../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

const files = sources(SRC).map((file) => ({ file: path.relative(SRC, file), text: fs.readFileSync(file, 'utf8') }));
const using = (pattern: RegExp) =>
  files
    .filter(({ text }) => pattern.test(text))
    .map(({ file }) => file)
    .sort();

describe("the add-in's hidden sheets", () => {
  it('are built as sealed tables in one place', () => {
    expect(using(/new HiddenTable\(/)).toEqual(['platform/sealing.ts']);
    expect(using(/new SealedTable\(/)).toEqual(['platform/sealing.ts']);
    expect(using(/sealLegacyTable\(/)).toEqual(['platform/sealing.ts', 'platform/sheets/hidden-table.ts']);
  });

  it('are reached by name only by the grid and the sealer', () => {
    expect(using(/getSheetByName\(/)).toEqual([
      'platform/sealing.ts',
      'platform/sheets/hidden-table.ts',
      'spending-history/adapters/sheets.ts',
    ]);
    // The spending export writes the sheet the user named, after targetSheetProblem refuses the internal ones.
    const exportFile = files.find(({ file }) => file === 'spending-history/adapters/sheets.ts')?.text ?? '';
    expect(exportFile).toMatch(/targetSheetProblem\(\{ name: existing\.getName\(\)/);
    expect(exportFile).toMatch(/targetSheetProblem\(\{ name, hidden: false \}\)/);
  });
});
