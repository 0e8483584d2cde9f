// The emulator's Sheet class: ranges, dimensions, inserted and deleted rows and columns, sorting, metadata.
import { GasError, Msg } from '../errors';
import type { FacadeClass } from '../realm';
import { clearContent } from './model';
import { checkCellLength, intArgs, signatureError, writeScriptValue, type SheetImpl } from './scope';
import type { Scope } from './scope';

export function defineSheet(S: Scope): void {
  const {
    exec,
    model,
    tz,
    read,
    write,
    wrapSheet,
    wrapSpreadsheet,
    rangeFromRect,
    rangeFromA1,
    metadataArgs,
    wrapMetadata,
    newFinder,
    activeRange,
    setActiveRange,
    classes,
  } = S;
  const rowsOp = (impl: SheetImpl, method: string, op: () => void) => {
    write('Sheet', method);
    op();
    return wrapSheet(impl.sheet);
  };
  const Sheet: FacadeClass<SheetImpl> = exec.define<SheetImpl>('Sheet', {
    getName() {
      return this.sheet.name;
    },
    getSheetName() {
      return this.sheet.name;
    },
    getSheetId() {
      return this.sheet.sheetId;
    },
    getIndex() {
      return this.sheet.index;
    },
    getParent() {
      return wrapSpreadsheet();
    },
    getMaxRows() {
      return this.sheet.maxRows;
    },
    getMaxColumns() {
      return this.sheet.maxColumns;
    },
    isSheetHidden() {
      return this.sheet.hidden;
    },
    getFrozenRows() {
      return this.sheet.frozenRows;
    },
    getFrozenColumns() {
      return this.sheet.frozenColumns;
    },
    getRange(...args: unknown[]) {
      if (typeof args[0] === 'string' && args.length === 1) return rangeFromA1(this.sheet, args[0]);
      if (args.length < 2 || args.length > 4) throw signatureError('Sheet', 'getRange', args);
      const [row, column, numRows = 1, numColumns = 1] = intArgs('Sheet', 'getRange', args, args.length);
      return rangeFromRect(this.sheet, { row, column, numRows, numColumns });
    },
    getLastRow() {
      read('Sheet', 'getLastRow');
      return this.sheet.lastRow();
    },
    getLastColumn() {
      read('Sheet', 'getLastColumn');
      return this.sheet.lastColumn();
    },
    getDataRange() {
      read('Sheet', 'getDataRange');
      return rangeFromRect(this.sheet, this.sheet.dataRect());
    },
    activate() {
      model.activeSheet = this.sheet;
      return wrapSheet(this.sheet);
    },
    getActiveRange() {
      return activeRange(this.sheet);
    },
    setActiveRange(range: unknown) {
      return setActiveRange(range);
    },
    getDeveloperMetadata() {
      read('Sheet', 'getDeveloperMetadata');
      return model.metadata
        .filter((m) => m.location.type === 'SHEET' && m.location.sheet === this.sheet)
        .map(wrapMetadata);
    },
    createDeveloperMetadataFinder() {
      return newFinder({ sheet: this.sheet });
    },
    addDeveloperMetadata(...args: unknown[]) {
      write('Sheet', 'addDeveloperMetadata');
      const { key, value, visibility } = metadataArgs(args);
      model.addMetadata(key, value, visibility, { type: 'SHEET', sheet: this.sheet });
      return wrapSheet(this.sheet);
    },
    setName(name: string) {
      write('Sheet', 'setName');
      const next = String(name);
      if (model.sheets.some((s) => s !== this.sheet && s.name.toLowerCase() === next.toLowerCase()))
        throw new GasError(Msg.sheetNameExists(next));
      this.sheet.name = next;
      return wrapSheet(this.sheet);
    },
    insertRowBefore(before: number) {
      const [at] = intArgs('Sheet', 'insertRowBefore', [before], 1);
      return rowsOp(this, 'insertRowBefore', () => this.sheet.insertRows(at, 1));
    },
    insertRowAfter(after: number) {
      const [at] = intArgs('Sheet', 'insertRowAfter', [after], 1);
      return rowsOp(this, 'insertRowAfter', () => this.sheet.insertRows(at + 1, 1));
    },
    insertRowsBefore(before: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertRowsBefore', [before, howMany], 2);
      return rowsOp(this, 'insertRowsBefore', () => this.sheet.insertRows(at, n));
    },
    insertRowsAfter(after: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertRowsAfter', [after, howMany], 2);
      return rowsOp(this, 'insertRowsAfter', () => this.sheet.insertRows(at + 1, n));
    },
    insertRows(rowIndex: number, numRows?: number) {
      const [at] = intArgs('Sheet', 'insertRows', [rowIndex], 1);
      write('Sheet', 'insertRows');
      this.sheet.insertRows(at, numRows === undefined ? 1 : Number(numRows));
    },
    deleteRow(row: number) {
      const [at] = intArgs('Sheet', 'deleteRow', [row], 1);
      return rowsOp(this, 'deleteRow', () => this.sheet.deleteRows(at, 1));
    },
    deleteRows(row: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'deleteRows', [row, howMany], 2);
      write('Sheet', 'deleteRows');
      this.sheet.deleteRows(at, n);
    },
    insertColumnBefore(before: number) {
      const [at] = intArgs('Sheet', 'insertColumnBefore', [before], 1);
      return rowsOp(this, 'insertColumnBefore', () => this.sheet.insertColumns(at, 1));
    },
    insertColumnAfter(after: number) {
      const [at] = intArgs('Sheet', 'insertColumnAfter', [after], 1);
      return rowsOp(this, 'insertColumnAfter', () => this.sheet.insertColumns(at + 1, 1));
    },
    insertColumnsBefore(before: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertColumnsBefore', [before, howMany], 2);
      return rowsOp(this, 'insertColumnsBefore', () => this.sheet.insertColumns(at, n));
    },
    insertColumnsAfter(after: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'insertColumnsAfter', [after, howMany], 2);
      return rowsOp(this, 'insertColumnsAfter', () => this.sheet.insertColumns(at + 1, n));
    },
    insertColumns(columnIndex: number, numColumns?: number) {
      const [at] = intArgs('Sheet', 'insertColumns', [columnIndex], 1);
      write('Sheet', 'insertColumns');
      this.sheet.insertColumns(at, numColumns === undefined ? 1 : Number(numColumns));
    },
    deleteColumn(column: number) {
      const [at] = intArgs('Sheet', 'deleteColumn', [column], 1);
      return rowsOp(this, 'deleteColumn', () => this.sheet.deleteColumns(at, 1));
    },
    deleteColumns(column: number, howMany: number) {
      const [at, n] = intArgs('Sheet', 'deleteColumns', [column, howMany], 2);
      write('Sheet', 'deleteColumns');
      this.sheet.deleteColumns(at, n);
    },
    appendRow(values: unknown) {
      write('Sheet', 'appendRow');
      if (!Array.isArray(values)) throw signatureError('Sheet', 'appendRow', [values]);
      values.forEach(checkCellLength);
      const row = this.sheet.lastRow() + 1;
      if (row > this.sheet.maxRows) this.sheet.insertRows(this.sheet.maxRows + 1, 1);
      if (values.length > this.sheet.maxColumns)
        this.sheet.insertColumns(this.sheet.maxColumns + 1, values.length - this.sheet.maxColumns);
      values.forEach((value, c) => writeScriptValue(this.sheet.ensureCell(row, c + 1), value, tz()));
      model.recordEdit(this.sheet, { row, column: 1, numRows: 1, numColumns: Math.max(1, values.length) });
      return wrapSheet(this.sheet);
    },
    clear() {
      write('Sheet', 'clear');
      this.sheet.forEachCell((cell) => {
        clearContent(cell);
        delete cell.numberFormat;
      });
      model.recordEdit(this.sheet, {
        row: 1,
        column: 1,
        numRows: this.sheet.maxRows,
        numColumns: this.sheet.maxColumns,
      });
      return wrapSheet(this.sheet);
    },
    clearContents() {
      write('Sheet', 'clearContents');
      this.sheet.forEachCell(clearContent);
      model.recordEdit(this.sheet, {
        row: 1,
        column: 1,
        numRows: this.sheet.maxRows,
        numColumns: this.sheet.maxColumns,
      });
      return wrapSheet(this.sheet);
    },
    clearNotes() {
      write('Sheet', 'clearNotes');
      this.sheet.forEachCell((cell) => delete cell.note);
      return wrapSheet(this.sheet);
    },
    hideSheet() {
      write('Sheet', 'hideSheet');
      this.sheet.hidden = true;
      return wrapSheet(this.sheet);
    },
    showSheet() {
      write('Sheet', 'showSheet');
      this.sheet.hidden = false;
      return wrapSheet(this.sheet);
    },
    setFrozenRows(rows: number) {
      write('Sheet', 'setFrozenRows');
      this.sheet.frozenRows = Number(rows);
    },
    setFrozenColumns(columns: number) {
      write('Sheet', 'setFrozenColumns');
      this.sheet.frozenColumns = Number(columns);
    },
    sort(columnPosition: number, ascending?: boolean) {
      write('Sheet', 'sort');
      const first = this.sheet.frozenRows + 1;
      const last = this.sheet.lastRow();
      if (last >= first) {
        this.sheet.sortRows({ row: first, column: 1, numRows: last - first + 1, numColumns: this.sheet.maxColumns }, [
          { column: Number(columnPosition), ascending: ascending !== false },
        ]);
      }
      return wrapSheet(this.sheet);
    },
    ...Object.fromEntries(
      [
        'autoResizeColumn',
        'autoResizeColumns',
        'setColumnWidth',
        'setColumnWidths',
        'setRowHeight',
        'setRowHeights',
        'hideColumns',
        'showColumns',
        'hideRows',
        'showRows',
        'setTabColor',
      ].map((name) => [
        name,
        function (this: SheetImpl) {
          write('Sheet', name);
          return wrapSheet(this.sheet);
        },
      ]),
    ),
  });
  classes.Sheet = Sheet;
}
