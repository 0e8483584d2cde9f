// An in-memory hidden sheet's grid (TableStorage) that stores cells as Sheets would (the adapter's safeText, then
// Sheets' typed-input parsing) and counts reads, cells read and writes: the research ledger and report store's tests
// and the records sheet's use it, as a TablePort that refuses nothing or under a SealedTable (sealedFakeTable).
import { createHmac, randomBytes } from 'node:crypto';
import type { RefusedRow, TablePort, TableRead, TableStorage } from '../../src/ports';
import { Sealer } from '../../src/shared/storage/seal';
import { SealedTable } from '../../src/shared/storage/sealed-table';
import { safeText } from '../../src/shared/cell-values';
import { storedValue } from './typed-input';
import { RECORDS_HEADERS, SheetRecordStore, type RecordStores } from '../../src/shared/storage/record-sheet';
import { MemoryStore } from './ports';

/** The hidden-table adapter writes through safeText (cut at Sheets' 50,000-character cell limit, text prefix). */
const fitCell = (value: string | number) => storedValue(typeof value === 'string' ? safeText(value) : value);

export class FakeTable implements TablePort, TableStorage {
  header: unknown[];
  rows: Array<Array<string | number>> = [];
  reads = 0;
  writes = 0;
  /** Characters of the cells the reads returned. */
  charsRead = 0;
  constructor(header: readonly unknown[] = []) {
    this.header = [...header];
  }
  private counted<T extends unknown[][]>(rows: T): T {
    this.reads += 1;
    for (const row of rows) for (const cell of row) this.charsRead += String(cell ?? '').length;
    return rows;
  }
  readAll(): TableRead {
    return { header: [...this.header], rows: this.counted(this.rows.map((r) => [...r])) };
  }
  rowCount(): number {
    return this.rows.length;
  }
  readIndexed(first: number, count: number): TableRead & { index: TableRead } {
    const whole = this.readAll();
    const cut = (row: unknown[]) => row.slice(first - 1, first - 1 + count);
    return { ...whole, index: { header: cut(this.header), rows: whole.rows.map(cut) } };
  }
  readHeader(): unknown[] {
    return [...this.header];
  }
  forget(): void {}
  refused(): RefusedRow[] {
    return [];
  }
  readColumns(first: number, count: number): TableRead {
    return {
      header: this.header.slice(first - 1, first - 1 + count),
      rows: this.counted(this.rows.map((r) => r.slice(first - 1, first - 1 + count))),
    };
  }
  writeRows(rows: Array<{ index: number; values: Array<string | number> }>): void {
    this.writes += 1;
    for (const { index, values } of rows) this.rows[index] = values.map(fitCell);
  }
  readKeys(): string[] {
    return this.counted(this.rows.map((r) => [r[0]])).map((r) => String(r[0] ?? ''));
  }
  readRow(index: number): unknown[] {
    return this.readRows([index])[0];
  }
  readRows(indices: number[]): unknown[][] {
    return this.counted(indices.map((index) => [...(this.rows[index] ?? [])]));
  }
  appendRows(rows: Array<Array<string | number>>): void {
    this.writes += 1;
    this.rows.push(...rows.map((r) => r.map(fitCell)));
  }
  writeHeader(values: string[]): void {
    this.writes += 1;
    this.header = [...values];
  }
  deleteRows(indices: number[]): void {
    this.writes += 1;
    const gone = new Set(indices);
    this.rows = this.rows.filter((_, index) => !gone.has(index));
  }
  /** The width fitGrid last set. */
  width: number | null = null;
  fitGrid(width: number): void {
    this.width = width;
  }
}

/** The records sheet over a FakeTable, with an empty DocumentProperties store (where older versions kept records). */
export function memoryRecordStores(): RecordStores & {
  table: FakeTable;
  records: SheetRecordStore;
  properties: MemoryStore;
} {
  const table = new FakeTable(RECORDS_HEADERS);
  const properties = new MemoryStore();
  return { table, records: new SheetRecordStore(table, properties), properties };
}

/** HMAC-SHA-256 cut to 16 bytes, as src/platform/sealing.ts computes it with Utilities. */
export function testMac(key: string, message: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(message, 'utf8')
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** A document's sealer over `store` (its properties), with no earlier version's tables. */
export function testSealer(store: MemoryStore = new MemoryStore()): Sealer {
  return new Sealer({
    store,
    mac: testMac,
    newSecret: () => randomBytes(32).toString('base64url'),
    existingTables: () => [],
    adoptLegacy: () => undefined,
  });
}

/** A sealed table over a FakeTable grid (`grid`, to edit as another editor would), sealed by `sealer`. */
export function sealedFakeTable(
  name: string,
  headers: readonly string[],
  sealer: Sealer = testSealer(),
): { table: SealedTable; grid: FakeTable } {
  const grid = new FakeTable(SealedTable.sealedHeaders(headers));
  return { table: new SealedTable(grid, name, sealer, headers), grid };
}
