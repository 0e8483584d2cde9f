// The emulator's Spreadsheet, RangeList, Selection and User classes.
import type { FacadeClass } from '../realm';
import type { SpreadsheetModel } from './model';
import { recordToast } from './ui';
import { signatureError } from './scope';
import type { Scope } from './scope';

export function defineSpreadsheet(S: Scope): void {
  const {
    env,
    exec,
    model,
    read,
    write,
    wrapSheet,
    wrapSpreadsheet,
    rangeFromRect,
    rangeFromA1,
    metadataArgs,
    wrapMetadata,
    newFinder,
    activeSheet,
    activeRange,
    setActiveRange,
    currentCell,
    classes,
  } = S;
  // The user's selection as a list of ranges. The model keeps one rectangle (a Ctrl-click selection of several is
  // not modelled), so the list holds that one range.
  const RangeList = exec.define<object>('RangeList', {
    getRanges() {
      return [activeRange()];
    },
  });
  const Selection = exec.define<object>('Selection', {
    getActiveRange() {
      return activeRange();
    },
    getActiveRangeList() {
      return classes.RangeList.wrap({});
    },
    getActiveSheet() {
      return wrapSheet(activeSheet());
    },
    getCurrentCell() {
      return currentCell();
    },
  });

  // ---------- Spreadsheet ----------
  const Spreadsheet: FacadeClass<{ model: SpreadsheetModel }> = exec.define<{ model: SpreadsheetModel }>(
    'Spreadsheet',
    {
      getId() {
        return model.id;
      },
      getName() {
        return model.name;
      },
      getUrl() {
        return model.url;
      },
      getSpreadsheetTimeZone() {
        return model.timeZone;
      },
      getSpreadsheetLocale() {
        return model.locale;
      },
      getOwner() {
        return classes.User.wrap({ email: env.owner });
      },
      getSheets() {
        return model.sheets.map(wrapSheet);
      },
      getNumSheets() {
        return model.sheets.length;
      },
      getSheetByName(name: string) {
        const sheet = model.getSheet(String(name));
        return sheet ? wrapSheet(sheet) : null;
      },
      getSheetById(id: number) {
        const sheet = model.sheets.find((s) => s.sheetId === Number(id));
        return sheet ? wrapSheet(sheet) : null;
      },
      getActiveSheet() {
        return wrapSheet(activeSheet());
      },
      setActiveSheet(sheet: unknown) {
        const impl = classes.Sheet.unwrap(sheet);
        if (!impl) throw signatureError('Spreadsheet', 'setActiveSheet', [sheet]);
        model.activeSheet = impl.sheet;
        return wrapSheet(impl.sheet);
      },
      getActiveRange() {
        return activeRange();
      },
      getActiveRangeList() {
        return classes.RangeList.wrap({});
      },
      setActiveRange(range: unknown) {
        return setActiveRange(range);
      },
      getActiveCell() {
        return currentCell();
      },
      getCurrentCell() {
        return currentCell();
      },
      getSelection() {
        return classes.Selection.wrap({});
      },
      getRange(a1: string) {
        if (typeof a1 !== 'string') throw signatureError('Spreadsheet', 'getRange', [a1]);
        return rangeFromA1(activeSheet(), a1);
      },
      getLastRow() {
        read('Spreadsheet', 'getLastRow');
        return activeSheet().lastRow();
      },
      getLastColumn() {
        read('Spreadsheet', 'getLastColumn');
        return activeSheet().lastColumn();
      },
      getDataRange() {
        read('Spreadsheet', 'getDataRange');
        return rangeFromRect(activeSheet(), activeSheet().dataRect());
      },
      getDeveloperMetadata() {
        read('Spreadsheet', 'getDeveloperMetadata');
        return model.metadata.filter((m) => m.location.type === 'SPREADSHEET').map(wrapMetadata);
      },
      createDeveloperMetadataFinder() {
        return newFinder({});
      },
      addDeveloperMetadata(...args: unknown[]) {
        write('Spreadsheet', 'addDeveloperMetadata');
        const { key, value, visibility } = metadataArgs(args);
        model.addMetadata(key, value, visibility, { type: 'SPREADSHEET' });
        return wrapSpreadsheet();
      },
      rename(name: string) {
        write('Spreadsheet', 'rename');
        model.name = String(name);
      },
      setSpreadsheetTimeZone(timeZone: string) {
        write('Spreadsheet', 'setSpreadsheetTimeZone');
        model.timeZone = String(timeZone);
      },
      insertSheet(...args: unknown[]) {
        write('Spreadsheet', 'insertSheet');
        let name: string | undefined;
        let index: number | undefined;
        if (typeof args[0] === 'string') {
          name = args[0];
          if (typeof args[1] === 'number') index = args[1];
        } else if (typeof args[0] === 'number') index = args[0];
        const sheet = model.insertSheet(name, index, { rows: 1000, columns: 26 });
        model.activeSheet = sheet;
        return wrapSheet(sheet);
      },
      deleteSheet(sheet: unknown) {
        write('Spreadsheet', 'deleteSheet');
        const impl = classes.Sheet.unwrap(sheet);
        if (!impl) throw signatureError('Spreadsheet', 'deleteSheet', [sheet]);
        model.deleteSheet(impl.sheet);
      },
      toast(...args: unknown[]) {
        recordToast(exec, env, args);
      },
    },
  );

  const User = exec.define<{ email: string }>('User', {
    getEmail() {
      return this.email;
    },
  });

  classes.RangeList = RangeList;
  classes.Selection = Selection;
  classes.Spreadsheet = Spreadsheet;
  classes.User = User;
}
