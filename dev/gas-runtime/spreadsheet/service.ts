// SpreadsheetApp over the in-memory SpreadsheetModel: Spreadsheet, Sheet, Range, Selection, developer
// metadata and its finder, rich text, number formats, notes, sorting, row/column insertion and deletion.
// Writes parse strings like typed input (so "=..." becomes a formula), enforce the 50,000-character cell
// limit and Google's dimension-mismatch messages, and every data read or write is counted for benchmarks.
// Custom-function executions may only read; simple triggers in AuthMode.NONE may not touch data. Each class is
// defined in its own module over one shared scope (scope.ts).
import { GasError, Msg } from '../errors';
import type { ServiceContext } from '../state/env';
import type { GridRect } from './a1';
import type { SheetModel } from './model';
import { createScope, signatureError, type SpreadsheetAppOptions } from './scope';
import { defineRange } from './range-facade';
import { defineMetadata } from './metadata-facade';
import { defineSheet } from './sheet-facade';
import { defineSpreadsheet } from './spreadsheet-facade';

export { CELL_CHARACTER_LIMIT } from './scope';

export interface SpreadsheetAppParts {
  app: Record<string, unknown>;
  /** Spreadsheet and Range objects for event objects (no service call is counted). */
  spreadsheet(): Record<string, unknown>;
  range(sheet: SheetModel, rect: GridRect): Record<string, unknown>;
}

export function createSpreadsheetApp(context: ServiceContext, options: SpreadsheetAppOptions): SpreadsheetAppParts {
  const S = createScope(context, options);
  const { exec, model, classes, wrapSpreadsheet, wrapSheet, wrapRange, activeSheet, activeRange, setActiveRange } = S;
  const { currentCell, richText, Visibility, LocationType, Dimension, WrapStrategy, BorderStyle } = S;
  defineRange(S);
  defineMetadata(S);
  defineSheet(S);
  defineSpreadsheet(S);

  // ---------- SpreadsheetApp ----------
  const withData = (method: string) => exec.require('sheet.read', 'SpreadsheetApp', method);
  const App = exec.define<object>('SpreadsheetApp', {
    getActiveSpreadsheet() {
      withData('getActiveSpreadsheet');
      return exec.documentless ? null : wrapSpreadsheet();
    },
    getActive() {
      withData('getActive');
      return exec.documentless ? null : wrapSpreadsheet();
    },
    getActiveSheet() {
      withData('getActiveSheet');
      return wrapSheet(activeSheet());
    },
    setActiveSheet(sheet: unknown) {
      withData('setActiveSheet');
      const impl = classes.Sheet.unwrap(sheet);
      if (!impl) throw signatureError('SpreadsheetApp', 'setActiveSheet', [sheet]);
      model.activeSheet = impl.sheet;
      return wrapSheet(impl.sheet);
    },
    getActiveRange() {
      withData('getActiveRange');
      return activeRange();
    },
    setActiveRange(range: unknown) {
      withData('setActiveRange');
      return setActiveRange(range);
    },
    getSelection() {
      withData('getSelection');
      return classes.Selection.wrap({});
    },
    getCurrentCell() {
      withData('getCurrentCell');
      return currentCell();
    },
    openById(id: string) {
      if (exec.authMode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission('SpreadsheetApp.openById'));
      withData('openById');
      if (String(id) !== model.id) throw new GasError(Msg.openByIdFailed);
      return wrapSpreadsheet();
    },
    openByUrl(url: string) {
      if (exec.authMode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission('SpreadsheetApp.openByUrl'));
      withData('openByUrl');
      if (!String(url).includes(model.id)) throw new GasError(Msg.openByIdFailed);
      return wrapSpreadsheet();
    },
    getUi() {
      exec.require('ui', 'SpreadsheetApp', 'getUi');
      return options.ui();
    },
    newRichTextValue() {
      return richText.newBuilder();
    },
    newTextStyle() {
      return richText.newStyleBuilder();
    },
    flush() {
      exec.commitSheetWrites(true);
      return undefined;
    },
  });
  return {
    app: App.wrap(
      {},
      {
        DeveloperMetadataVisibility: Visibility,
        DeveloperMetadataLocationType: LocationType,
        Dimension,
        WrapStrategy,
        BorderStyle,
      },
    ),
    spreadsheet: wrapSpreadsheet,
    range: (sheet, rect) => wrapRange({ sheet, rect }),
  };
}
