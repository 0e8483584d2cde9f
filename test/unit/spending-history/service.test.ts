// Settings > Spending over its ports (ports.ts): the list names each run's sheet as it is called now ('' once deleted)
// and reads the sheets only when there are runs; the export writes a header and one row per run, every text cell with
// Sheets' text prefix and every figure as the list has it, into a new sheet, or over one holding data only once the
// user confirmed; a name out of bounds or a sheet the export may not write is refused with nothing written.
import fc from 'fast-check';
import { ManualClock, MemoryStore } from '../../fakes/ports';
import { runId, SpendingHistory, type RunKind } from '../../../src/spending-history/history';
import type { SpendingHistoryDeps, SpendingSheetsPort } from '../../../src/spending-history/ports';
import { INCOMPLETE_KEY } from '../../../src/spending-history/recording';
import { EXPORT_HEADERS, exportHistory, historyDto } from '../../../src/spending-history/service';
import type { CellValue } from '../../../src/shared/cell-values';

const START = Date.UTC(2026, 2, 2, 9);

/** The spreadsheet's sheets by id, with what each holds; `refused` names sheets the export may not write. */
class SheetBook implements SpendingSheetsPort {
  readonly contents = new Map<string, CellValue[][]>();
  reads = 0;
  constructor(
    readonly names: Map<number, string>,
    private readonly refused = new Set<string>(),
  ) {}
  sheetNamesById(): Map<number, string> {
    this.reads++;
    return new Map(this.names);
  }
  exportSheet(name: string, rows: CellValue[][], replace: boolean): 'written' | 'filled' | string {
    if (this.refused.has(name)) return `"${name}" is one of Sheet Scout's own sheets: name another sheet`;
    if ((this.contents.get(name)?.length ?? 0) > 0 && !replace) return 'filled';
    this.contents.set(name, rows);
    return 'written';
  }
}

function deps(book: SheetBook, document = new MemoryStore()): SpendingHistoryDeps {
  return {
    document,
    clock: new ManualClock(START),
    sheets: book,
    zone: {
      timeZone: () => 'Europe/Lisbon',
      format: (ms, pattern) => `${pattern}@${new Date(ms).toISOString()}`,
    },
  };
}

const KINDS: RunKind[] = ['launch', 'watch', 'send-anyway', 'new-rows'];
const runArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  startedBy: fc.constantFrom('ana@example.com', '=HYPERLINK("x")', '+1 555'),
  sheetId: fc.integer({ min: 1, max: 6 }),
  records: fc.integer({ min: 1, max: 4 }),
  reservation: fc.integer({ min: 1, max: 30 }),
  minutesAgo: fc.integer({ min: 0, max: 60 * 24 * 30 }),
});

type RunOpened = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

/** Opens the runs in the document the way research does (launch `L<index>`). */
function withRuns(document: MemoryStore, runs: Array<RunOpened>): void {
  const history = new SpendingHistory(document, () => START);
  runs.forEach((run, index) =>
    history.open({
      kind: run.kind,
      startedBy: run.startedBy,
      launch: `L${index}`,
      at: START - run.minutesAgo * 60_000,
      sheetId: run.sheetId,
      reservation: run.reservation,
      records: Array.from({ length: run.records }, (_, i) => ({ id: `L${index}-r${i}`, ordinal: i })),
    }),
  );
}

describe('Settings > Spending over its ports', () => {
  it('names each run by its sheet as it is now, and exports one safe row per run under the header', () => {
    fc.assert(
      fc.property(fc.array(runArb, { maxLength: 12 }), fc.boolean(), (runs, incomplete) => {
        // Sheets 1 to 4 exist (3 renamed since); 5 and 6 were deleted.
        const book = new SheetBook(new Map([1, 2, 3, 4].map((id) => [id, id === 3 ? 'Renamed' : `Sheet${id}`])));
        const document = new MemoryStore();
        withRuns(document, runs);
        if (incomplete) document.set(INCOMPLETE_KEY, String(START - 5));
        const list = historyDto(deps(book, document));

        expect(list.runs).toHaveLength(runs.length);
        expect(book.reads).toBe(runs.length > 0 ? 1 : 0);
        expect(list).toMatchObject({
          days: 90,
          timeZone: 'Europe/Lisbon',
          incompleteSince: incomplete ? START - 5 : null,
        });
        const sheetOf = new Map(runs.map((run, index) => [runId(`L${index}`), run.sheetId]));
        for (const run of list.runs) expect(run.sheetName).toBe(book.names.get(sheetOf.get(run.id)!) ?? '');

        const answer = exportHistory(deps(book, document), { sheetName: '  Spending  ' });
        expect(answer).toEqual({
          ok: true,
          message: `Exported ${runs.length} run${runs.length === 1 ? '' : 's'} to "Spending" (values, no formulas)`,
        });
        const rows = book.contents.get('Spending')!;
        expect(rows[0]).toEqual(EXPORT_HEADERS.map((header) => `'${header}`));
        expect(rows).toHaveLength(1 + list.runs.length);
        list.runs.forEach((run, index) => {
          const row = rows[index + 1];
          for (const cell of row) if (typeof cell === 'string') expect(cell === '' || cell.startsWith("'")).toBe(true);
          expect(row.slice(4, 11)).toEqual([
            run.rows,
            run.reserved,
            run.charged,
            run.givenBack,
            run.open,
            run.unknown,
            run.lost,
          ]);
          expect(row[0]).toBe(`'yyyy-MM-dd HH:mm@${new Date(run.at).toISOString()}`);
          expect(row[3]).toBe(`'${run.sheetName || '(deleted sheet)'}`);
        });
      }),
      { seed: 49, numRuns: 60 },
    );
  });

  it('asks before replacing a sheet that holds data, and replaces it once confirmed', () => {
    const book = new SheetBook(new Map([[1, 'Sheet1']]));
    const document = new MemoryStore();
    withRuns(document, [
      { kind: 'launch', startedBy: 'ana@example.com', sheetId: 1, records: 2, reservation: 10, minutesAgo: 5 },
    ]);
    book.contents.set('Kept', [['their data']]);
    expect(exportHistory(deps(book, document), { sheetName: 'Kept' })).toEqual({
      ok: false,
      confirmReplace: true,
      message: '"Kept" already holds data: replace its contents with the spending history?',
    });
    expect(book.contents.get('Kept')).toEqual([['their data']]);
    expect(exportHistory(deps(book, document), { sheetName: 'Kept', replace: true })).toMatchObject({ ok: true });
    expect(book.contents.get('Kept')).toHaveLength(2);
  });

  it('refuses a name out of bounds and a sheet the export may not write, writing nothing', () => {
    const book = new SheetBook(new Map([[1, 'Sheet1']]), new Set(['Sheet Scout records']));
    for (const sheetName of ['', '   ', 'x'.repeat(101)])
      expect(exportHistory(deps(book), { sheetName })).toEqual({
        ok: false,
        message: 'Name the sheet to export to (1 to 100 characters)',
      });
    expect(exportHistory(deps(book), { sheetName: 'Sheet Scout records' })).toEqual({
      ok: false,
      message: `"Sheet Scout records" is one of Sheet Scout's own sheets: name another sheet`,
    });
    expect(book.contents.size).toBe(0);
  });
});
