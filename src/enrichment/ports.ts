// The ports the enrichment job runs on (EnrichDeps) and those it needs beyond src/ports.ts: the sheet it works on
// (whole-grid, header, rectangle and formula reads, rectangular writes of values and notes, committing them), the
// enrichment dates, and the continuation trigger. adapters/sheets.ts and job/trigger-adapter.ts implement them over Apps Script; tests use fakes.
import type { CachePort, ClockPort, LockPort, SizedStore } from '../ports';
import type { CellValue } from '../shared/cell-values';
import type { Area } from './sheet/layout';
import type { LookupClient } from './job/lookups';

export interface EnrichSheet {
  readonly id: number;
  readonly name: string;
  /** Why new work may not write into this sheet (the add-in's own, or hidden), or null. */
  readonly targetProblem: string | null;
  /** Values from A1 to the last row and column with content (one read). */
  readValues(): unknown[][];
  /** The last row with content (one read). */
  lastRow(): number;
  /** Row 1 across every column of the sheet (one read). */
  readHeader(): unknown[];
  /** Values of a rectangle (one read). */
  readArea(area: Area): unknown[][];
  /** Formulas of a rectangle ('' for cells without one; one read). */
  readFormulas(area: Area): string[][];
  /** Writes a rectangle of values (one write). */
  writeValues(row: number, column: number, values: Array<Array<CellValue | Date>>): void;
  /** Sets the notes of a rectangle (one write). */
  writeNotes(row: number, column: number, notes: string[][]): void;
  /** Adds columns when the sheet has fewer than `columns`. */
  ensureColumns(columns: number): void;
  /** Inserts an empty row above row 1 (for a header row). */
  insertRowAtTop(): void;
  /** Commits the writes made so far (SpreadsheetApp.flush: a later crash cannot lose them). */
  commit(): void;
}

export interface SheetAccess {
  /** The active sheet and the selected area. */
  active(): { sheet: EnrichSheet; selection: Area };
  /** A sheet of this spreadsheet by id, or null when it was deleted. */
  byId(id: number): EnrichSheet | null;
}

/** What the dates sheet keeps of a domain on a sheet: when it was last enriched, and what was written for it. */
export interface EnrichedDomain {
  at: number;
  /** Field key -> fingerprint of the value the add-in last wrote for it (refresh-changes.ts); {} before they were kept. */
  written: Record<string, string>;
}

/**
 * When each domain of a sheet was last enriched (epoch ms) and the fingerprints of what was written, kept in a hidden
 * sheet keyed by sheet and domain, so it survives sorting and inserted rows and uses no developer metadata. Each call
 * is one read (and one write).
 */
export interface EnrichmentDates {
  read(sheetId: number): Map<string, EnrichedDomain>;
  /**
   * Reads what `record` will need, so a chunk reads before it writes: Apps Script commits buffered writes before any
   * read, which costs as much as several reads.
   */
  prepare(): void;
  /** Dates the domains `at`, and merges the fingerprints of what was written for each (field key -> fingerprint). */
  record(sheetId: number, domains: ReadonlyMap<string, Record<string, string>>, at: number): void;
}

/** The job's continuation when no panel drives it: the document's shared timer runs the job once its wake is due. */
export interface ContinuationPort {
  /**
   * Makes sure the shared timer serves the job (it lists the user's triggers, and creates the timer when there is
   * none): the timer's trigger id, and why no timer can continue the job with the panel closed (Google refused one
   * more trigger), or null. The wake time itself is kept in the job's record.
   */
  arm(): { timer: string | null; problem: string | null };
  /** Drops the job's claim on the timer (the job finished, was cancelled or paused). */
  cancel(): void;
}

export interface EnrichDeps {
  /** DocumentProperties: the job's record and the per-sheet choices. */
  store: SizedStore;
  sheets: SheetAccess;
  /** When each domain was last enriched (read by "Refresh data older than N days"). */
  dates: EnrichmentDates;
  cache: CachePort;
  /** Holds the execution's 6-hour cache writes (the lookups, the learned throughput) until a save flushes them. */
  cacheWrites: { hold(): void; flush(): void };
  clock: ClockPort;
  lock: LockPort;
  continuation: ContinuationPort;
  client: () => LookupClient;
  newId: () => string;
  /** The acting user's daily request budget: used and allowed today. */
  requests: () => { used: number; limit: number };
  /** Counts a chunk's requests in the budget at once, and gives back what it did not send (RequestCounter). */
  requestsAhead: { reserve(count: number): void; release(): void };
}
