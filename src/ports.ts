// Ports: the small interfaces through which logic modules reach the outside world (HTTP, key-value
// stores, cache, clock, lock). src/platform/ implements them over Apps Script services; tests use fakes.

/** One HTTP request as the service client builds it. `payload` is a JSON string when present. */
export interface HttpRequest {
  url: string;
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  headers: Record<string, string>;
  payload?: string;
}

/** A response that arrived (any status code). Header names are lower-case. */
export interface HttpResponse {
  ok: true;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * No response: the connection failed, timed out, or the platform refused the call (quota).
 * `maybeSent` is true when the request may have reached the server (timeout, dropped connection,
 * or a whole fetchAll batch that failed without saying which request broke it).
 */
export interface HttpFailure {
  ok: false;
  error: string;
  maybeSent: boolean;
  /** The platform's daily quota or permission refused the call: retrying now will not help. */
  fatal?: boolean;
  /** Refused before sending by the add-in's own daily request budget (src/platform/request-budget.ts). */
  budgetSpent?: boolean;
  /** With `budgetSpent`: when requests counted now leave the budget's window (epoch ms), so sending may go on. */
  retryAt?: number;
}

export type HttpOutcome = HttpResponse | HttpFailure;

/** Sends requests in parallel and returns one outcome per request, in order. Never throws. */
export interface HttpPort {
  fetchAll(requests: HttpRequest[]): HttpOutcome[];
}

/** String key-value store (PropertiesService-like). */
export interface KeyValueStore {
  /** The value as this execution knows it: it may answer from the execution's first read of the store. */
  get(key: string): string | null;
  /** The value as stored now: for values other executions change while this one runs (a counter, a job's state). */
  fresh(key: string): string | null;
  set(key: string, value: string): void;
  /** Several values in one call (PropertiesService's setProperties: one write of the daily quota, ~64 ms). */
  setAll(values: Record<string, string>): void;
  remove(key: string): void;
}

/** A KeyValueStore with a size limit (DocumentProperties: 500 KB): what it still takes, as far as this execution knows. */
export interface SizedStore extends KeyValueStore {
  bytesFree(): number;
  /** Bytes the keys that start with `prefix` take with their values (UTF-8), as far as this execution knows. */
  bytesUnder(prefix: string): number;
}

/** Expiring string cache (CacheService-like); entries may vanish early. */
export interface CachePort {
  getAll(keys: string[]): Record<string, string>;
  putAll(values: Record<string, string>, ttlSeconds: number): void;
  removeAll(keys: string[]): void;
}

/** Wall clock and blocking sleep (Utilities.sleep). */
export interface ClockPort {
  now(): number;
  sleep(ms: number): void;
}

/** Mutual exclusion between executions (LockService-like). */
export interface LockPort {
  tryLock(timeoutMs: number): boolean;
  release(): void;
}

/** The header row and data rows of a table read. */
export interface TableRead {
  header: unknown[];
  rows: unknown[][];
}

/** A hidden sheet's grid: data rows below one header row, addressed by 0-based index (src/platform/sheets/hidden-table.ts). */
export interface TableStorage {
  /** The header row and every data row, whole. */
  readAll(): TableRead;
  /** How many data rows the grid holds (its extent, read once per execution). */
  rowCount(): number;
  /** The header row alone. */
  readHeader(): unknown[];
  /** `count` columns from the 1-based column `first`, of the header row and of every data row (an index read). */
  readColumns(first: number, count: number): TableRead;
  /** The first cell of every data row (an index without reading whole rows). */
  readKeys(): string[];
  /** One data row. */
  readRow(index: number): unknown[];
  /** Whole data rows, in the order asked (read in runs of neighbours). */
  readRows(indices: number[]): unknown[][];
  /** Overwrites data rows (batched into contiguous runs by the adapter). */
  writeRows(rows: Array<{ index: number; values: Array<string | number> }>): void;
  /** Appends data rows at the end. */
  appendRows(rows: Array<Array<string | number>>): void;
  /** Replaces the header row. */
  writeHeader(values: string[]): void;
  /** Deletes data rows; the rows below move up. */
  deleteRows(indices: number[]): void;
  /** Makes the sheet `width` columns wide and no taller than its rows: no empty grid is kept (cells count). */
  fitGrid(width: number): void;
  /** Drops what this execution knows of the grid's extent (another writer changed its shape). */
  forget(): void;
}

/** A row a sealed table refused: changed outside the add-in (its 0-based index, and its cells as found). */
export interface RefusedRow {
  index: number;
  cells: unknown[];
}

/**
 * A table of the add-in's records in a hidden sheet, every row sealed (src/shared/storage/sealed-table.ts): whole-row
 * reads give back only rows the add-in wrote as it wrote them (others read as blank and are listed by `refused`).
 */
export interface TablePort extends Omit<TableStorage, 'readHeader' | 'forget'> {
  /** Rows the whole-row reads refused since the last readAll, readIndexed or readColumns. */
  refused(): RefusedRow[];
  /**
   * readAll, and what readColumns(first, count) gives (`index`: the same hints), from the one read: for a store that
   * picks the rows it takes by their index when reading every row costs less than reading the index and the rows apart.
   */
  readIndexed(first: number, count: number): TableRead & { index: TableRead };
}
