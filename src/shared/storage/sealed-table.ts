// A hidden table whose rows are sealed (seal.ts): the one way the add-in keeps records in its hidden sheets, so every
// store of them, present and future, reads back only rows the add-in wrote as it wrote them. Over the sheet's grid
// (TableStorage), a seal column comes first and the table's own columns follow, shifted by one. Whole-row reads
// (readAll, readIndexed, readRow, readRows) check each row's seal: a row that fails reads as blank and is listed by
// `refused()`, with its cells as found, for its store to report; nothing is acted on for it. Index reads (readColumns,
// readKeys, readIndexed's index) read a few columns of every row and cannot be checked without the rest of the row:
// they are hints a store uses to choose the rows it takes, never to act on. The layout is read from the header row
// once per execution, after a whole read as before any other (docs/design/performance.md, the panel poll). A table of
// an earlier version (no seal column) is read as it is while the document trusts it (Sealer.trustsUnsealed), and
// sealed by the document's first sealed write; any other table without the seal column (recreated by hand) refuses
// every row. Pure.
import type { RefusedRow, TablePort, TableRead, TableStorage } from '../../ports';
import { SEAL_HEADER, type Sealer } from './seal';

type Layout = 'sealed' | 'trusted' | 'refused';

export class SealedTable implements TablePort {
  private layout: Layout | null = null;
  /** The sealer's adoptions when the layout was read (an adoption of this execution rewrote the grid). */
  private seenAdoptions = -1;
  private refusals = new Map<number, RefusedRow>();

  /** `grid`: the sheet, made with the seal column first (sealedHeaders); `headers`: the table's own columns. */
  constructor(
    private readonly grid: TableStorage,
    private readonly name: string,
    private readonly sealer: Sealer,
    private readonly headers: readonly string[],
  ) {}

  /** The grid's header row for a table of `headers`. */
  static sealedHeaders(headers: readonly string[]): string[] {
    return [SEAL_HEADER, ...headers];
  }

  /** Rows the whole-row reads refused since the last readAll, readIndexed or readColumns (changed outside). */
  refused(): RefusedRow[] {
    return [...this.refusals.values()].sort((a, b) => a.index - b.index);
  }

  private layoutOf(header: readonly unknown[]): Layout {
    if (String(header[0] ?? '') === SEAL_HEADER) return 'sealed';
    return this.sealer.trustsUnsealed(this.name) ? 'trusted' : 'refused';
  }

  /** Forgets the layout and the grid's extent when an adoption of this execution changed the grid's shape. */
  private followAdoptions(): void {
    if (this.seenAdoptions === this.sealer.adoptions) return;
    if (this.seenAdoptions >= 0) this.grid.forget();
    this.seenAdoptions = this.sealer.adoptions;
    this.layout = null;
  }

  /** The layout, read from the header when this execution has not read it since the grid last changed shape. */
  private currentLayout(): Layout {
    this.followAdoptions();
    this.layout ??= this.layoutOf(this.grid.readHeader());
    return this.layout;
  }

  /** A whole grid row as the table's row: its cells when its seal holds (or the table is trusted), else blank. */
  private checked(row: readonly unknown[], index: number, layout: Layout): unknown[] {
    if (layout === 'trusted') return [...row];
    const empty = (cell: unknown) => cell === '' || cell === null || cell === undefined;
    if (row.every(empty)) return [];
    const cells = layout === 'sealed' ? row.slice(1) : [...row];
    if (layout === 'sealed' && this.sealer.verify(this.name, cells, row[0])) return cells;
    this.refusals.set(index, { index, cells });
    return [];
  }

  rowCount(): number {
    this.followAdoptions();
    return this.grid.rowCount();
  }

  readAll(): TableRead {
    const { header, rows } = this.readIndexed(1, 0);
    return { header, rows };
  }

  /** readAll, and from the same read the `count` columns from `first` as readColumns gives them (blank if refused). */
  readIndexed(first: number, count: number): TableRead & { index: TableRead } {
    this.refusals.clear();
    const { header, rows } = this.grid.readAll();
    const layout = this.currentLayout();
    // The grid's columns readColumns reads (after the seal column when sealed).
    const from = layout === 'sealed' ? first : first - 1;
    const cut = (row: unknown[]) => row.slice(from, from + count);
    const index =
      count > 0 && header.length > from
        ? { header: cut(header), rows: rows.map((row) => (layout === 'refused' ? cut(row).map(() => '') : cut(row))) }
        : { header: [], rows: [] };
    return {
      header: layout === 'sealed' ? header.slice(1) : header,
      rows: rows.map((row, at) => this.checked(row, at, layout)),
      index,
    };
  }

  readColumns(first: number, count: number): TableRead {
    this.refusals.clear();
    const layout = this.currentLayout();
    if (layout !== 'sealed') {
      const read = this.grid.readColumns(first, count);
      return layout === 'trusted' ? read : { header: read.header, rows: read.rows.map((row) => row.map(() => '')) };
    }
    return this.grid.readColumns(first + 1, count);
  }

  readKeys(): string[] {
    return this.readColumns(1, 1).rows.map((row) => String(row[0] ?? ''));
  }

  readRow(index: number): unknown[] {
    return this.readRows([index])[0];
  }

  readRows(indices: number[]): unknown[][] {
    const layout = this.currentLayout();
    return this.grid.readRows(indices).map((row, i) => (row.length === 0 ? [] : this.checked(row, indices[i], layout)));
  }

  /**
   * Makes the grid sealed before a write: the document's key (adopting an earlier version's tables), the header. A
   * sheet without the seal column (made by hand, or its header cleared) keeps its rows, refused; ours are sealed.
   */
  private sealedGrid(): void {
    this.sealer.ensure();
    if (this.currentLayout() === 'sealed') return;
    this.grid.writeHeader(SealedTable.sealedHeaders(this.headers));
    this.layout = 'sealed';
  }

  private sealedRow(values: ReadonlyArray<string | number>): Array<string | number> {
    return [this.sealer.seal(this.name, values), ...values];
  }

  writeRows(rows: Array<{ index: number; values: Array<string | number> }>): void {
    if (rows.length === 0) return;
    this.sealedGrid();
    this.grid.writeRows(rows.map(({ index, values }) => ({ index, values: this.sealedRow(values) })));
  }

  appendRows(rows: Array<Array<string | number>>): void {
    if (rows.length === 0) return;
    this.sealedGrid();
    this.grid.appendRows(rows.map((values) => this.sealedRow(values)));
  }

  writeHeader(values: string[]): void {
    this.sealer.ensure();
    this.grid.writeHeader(SealedTable.sealedHeaders(values));
    this.layout = 'sealed';
  }

  deleteRows(indices: number[]): void {
    this.grid.deleteRows(indices);
    this.refusals.clear();
  }

  fitGrid(width: number): void {
    this.grid.fitGrid(width + 1);
  }
}
