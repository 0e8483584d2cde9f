// An in-memory SearchSheetPort for the writer tests: sheets as grids of values, notes by cell, call counts.
import type { Result } from '../../../src/api/errors';
import type { SimilarCall } from '../../../src/api/operations';
import type { CompanySearchResult, SearchRequest, SearchResponse, SimilarResponse } from '../../../src/api/types';
import type { SearchBackend } from '../../../src/search/run-search';
import type { CellValue } from '../../../src/shared/cell-values';
import type { SearchSheetPort, SelectedRange, SheetRef } from '../../../src/search/ports';
import { storedValue } from '../../fakes/typed-input';

export class FakeSheets implements SearchSheetPort {
  sheets: Array<SheetRef & { grid: unknown[][]; notes: Map<string, string>; frozen: boolean }> = [];
  active = 0;
  activeValue: unknown = null;
  /** The selected range the panel reads references from, or null. */
  selected: SelectedRange | null = null;
  reads = 0;
  writes = 0;
  /** Values as the add-in wrote them (before Sheets reads the text prefix), by "sheet:row:column". */
  raw = new Map<string, CellValue>();

  add(name: string, grid: unknown[][] = []): SheetRef {
    const sheet = { id: this.sheets.length + 100, name, grid, notes: new Map<string, string>(), frozen: false };
    this.sheets.push(sheet);
    return { id: sheet.id, name };
  }

  sheet(id: number) {
    const found = this.sheets.find((s) => s.id === id);
    if (!found) throw new Error(`no sheet ${id}`);
    return found;
  }

  listSheets(): SheetRef[] {
    return this.sheets.map(({ id, name }) => ({ id, name }));
  }
  activeSheet(): SheetRef {
    const { id, name } = this.sheets[this.active];
    return { id, name };
  }
  activeCellValue(): unknown {
    return this.activeValue;
  }
  selection(): SelectedRange | null {
    return this.selected;
  }
  readAll(sheetId: number): unknown[][] {
    this.reads++;
    const grid = this.sheet(sheetId).grid;
    const width = Math.max(0, ...grid.map((row) => row.length));
    return grid.map((row) => Array.from({ length: width }, (_, i) => (row[i] === undefined ? '' : row[i])));
  }
  insertSheet(name: string): SheetRef {
    if (this.sheets.some((s) => s.name === name)) throw new Error('name taken');
    return this.add(name);
  }
  writeValues(sheetId: number, row: number, column: number, values: CellValue[][]): void {
    this.writes++;
    const grid = this.sheet(sheetId).grid;
    values.forEach((cells, r) => {
      const target = (grid[row - 1 + r] ??= []);
      cells.forEach((value, c) => {
        while (target.length < column - 1 + c) target.push('');
        target[column - 1 + c] = storedValue(value);
        this.raw.set(`${sheetId}:${row + r}:${column + c}`, value);
      });
    });
    for (let r = 0; r < grid.length; r++) grid[r] ??= [];
  }
  getNote(sheetId: number, row: number, column: number): string {
    return this.sheet(sheetId).notes.get(`${row}:${column}`) ?? '';
  }
  setNote(sheetId: number, row: number, column: number, note: string): void {
    this.sheet(sheetId).notes.set(`${row}:${column}`, note);
  }
  styleHeader(sheetId: number): void {
    this.sheet(sheetId).frozen = true;
  }
  activate(sheetId: number): void {
    this.active = this.sheets.findIndex((s) => s.id === sheetId);
  }
}

/** CachePort in memory; `refuse` makes putAll throw like a cache over its limits. */
export function results(from: number, count: number): CompanySearchResult[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `c${from + i}`,
    domain: `c${from + i}.com`,
    name: `C${from + i}`,
  }));
}

export class FakeBackend implements SearchBackend {
  searches: SearchRequest[] = [];
  similar: SimilarCall[] = [];
  constructor(private readonly answer: (offset: number, limit: number) => Result<SearchResponse>) {}
  runSearches(requests: SearchRequest[]): Result<SearchResponse>[] {
    this.searches.push(...requests);
    return requests.map((r) => this.answer(r.pagination?.offset ?? 0, r.pagination?.limit ?? 0));
  }
  runSimilar(calls: SimilarCall[]): Result<SimilarResponse>[] {
    this.similar.push(...calls);
    return calls.map((c) => {
      const outcome = this.answer(c.request?.pagination?.offset ?? 0, c.request?.pagination?.limit ?? 0);
      return outcome.ok
        ? { ...outcome, value: { ...outcome.value, reference_company: { id: 'ref', domain: 'ref.com' } } }
        : outcome;
    });
  }
}

export const total =
  (n: number) =>
  (offset: number, limit: number): Result<SearchResponse> => ({
    ok: true,
    status: 200,
    retries: 0,
    value: { results: results(offset, Math.max(0, Math.min(limit, n - offset))), request: {} },
  });
