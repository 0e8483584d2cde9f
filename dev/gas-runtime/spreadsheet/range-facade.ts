// The emulator's Range class: values, formulas, notes, formats, rich text, sorting, developer metadata.
import { GasError, Msg } from '../errors';
import type { FacadeClass } from '../realm';
import { rectA1 } from './a1';
import { clearContent, type MetadataLocation } from './model';
import { GENERAL_FORMAT, displayValue } from './values';
import {
  checkCellLength,
  checkGrid,
  intArgs,
  metadataInScope,
  signatureError,
  writeScriptValue,
  type RangeImpl,
} from './scope';
import type { Scope } from './scope';

export function defineRange(S: Scope): void {
  const {
    exec,
    model,
    tz,
    read,
    write,
    richText,
    wrapRange,
    wrapSheet,
    cells,
    top,
    grid,
    richOf,
    rangeFromRect,
    metadataArgs,
    sortSpecs,
    wrapMetadata,
    newFinder,
    classes,
  } = S;
  const Range: FacadeClass<RangeImpl> = exec.define<RangeImpl>('Range', {
    getRow() {
      return this.rect.row;
    },
    getRowIndex() {
      return this.rect.row;
    },
    getColumn() {
      return this.rect.column;
    },
    getNumRows() {
      return this.rect.numRows;
    },
    getNumColumns() {
      return this.rect.numColumns;
    },
    getHeight() {
      return this.rect.numRows;
    },
    getWidth() {
      return this.rect.numColumns;
    },
    getLastRow() {
      return this.rect.row + this.rect.numRows - 1;
    },
    getLastColumn() {
      return this.rect.column + this.rect.numColumns - 1;
    },
    getGridId() {
      return this.sheet.sheetId;
    },
    getA1Notation() {
      const r = this.rect;
      if (this.wholeRows && !this.wholeColumns) return `${r.row}:${r.row + r.numRows - 1}`;
      if (this.wholeColumns && !this.wholeRows) return rectA1(r).replace(/\d+/g, '');
      return rectA1(r);
    },
    getSheet() {
      return wrapSheet(this.sheet);
    },
    getCell(row: number, column: number) {
      const [r, c] = intArgs('Range', 'getCell', [row, column], 2);
      if (r < 1 || c < 1 || r > this.rect.numRows || c > this.rect.numColumns) throw new GasError(Msg.outsideSheet);
      return rangeFromRect(this.sheet, {
        row: this.rect.row + r - 1,
        column: this.rect.column + c - 1,
        numRows: 1,
        numColumns: 1,
      });
    },
    offset(...args: unknown[]) {
      const [dr, dc] = intArgs('Range', 'offset', args, 2);
      const numRows = args.length >= 3 ? Number(args[2]) : this.rect.numRows;
      const numColumns = args.length >= 4 ? Number(args[3]) : this.rect.numColumns;
      return rangeFromRect(this.sheet, { row: this.rect.row + dr, column: this.rect.column + dc, numRows, numColumns });
    },
    activate() {
      model.activeSheet = this.sheet;
      model.selection = { sheet: this.sheet, rect: { ...this.rect } };
      return wrapRange(this);
    },
    // reads
    getValue() {
      read('Range', 'getValue');
      return top(this)?.value ?? '';
    },
    getValues() {
      read('Range', 'getValues');
      return grid(this, (cell) => cell?.value ?? '');
    },
    getDisplayValue() {
      read('Range', 'getDisplayValue');
      const cell = top(this);
      return cell ? displayValue(cell.value, cell.numberFormat, tz()) : '';
    },
    getDisplayValues() {
      read('Range', 'getDisplayValues');
      return grid(this, (cell) => (cell ? displayValue(cell.value, cell.numberFormat, tz()) : ''));
    },
    getFormula() {
      read('Range', 'getFormula');
      return top(this)?.formula ?? '';
    },
    getFormulas() {
      read('Range', 'getFormulas');
      return grid(this, (cell) => cell?.formula ?? '');
    },
    getNote() {
      read('Range', 'getNote');
      return top(this)?.note ?? '';
    },
    getNotes() {
      read('Range', 'getNotes');
      return grid(this, (cell) => cell?.note ?? '');
    },
    getRichTextValue() {
      read('Range', 'getRichTextValue');
      return richOf(top(this));
    },
    getRichTextValues() {
      read('Range', 'getRichTextValues');
      return grid(this, richOf);
    },
    getNumberFormat() {
      read('Range', 'getNumberFormat');
      return top(this)?.numberFormat ?? GENERAL_FORMAT;
    },
    getNumberFormats() {
      read('Range', 'getNumberFormats');
      return grid(this, (cell) => cell?.numberFormat ?? GENERAL_FORMAT);
    },
    isBlank() {
      read('Range', 'isBlank');
      return grid(this, (cell) => !cell || (cell.value === '' && cell.formula === undefined)).every((line) =>
        line.every(Boolean),
      );
    },
    getBackground() {
      read('Range', 'getBackground');
      return '#ffffff';
    },
    getDeveloperMetadata() {
      read('Range', 'getDeveloperMetadata');
      return model.metadata
        .filter((m) => metadataInScope(m, { sheet: this.sheet, rect: this.rect }, false))
        .map(wrapMetadata);
    },
    createDeveloperMetadataFinder() {
      return newFinder({ sheet: this.sheet, rect: this.rect });
    },
    // writes
    setValue(value: unknown) {
      write('Range', 'setValue');
      checkCellLength(value);
      cells(this, (cell) => writeScriptValue(cell, value, tz()));
      return wrapRange(this);
    },
    setValues(values: unknown) {
      write('Range', 'setValues');
      const rows = checkGrid('Range', 'setValues', values, this.rect);
      rows.forEach((line) => line.forEach(checkCellLength));
      cells(this, (cell, r, c) => writeScriptValue(cell, rows[r - this.rect.row][c - this.rect.column], tz()));
      return wrapRange(this);
    },
    setFormula(formula: string) {
      write('Range', 'setFormula');
      const text = String(formula);
      checkCellLength(text);
      cells(this, (cell) => writeScriptValue(cell, text.startsWith('=') ? text : `=${text}`, tz()));
      return wrapRange(this);
    },
    setFormulas(formulas: unknown) {
      write('Range', 'setFormulas');
      const rows = checkGrid('Range', 'setFormulas', formulas, this.rect);
      rows.forEach((line) => line.forEach(checkCellLength));
      cells(this, (cell, r, c) => {
        const f = String(rows[r - this.rect.row][c - this.rect.column] ?? '');
        writeScriptValue(cell, f === '' ? '' : f.startsWith('=') ? f : `=${f}`, tz());
      });
      return wrapRange(this);
    },
    setNote(note: unknown) {
      write('Range', 'setNote');
      cells(this, (cell) => {
        if (note === null || note === undefined || note === '') delete cell.note;
        else cell.note = String(note);
      });
      return wrapRange(this);
    },
    setNotes(notes: unknown) {
      write('Range', 'setNotes');
      const rows = checkGrid('Range', 'setNotes', notes, this.rect);
      cells(this, (cell, r, c) => {
        const note = rows[r - this.rect.row][c - this.rect.column];
        if (note === null || note === undefined || note === '') delete cell.note;
        else cell.note = String(note);
      });
      return wrapRange(this);
    },
    clearNote() {
      write('Range', 'clearNote');
      cells(this, (cell) => delete cell.note);
      return wrapRange(this);
    },
    setRichTextValue(value: unknown) {
      write('Range', 'setRichTextValue');
      const data = richText.dataOf(value);
      if (!data) throw signatureError('Range', 'setRichTextValue', [value]);
      checkCellLength(data.text);
      cells(this, (cell) => {
        clearContent(cell);
        cell.value = data.text;
        cell.richText = { text: data.text, runs: data.runs.map((r) => ({ ...r })) };
      });
      return wrapRange(this);
    },
    setRichTextValues(values: unknown) {
      write('Range', 'setRichTextValues');
      const rows = checkGrid('Range', 'setRichTextValues', values, this.rect);
      const datas = rows.map((line) => line.map((v) => (v === null ? null : richText.dataOf(v))));
      datas.forEach((line, r) =>
        line.forEach((d, c) => {
          if (d === undefined) throw signatureError('Range', 'setRichTextValues', [rows[r][c]]);
          if (d) checkCellLength(d.text);
        }),
      );
      cells(this, (cell, r, c) => {
        const data = datas[r - this.rect.row][c - this.rect.column];
        clearContent(cell);
        if (data) {
          cell.value = data.text;
          cell.richText = { text: data.text, runs: data.runs.map((run) => ({ ...run })) };
        }
      });
      return wrapRange(this);
    },
    setNumberFormat(format: string) {
      write('Range', 'setNumberFormat');
      cells(this, (cell) => (cell.numberFormat = String(format)));
      return wrapRange(this);
    },
    setNumberFormats(formats: unknown) {
      write('Range', 'setNumberFormats');
      const rows = checkGrid('Range', 'setNumberFormats', formats, this.rect);
      cells(this, (cell, r, c) => (cell.numberFormat = String(rows[r - this.rect.row][c - this.rect.column])));
      return wrapRange(this);
    },
    clear(options?: { contentsOnly?: boolean; formatOnly?: boolean }) {
      write('Range', 'clear');
      cells(this, (cell) => {
        if (!options?.formatOnly) clearContent(cell);
        if (!options?.contentsOnly) delete cell.numberFormat;
      });
      return wrapRange(this);
    },
    clearContent() {
      write('Range', 'clearContent');
      cells(this, clearContent);
      return wrapRange(this);
    },
    clearFormat() {
      write('Range', 'clearFormat');
      cells(this, (cell) => delete cell.numberFormat);
      return wrapRange(this);
    },
    sort(spec: unknown) {
      write('Range', 'sort');
      this.sheet.sortRows(this.rect, sortSpecs(this, spec));
      return wrapRange(this);
    },
    addDeveloperMetadata(...args: unknown[]) {
      write('Range', 'addDeveloperMetadata');
      const { key, value, visibility } = metadataArgs(args);
      const r = this.rect;
      let location: MetadataLocation;
      if (r.column === 1 && r.numColumns === this.sheet.maxColumns)
        location = { type: 'ROW', sheet: this.sheet, start: r.row, end: r.row + r.numRows - 1 };
      else if (r.row === 1 && r.numRows === this.sheet.maxRows)
        location = { type: 'COLUMN', sheet: this.sheet, start: r.column, end: r.column + r.numColumns - 1 };
      else throw new GasError(Msg.metadataArbitraryRange);
      model.addMetadata(key, value, visibility, location);
      return wrapRange(this);
    },
    copyTo(destination: unknown) {
      write('Range', 'copyTo');
      const dest = classes.Range.unwrap(destination);
      if (!dest) throw signatureError('Range', 'copyTo', [destination]);
      const snapshot = grid(this, (cell) => (cell ? { ...cell, spilledFrom: undefined, spill: undefined } : undefined));
      const target: RangeImpl = {
        sheet: dest.sheet,
        rect: {
          row: dest.rect.row,
          column: dest.rect.column,
          numRows: this.rect.numRows,
          numColumns: this.rect.numColumns,
        },
      };
      dest.sheet.checkRect(target.rect);
      cells(target, (cell, r, c) =>
        Object.assign(cell, { value: '' }, snapshot[r - target.rect.row][c - target.rect.column] ?? {}),
      );
    },
    insertCheckboxes() {
      write('Range', 'insertCheckboxes');
      cells(this, (cell) => {
        clearContent(cell);
        cell.value = false;
      });
      return wrapRange(this);
    },
    // formatting without a visible model: counted writes, no state
    ...Object.fromEntries(
      [
        'setBackground',
        'setBackgrounds',
        'setFontWeight',
        'setFontWeights',
        'setFontColor',
        'setFontColors',
        'setFontStyle',
        'setFontSize',
        'setFontFamily',
        'setFontLine',
        'setHorizontalAlignment',
        'setVerticalAlignment',
        'setWrap',
        'setWrapStrategy',
        'setBorder',
        'setDataValidation',
        'setTextStyle',
        'merge',
        'breakApart',
      ].map((name) => [
        name,
        function (this: RangeImpl) {
          write('Range', name);
          return wrapRange(this);
        },
      ]),
    ),
  });

  classes.Range = Range;
}
