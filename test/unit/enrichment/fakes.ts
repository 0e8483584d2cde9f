// In-memory fakes for the enrichment job's ports: a sheet that stores formulas and values like Sheets does for
// setValues (a leading '=' makes a formula, a leading ' is a text prefix) and can be sorted or have rows inserted and
// deleted; a scripted lookup client (whose calls can take time on the clock); the continuation and the enrichment
// dates; the cache, store, clock and lock are the shared ones of test/fakes/ports.ts.
import { ManualClock, MemoryCache, MemoryLock, MemoryStore } from '../../fakes/ports';
import type { Result } from '../../../src/api/errors';
import type { CompanyProfile, LookupOutcome } from '../../../src/api/types';
import type { Area } from '../../../src/enrichment/sheet/layout';
import type {
  EnrichSheet,
  SheetAccess,
  ContinuationPort,
  EnrichedDomain,
  EnrichmentDates,
} from '../../../src/enrichment/ports';
import type { EnrichDeps } from '../../../src/enrichment/ports';

type Cell = { value: unknown; formula?: string };

export class FakeSheet implements EnrichSheet {
  readonly id: number;
  readonly name: string;
  targetProblem: string | null = null;
  cells: Cell[][];
  reads = 0;
  writes = 0;

  constructor(id: number, name: string, rows: unknown[][]) {
    this.id = id;
    this.name = name;
    this.cells = rows.map((row) => row.map((value) => ({ value })));
  }

  private width(): number {
    return this.cells.reduce((max, row) => Math.max(max, row.length), 0);
  }

  private lastRowIndex(): number {
    for (let r = this.cells.length - 1; r >= 0; r--)
      if (this.cells[r].some((cell) => cell.value !== '' || cell.formula)) return r + 1;
    return 0;
  }

  readValues(): unknown[][] {
    this.reads++;
    const width = this.width();
    return this.cells
      .slice(0, this.lastRowIndex())
      .map((row) => Array.from({ length: width }, (_, c) => row[c]?.value ?? ''));
  }

  lastRow(): number {
    this.reads++;
    return this.lastRowIndex();
  }

  readHeader(): unknown[] {
    this.reads++;
    const width = this.width();
    return Array.from({ length: width }, (_, c) => this.cells[0]?.[c]?.value ?? '');
  }

  /** One read of an area's cells, each as `pick` takes it from the cell ('' where the sheet has none). */
  private readCells<T>(area: Area, pick: (cell: Cell | undefined) => T): T[][] {
    this.reads++;
    return Array.from({ length: area.numRows }, (_, r) =>
      Array.from({ length: area.numColumns }, (_, c) => pick(this.cells[area.row - 1 + r]?.[area.column - 1 + c])),
    );
  }

  readArea(area: Area): unknown[][] {
    return this.readCells(area, (cell) => cell?.value ?? '');
  }

  /** Commits (SpreadsheetApp.flush). */
  commits = 0;
  commit(): void {
    this.commits++;
  }

  readFormulas(area: Area): string[][] {
    return this.readCells(area, (cell) => cell?.formula ?? '');
  }

  writeValues(row: number, column: number, values: unknown[][]): void {
    this.writes++;
    values.forEach((line, r) => {
      while (this.cells.length < row + r) this.cells.push([]);
      const target = this.cells[row - 1 + r];
      line.forEach((value, c) => {
        while (target.length < column + c) target.push({ value: '' });
        target[column - 1 + c] = FakeSheet.parse(value);
      });
    });
  }

  /** Notes by "row:column" (1-based), as setNotes leaves them. */
  readonly notes = new Map<string, string>();

  writeNotes(row: number, column: number, notes: string[][]): void {
    this.writes++;
    notes.forEach((line, r) => line.forEach((note, c) => this.notes.set(`${row + r}:${column + c}`, note)));
  }

  ensureColumns(): void {
    // The fake grid grows on write.
  }

  insertRowAtTop(): void {
    this.writes++;
    this.cells.unshift([]);
  }

  /** What Sheets stores for a written value. */
  static parse(value: unknown): Cell {
    if (typeof value === 'string' && value.startsWith('=')) return { value: `(computed ${value})`, formula: value };
    if (typeof value === 'string' && value.startsWith("'")) return { value: value.slice(1) };
    if (typeof value === 'string' && /^\d+$/.test(value)) return { value: Number(value) };
    return { value };
  }

  setFormula(row: number, column: number, formula: string, computed: unknown): void {
    while (this.cells[row - 1].length < column) this.cells[row - 1].push({ value: '' });
    this.cells[row - 1][column - 1] = { value: computed, formula };
  }

  value(row: number, column: number): unknown {
    return this.cells[row - 1]?.[column - 1]?.value ?? '';
  }

  /** Column values from row 1 down. */
  column(column: number): unknown[] {
    return this.cells.slice(0, this.lastRowIndex()).map((row) => row[column - 1]?.value ?? '');
  }

  /** Sorts the data rows (below row 1) by a column, descending when asked (like a user's "Sort sheet Z to A"). */
  sortBy(column: number, descending = false): void {
    const [header, ...data] = this.cells;
    data.sort((a, b) => {
      const x = String(a[column - 1]?.value ?? '');
      const y = String(b[column - 1]?.value ?? '');
      return descending ? y.localeCompare(x) : x.localeCompare(y);
    });
    this.cells = [header, ...data];
  }

  insertRow(before: number, values: unknown[]): void {
    this.cells.splice(
      before - 1,
      0,
      values.map((value) => ({ value })),
    );
  }

  deleteRow(row: number): void {
    this.cells.splice(row - 1, 1);
  }

  /** The row (1-based) whose column `column` holds `text`. */
  rowOf(column: number, text: string): number {
    return this.cells.findIndex((row) => row[column - 1]?.value === text) + 1;
  }
}

export function profileFor(domain: string): CompanyProfile {
  const name = domain.split('.')[0];
  return {
    id: `id-${domain}`,
    domain,
    company_name: `${name[0].toUpperCase()}${name.slice(1)} Inc`,
    context: {
      hq_country: `Country of ${domain}`,
      employee_count: '51-200',
      founding_year: 2000 + (domain.length % 20),
      short_description: `=HYPERLINK("http://evil/${name}")`,
    },
  } as CompanyProfile;
}

/** The round size the fake client suggests, as the adaptive throughput would. */
export const FAKE_BATCH = 25;

/** Scripted lookups: a domain in `enriching` answers 202 that many times first; `notFound` answers 404. */
export class FakeClient {
  calls: string[][] = [];
  batchSize(): number {
    return FAKE_BATCH;
  }
  enriching = new Map<string, number>();
  notFound = new Set<string>();
  /** Profiles that differ from profileFor (e.g. lacking fields). */
  profiles = new Map<string, CompanyProfile>();
  errors = new Map<
    string,
    { kind: 'unavailable'; status: number } | { kind: 'unauthorized' } | { kind: 'rate_limited' }
  >();
  /** Batches larger than this lose every answer (one dropped connection fails a whole fetchAll). */
  loseBatchesOver = Infinity;
  /** Throws (like an execution killed mid-fetch) on the n-th call when set. */
  crashOnCall: number | null = null;
  /** Time each call takes on the world's clock (0: none), and what to do before a call (n: 1-based). */
  roundMs = 0;
  clock: ManualClock | null = null;
  beforeCall: ((n: number) => void) | null = null;

  lookupCompanies(ids: string[]): Result<LookupOutcome>[] {
    this.beforeCall?.(this.calls.length + 1);
    this.calls.push(ids);
    if (this.roundMs > 0) this.clock?.sleep(this.roundMs);
    if (this.crashOnCall === this.calls.length) throw new Error('Exceeded maximum execution time');
    if (ids.length > this.loseBatchesOver)
      return ids.map(
        () =>
          ({
            ok: false,
            error: { kind: 'network', maybeSent: true, detail: 'dropped' },
            retries: 3,
          }) as Result<LookupOutcome>,
      );
    return ids.map((id) => {
      const error = this.errors.get(id);
      if (error) return { ok: false, error, retries: 0 } as Result<LookupOutcome>;
      const left = this.enriching.get(id) ?? 0;
      if (left > 0) {
        this.enriching.set(id, left - 1);
        return { ok: true, value: { state: 'enriching', domain: id, message: null }, status: 202, retries: 0 };
      }
      if (this.notFound.has(id)) return { ok: false, error: { kind: 'not_found' }, retries: 0 };
      return {
        ok: true,
        value: { state: 'ready', profile: this.profiles.get(id) ?? profileFor(id) },
        status: 200,
        retries: 0,
      };
    });
  }

  looked(): string[] {
    return this.calls.flat();
  }
}

/** The shared timer as the job sees it: whether it holds a continuation for the job, and how often it was armed. */
export class FakeContinuation implements ContinuationPort {
  armed = false;
  scheduled = 0;
  /** Why no timer can be had (Google's trigger limit), or null. */
  refusal: string | null = null;
  arm(): { timer: string | null; problem: string | null } {
    this.armed = true;
    this.scheduled++;
    return { timer: 'timer-1', problem: this.refusal };
  }
  cancel(): void {
    this.armed = false;
  }
}

export interface World {
  deps: EnrichDeps;
  sheet: FakeSheet;
  client: FakeClient;
  cache: MemoryCache;
  store: MemoryStore;
  clock: ManualClock;
  lock: MemoryLock;
  triggers: FakeContinuation;
  selection: Area;
  dates: MemoryDates;
}

/** The hidden dates sheet in memory: per sheet, domain -> when it was last enriched and what was written for it. */
export class MemoryDates implements EnrichmentDates {
  readonly bySheet = new Map<number, Map<string, EnrichedDomain>>();
  read(sheetId: number): Map<string, EnrichedDomain> {
    return new Map(this.bySheet.get(sheetId) ?? []);
  }
  prepare(): void {}

  record(sheetId: number, domains: ReadonlyMap<string, Record<string, string>>, at: number): void {
    const dates = this.bySheet.get(sheetId) ?? new Map<string, EnrichedDomain>();
    for (const [domain, written] of domains)
      dates.set(domain, { at, written: { ...dates.get(domain)?.written, ...written } });
    this.bySheet.set(sheetId, dates);
  }
}

export function world(rows: unknown[][], selection?: Partial<Area>): World {
  const sheet = new FakeSheet(7, 'Leads', rows);
  const client = new FakeClient();
  const clock = new ManualClock();
  client.clock = clock;
  const cache = new MemoryCache(clock);
  const store = new MemoryStore();
  const lock = new MemoryLock();
  const triggers = new FakeContinuation();
  const area: Area = { row: 1, column: 1, numRows: rows.length, numColumns: 1, ...selection };
  const sheets: SheetAccess = {
    active: () => ({ sheet, selection: area }),
    byId: (id) => (id === sheet.id ? sheet : null),
  };
  let ids = 0;
  const dates = new MemoryDates();
  const deps: EnrichDeps = {
    store,
    sheets,
    dates,
    cache,
    cacheWrites: { hold: () => undefined, flush: () => undefined },
    clock,
    lock,
    continuation: triggers,
    client: () => client,
    newId: () => `job-${++ids}`,
    requests: () => ({ used: 0, limit: 18_000 }),
    requestsAhead: { reserve: () => undefined, release: () => undefined },
  };
  return { deps, sheet, client, cache, store, clock, lock, triggers, selection: area, dates };
}
