// In-memory fakes of the research ports: a grid of sheets with row metadata that moves with inserted rows, a
// hidden table, a manual clock, and a scripted research service that keeps every created task (to prove none is
// created twice) and can fail creates the ways the real service does; a job's world over them; and a ledger record
// with every field set (`ledgerEntry`).
import { MemoryStore } from '../../fakes/ports';
import { documentCreatePermits } from '../../../src/research/spending/create-permits';
import type { Result } from '../../../src/api/errors';
import type { CreateTaskRequest, ListTasksQuery, ResearchTask, User } from '../../../src/api/types';
import type { LaunchPlanInput, PayingDeps } from '../../../src/research/launch/launch';
import type { LedgerEntry, OutputMapping } from '../../../src/research/records/ledger';
import type { CellWrite, GridPort, ResearchClient } from '../../../src/research/ports';
import { LedgerStore } from '../../../src/research/records/stores';
import { ReportStore } from '../../../src/research/records/report-store';
import type { CellValue } from '../../../src/shared/cell-values';
import { storedValue } from '../../fakes/typed-input';
import { ROW_TAG_KEY } from '../../../src/research/rows/row-tags';
import { ManualClock } from '../../fakes/ports';
import { FakeTable } from '../../fakes/table';
import { TaskIndex } from '../../../src/research/records/task-index';

export { FakeTable };

interface FakeSheet {
  cells: CellValue[][];
  notes: Map<string, string>;
  /** row id -> row */
  meta: Map<string, number>;
}

export class FakeGrid implements GridPort {
  sheets = new Map<number, FakeSheet>();
  writes = 0;
  /** Values as the add-in wrote them (before Sheets reads the text prefix), by "sheet:row:column". */
  raw = new Map<string, CellValue>();

  addSheet(id: number, rows: CellValue[][]): void {
    this.sheets.set(id, { cells: rows.map((r) => [...r]), notes: new Map(), meta: new Map() });
  }
  private sheet(id: number): FakeSheet {
    const sheet = this.sheets.get(id);
    if (!sheet) throw new Error(`no sheet ${id}`);
    return sheet;
  }
  value(id: number, row: number, column: number): CellValue {
    return this.sheet(id).cells[row - 1]?.[column - 1] ?? '';
  }
  note(id: number, row: number, column: number): string | undefined {
    return this.sheet(id).notes.get(`${row}:${column}`);
  }
  /** Value under a header. */
  at(id: number, row: number, header: string): CellValue {
    const column = this.sheet(id).cells[0].indexOf(header) + 1;
    return column > 0 ? this.value(id, row, column) : (undefined as unknown as CellValue);
  }
  headers(sheetId: number): string[] | null {
    const sheet = this.sheets.get(sheetId);
    return sheet ? sheet.cells[0].map((v) => String(v ?? '')) : null;
  }
  /** The fake's sheets are all the user's. */
  targetProblem(): string | null {
    return null;
  }
  ensureHeaders(sheetId: number, wanted: string[]): string[] {
    const header = this.sheet(sheetId).cells[0];
    for (const name of wanted) if (!header.map(String).includes(name)) header.push(name);
    return header.map(String);
  }
  readColumns(sheetId: number, columns: number[]): string[][] {
    return this.sheet(sheetId)
      .cells.slice(1)
      .map((row) => columns.map((c) => String(row[c - 1] ?? '')));
  }
  readRows(sheetId: number, rows: number[]): string[][] {
    const cells = this.sheet(sheetId).cells;
    return rows.map((row) => (cells[row - 1] ?? []).map((v) => String(v ?? '')));
  }
  rowIds(sheetId: number): Map<string, number> {
    return new Map(this.sheet(sheetId).meta);
  }
  tagRows(sheetId: number, rows: number[], newId: () => string): Map<number, string> {
    const meta = this.sheet(sheetId).meta;
    const byRow = new Map<number, string>();
    for (const [id, row] of meta) byRow.set(row, id);
    const result = new Map<number, string>();
    for (const row of rows) {
      let id = byRow.get(row);
      if (!id) {
        id = newId();
        meta.set(id, row);
      }
      result.set(row, id);
    }
    return result;
  }
  untagRows(sheetId: number, ids: ReadonlySet<string>): void {
    const meta = this.sheets.get(sheetId)?.meta;
    for (const id of ids) meta?.delete(id);
  }
  /** Metadata characters other than row tags, per sheet (to test the budget). */
  otherMetadata = new Map<number, number>();
  metadataUse(sheetId: number): { sheet: number; spreadsheet: number } {
    const size = (id: number) =>
      (this.otherMetadata.get(id) ?? 0) +
      [...(this.sheets.get(id)?.meta.keys() ?? [])].reduce((sum, tag) => sum + ROW_TAG_KEY.length + tag.length, 0);
    return { sheet: size(sheetId), spreadsheet: [...this.sheets.keys()].reduce((sum, id) => sum + size(id), 0) };
  }
  /** Cells the spreadsheet holds (set by tests of the storage precondition). */
  cells = 0;
  cellsInUse(): number {
    return this.cells;
  }
  write(sheetId: number, cells: CellWrite[]): void {
    this.writes += 1;
    const sheet = this.sheet(sheetId);
    for (const cell of cells) {
      while (sheet.cells.length < cell.row) sheet.cells.push([]);
      if (cell.value !== undefined) {
        sheet.cells[cell.row - 1][cell.column - 1] = storedValue(cell.value);
        this.raw.set(`${sheetId}:${cell.row}:${cell.column}`, cell.value);
      }
      if (cell.note !== undefined) {
        if (cell.note === null) sheet.notes.delete(`${cell.row}:${cell.column}`);
        else sheet.notes.set(`${cell.row}:${cell.column}`, cell.note);
      }
    }
  }
  /** Inserts an empty row before `row`; metadata and notes below move down. */
  insertRow(sheetId: number, row: number): void {
    const sheet = this.sheet(sheetId);
    sheet.cells.splice(row - 1, 0, []);
    for (const [id, r] of sheet.meta) if (r >= row) sheet.meta.set(id, r + 1);
  }
  /** Sorts data rows by a column; `moveMeta` says whether row metadata travels with the values. */
  sortBy(sheetId: number, column: number, moveMeta: boolean, descending = false): void {
    const sheet = this.sheet(sheetId);
    const data = sheet.cells.slice(1).map((cells, i) => ({ cells, row: i + 2 }));
    data.sort(
      (a, b) =>
        String(a.cells[column - 1] ?? '').localeCompare(String(b.cells[column - 1] ?? '')) * (descending ? -1 : 1),
    );
    sheet.cells = [sheet.cells[0], ...data.map((d) => d.cells)];
    if (moveMeta) {
      const newRow = new Map<number, number>();
      data.forEach((d, i) => newRow.set(d.row, i + 2));
      for (const [id, r] of sheet.meta) sheet.meta.set(id, newRow.get(r) ?? r);
    }
  }
  deleteRow(sheetId: number, row: number): void {
    const sheet = this.sheet(sheetId);
    sheet.cells.splice(row - 1, 1);
    for (const [id, r] of [...sheet.meta]) {
      if (r === row) sheet.meta.delete(id);
      else if (r > row) sheet.meta.set(id, r - 1);
    }
  }
}

export type CreateFault =
  'unavailable' | 'ambiguous_created' | 'ambiguous_lost' | 'ambiguous_late' | 'insufficient' | 'validation';

/**
 * A research service in memory. Tasks advance one step per `advance()`: created -> in_progress (x2) -> done, or
 * failed when the brief contains "asdf". Faults are consumed one per create request, in order.
 */
export class FakeService implements ResearchClient {
  tasks: ResearchTask[] = [];
  createCalls = 0;
  getCalls = 0;
  listCalls = 0;
  faults: CreateFault[] = [];
  credits = 500;
  listFails = false;
  /** Creates that timed out on the client but reach the service later (`land()`). */
  inFlight: CreateTaskRequest[] = [];
  private steps = new Map<string, number>();
  constructor(private readonly clock: ManualClock) {}

  private make(request: CreateTaskRequest): ResearchTask {
    const iso = new Date(this.clock.now()).toISOString();
    const task: ResearchTask = {
      id: `task_${this.tasks.length + 1}`,
      created_at: iso,
      updated_at: iso,
      status: 'created',
      brief: request.brief,
      depth: request.depth ?? 'medium',
      output_schema: request.output_schema ?? null,
      iterations: 0,
      agents: 0,
      sources: 0,
      report: null,
      owner: { id: 'u1', email: 'pro@example.com' },
    };
    this.tasks.push(task);
    this.steps.set(task.id, 0);
    return task;
  }

  createTasks(requests: CreateTaskRequest[]): Array<Result<ResearchTask>> {
    return requests.map((request) => {
      this.createCalls += 1;
      const fault = this.faults.shift();
      if (fault === 'unavailable') return { ok: false, error: { kind: 'unavailable', status: 503 }, retries: 2 };
      if (fault === 'insufficient')
        return {
          ok: false,
          error: { kind: 'insufficient_credits', required: 50, available: 12, action: null },
          retries: 0,
        };
      if (fault === 'validation')
        return {
          ok: false,
          error: { kind: 'validation', detail: [{ loc: ['body', 'brief'], msg: 'too long', type: 'x' }] },
          retries: 0,
        };
      if (fault === 'ambiguous_lost')
        return { ok: false, error: { kind: 'ambiguous', cause: 'timeout', detail: 'timeout' }, retries: 0 };
      if (fault === 'ambiguous_late') {
        this.inFlight.push(request);
        return { ok: false, error: { kind: 'ambiguous', cause: 'timeout', detail: 'timeout' }, retries: 0 };
      }
      const task = this.make(request);
      if (fault === 'ambiguous_created')
        return { ok: false, error: { kind: 'ambiguous', cause: 'timeout', detail: 'timeout' }, retries: 0 };
      return { ok: true, value: { ...task }, status: 200, retries: 0 };
    });
  }

  /** Task ids this user may not read (403). */
  forbidden = new Set<string>();

  getTasks(ids: string[]): Array<Result<ResearchTask>> {
    this.getCalls += 1;
    return ids.map((id) => {
      if (this.forbidden.has(id)) return { ok: false, error: { kind: 'forbidden' }, retries: 0 };
      const task = this.tasks.find((t) => t.id === id);
      return task
        ? { ok: true, value: JSON.parse(JSON.stringify(task)), status: 200, retries: 0 }
        : { ok: false, error: { kind: 'not_found' }, retries: 0 };
    });
  }

  listTasks(query: ListTasksQuery): Result<ResearchTask[]> {
    this.listCalls += 1;
    if (this.listFails) return { ok: false, error: { kind: 'unavailable', status: 503 }, retries: 0 };
    // Like the service: only the tasks this user may read, newest first.
    const newest = this.tasks.filter((task) => !this.forbidden.has(task.id)).reverse();
    const offset = query.offset ?? 0;
    return {
      ok: true,
      value: newest.slice(offset, offset + (query.limit ?? 50)).map((task) => JSON.parse(JSON.stringify(task))),
      status: 200,
      retries: 0,
    };
  }

  listTaskPages(queries: ListTasksQuery[]): Array<Result<ResearchTask[]>> {
    return queries.map((query) => this.listTasks(query));
  }

  getUser(): Result<User> {
    return {
      ok: true,
      value: {
        user_id: 'u1',
        // The account the fakes' launches are paid from: its ticks send their queued creates.
        email: PAYER,
        available_credits: this.credits,
        organization_id: null,
        organization_name: null,
        organization_slug: null,
      },
      status: 200,
      retries: 0,
    };
  }

  land(): void {
    for (const request of this.inFlight.splice(0)) this.make(request);
  }

  /** Moves every unfinished task one step. */
  advance(): void {
    for (const task of this.tasks) {
      if (task.status === 'done' || task.status === 'failed') continue;
      const step = (this.steps.get(task.id) ?? 0) + 1;
      this.steps.set(task.id, step);
      if (/asdf/.test(task.brief)) {
        task.status = 'failed';
        task.failure_reason = 'No identifiable target. Suggestions: name a company or a domain.';
        continue;
      }
      if (step < 3) {
        task.status = 'in_progress';
        task.iterations = step;
        task.agents = step * 2;
        task.sources = step * 3;
        continue;
      }
      task.status = 'done';
      task.agents = 4;
      if (task.output_schema) {
        task.report = {
          kind: 'schema',
          fields: {
            employees: 120,
            segments: ['SMB', 'Enterprise'],
            hq: { value: 'Dublin', sources: ['https://a.example/1'], reasoning: 'Stated on the about page' },
          },
          degradation_reasons: [],
        };
      } else {
        task.report = {
          kind: 'markdown',
          markdown: /exhaustive/.test(task.brief)
            ? `# Long\n${'x'.repeat(60000)}`
            : `# Report on ${task.brief}\nSee [1].`,
          sources: [{ id: 1, url: 'https://source.example/1' }],
          degradation_reasons: /degraded/.test(task.brief) ? ['Early finalization'] : [],
        };
      }
    }
  }
}

/** Create permits over a document's properties and a task index of their own (create-permits.ts). */
export function memoryPermits(store = new MemoryStore(), tasks = new FakeTable()) {
  return documentCreatePermits(store, new TaskIndex(tasks));
}

let counter = 0;
export function idMaker(prefix = 'id'): () => string {
  return () => `${prefix}_${++counter}`;
}

/**
 * A research job's world on the fakes: one grid, service, ledger table and report table; each `deps()` opens the
 * stores over those tables, as a new execution does.
 */
export function jobWorld(clock = new ManualClock(), idPrefix = 'id') {
  const grid = new FakeGrid();
  const service = new FakeService(clock);
  const ledgerTable = new FakeTable();
  const reportTable = new FakeTable();
  const newId = idMaker(idPrefix);
  // The document's properties, where launches keep their authorisations (create-permits.ts).
  const permits = memoryPermits();
  const deps = (): PayingDeps => ({
    client: service,
    grid,
    permits,
    ledger: new LedgerStore(ledgerTable),
    reports: new ReportStore(reportTable),
    clock,
    newId,
    account: PAYER,
  });
  return { clock, grid, service, ledgerTable, reportTable, deps };
}

/** The account the fakes' launches are paid from. */
export const PAYER = 'ana@example.com';

/** A launch of `rows` of sheet `sheetId`: the brief "Research {Company}" at medium depth, no re-run or research again. */
export function launchInput(
  sheetId: number,
  rows: number[],
  mapping: OutputMapping,
  overrides: Partial<LaunchPlanInput> = {},
): LaunchPlanInput {
  return {
    sheetId,
    rows,
    template: 'Research {Company}',
    depth: 'medium',
    schema: null,
    mapping,
    rerun: false,
    again: false,
    ...overrides,
  };
}

/** A ledger record of row 2 of sheet 1, queued and never sent, with `overrides`. */
export function ledgerEntry(mapping: OutputMapping, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: 'e1',
    taskId: null,
    state: 'queued',
    row: { sheetId: 1, rowId: null, rowHint: 2, keyHeaders: [], keyValues: [] },
    brief: 'b',
    depth: 'medium',
    schema: null,
    mapping,
    iterations: 0,
    agents: 0,
    sources: 0,
    cost: 0,
    error: null,
    degradation: [],
    launchedAt: 0,
    sentAt: null,
    updatedAt: 0,
    finishedAt: null,
    written: false,
    shownStatus: '',
    detached: false,
    ...overrides,
  };
}
