// The enrichment job's sheet port over SpreadsheetApp: read of the cells with content (getDataRange, one getValues), of
// the header row, of a rectangle, formula read and rectangular writes of values and notes, each one Apps Script call
// (plus adding columns when new field columns reach past the sheet's last one), and the commit of the writes; and the
// enrichment dates in their hidden sheet, read once per execution and written a row per domain that changed.
import type { CellValue } from '../../shared/cell-values';
import type { Area } from '../../enrichment/sheet/layout';
import type { EnrichedDomain, EnrichmentDates, EnrichSheet, SheetAccess } from '../../enrichment/ports';
import { ENRICHMENT_DATES_SHEET, targetSheetProblem } from '../../shared/storage/internal-sheets';
import { adjacentRuns } from '../../shared/adjacent-runs';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Drops the empty rows and columns after the last cell with content (the grid was read whole, in one call). */
function trimmed(values: unknown[][]): unknown[][] {
  let lastRow = values.length;
  while (lastRow > 0 && values[lastRow - 1].every((value) => value === '')) lastRow--;
  let lastColumn = 0;
  for (let r = 0; r < lastRow; r++) {
    for (let c = values[r].length; c > lastColumn; c--) {
      if (values[r][c - 1] !== '') {
        lastColumn = c;
        break;
      }
    }
  }
  return values.slice(0, lastRow).map((row) => row.slice(0, lastColumn));
}

function wrap(sheet: Sheet): EnrichSheet {
  return {
    id: sheet.getSheetId(),
    name: sheet.getName(),
    targetProblem: targetSheetProblem({ name: sheet.getName(), hidden: sheet.isSheetHidden() }),
    readValues: () => trimmed(sheet.getDataRange().getValues()),
    lastRow: () => sheet.getLastRow(),
    readHeader: () => sheet.getRange(1, 1, 1, sheet.getMaxColumns()).getValues()[0] ?? [],
    readArea: (area: Area) =>
      area.numRows > 0 && area.numColumns > 0
        ? sheet.getRange(area.row, area.column, area.numRows, area.numColumns).getValues()
        : [],
    readFormulas: (area: Area) => sheet.getRange(area.row, area.column, area.numRows, area.numColumns).getFormulas(),
    writeValues: (row: number, column: number, values: Array<Array<CellValue | Date>>) => {
      const width = values[0]?.length ?? 0;
      if (width > 0) sheet.getRange(row, column, values.length, width).setValues(values);
    },
    writeNotes: (row: number, column: number, notes: string[][]) => {
      const width = notes[0]?.length ?? 0;
      if (width > 0) sheet.getRange(row, column, notes.length, width).setNotes(notes);
    },
    ensureColumns: (columns: number) => {
      const maxColumns = sheet.getMaxColumns();
      if (columns > maxColumns) sheet.insertColumnsAfter(maxColumns, columns - maxColumns);
    },
    insertRowAtTop: () => {
      sheet.insertRowBefore(1);
    },
    commit: () => SpreadsheetApp.flush(),
  };
}

export function appsScriptSheets(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): SheetAccess {
  return {
    active: () => {
      const sheet = spreadsheet.getActiveSheet();
      const range = sheet.getActiveRange();
      const selection: Area = range
        ? {
            row: range.getRow(),
            column: range.getColumn(),
            numRows: range.getNumRows(),
            numColumns: range.getNumColumns(),
          }
        : {
            row: 1,
            column: 1,
            numRows: Math.max(1, sheet.getLastRow()),
            numColumns: Math.max(1, sheet.getLastColumn()),
          };
      return { sheet: wrap(sheet), selection };
    },
    byId: (id: number) => {
      const sheet = spreadsheet.getSheets().find((candidate) => candidate.getSheetId() === id);
      return sheet ? wrap(sheet) : null;
    },
  };
}

const DATES_HEADERS = ['Sheet id', 'Domain', 'Enriched at', 'Written'];

/** The fingerprints of a row's "Written" cell (field key -> fingerprint), {} when absent or unreadable. */
function writtenOf(cell: unknown): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(String(cell || '{}'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** More runs of changed rows than this are written as one block from the first changed row to the last. */
const MAX_DATE_WRITES = 8;

/**
 * The hidden sheet of enrichment dates: one row per sheet and domain (sheet id, domain, ISO time, and the fingerprints
 * of what was written for it as JSON), read whole once per execution; a record writes only the rows it changed (new
 * domains appended in one write).
 */
export function appsScriptEnrichmentDates(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): EnrichmentDates {
  const existing = () => spreadsheet.getSheetByName(ENRICHMENT_DATES_SHEET);
  const readRows = (sheet: Sheet | null): unknown[][] => {
    if (!sheet) return [];
    const last = sheet.getLastRow();
    // A sheet from before fingerprints were kept has three columns: the fourth reads empty.
    return last > 1 ? sheet.getRange(2, 1, last - 1, DATES_HEADERS.length).getValues() : [];
  };
  // Read once (prepare, or the first use) and kept as this execution writes it, with each key's index.
  let known: unknown[][] | null = null;
  let indexOf = new Map<string, number>();
  const rows = (sheet: Sheet | null): unknown[][] => {
    if (!known) {
      known = readRows(sheet);
      indexOf = new Map(known.map((row, index) => [`${row[0]}|${row[1]}`, index]));
    }
    return known;
  };
  const create = (): Sheet => {
    // insertSheet activates the new sheet: give the user their sheet back.
    const active = spreadsheet.getActiveSheet();
    const sheet = spreadsheet.insertSheet(ENRICHMENT_DATES_SHEET, spreadsheet.getSheets().length);
    sheet.hideSheet();
    if (active) spreadsheet.setActiveSheet(active);
    return sheet;
  };
  return {
    prepare: () => {
      rows(existing());
    },
    read: (sheetId) => {
      const dates = new Map<string, EnrichedDomain>();
      for (const [id, domain, at, written] of rows(existing())) {
        if (Number(id) === sheetId && typeof domain === 'string')
          dates.set(domain, { at: Date.parse(String(at)), written: writtenOf(written) });
      }
      return dates;
    },
    record: (sheetId, domains, at) => {
      if (domains.size === 0) return;
      const found = existing();
      const sheet = found ?? create();
      const table = rows(sheet);
      const iso = new Date(at).toISOString();
      const changed: number[] = [];
      for (const [domain, written] of domains) {
        const key = `${sheetId}|${domain}`;
        let index = indexOf.get(key);
        const merged = { ...writtenOf(index === undefined ? undefined : table[index][3]), ...written };
        if (index === undefined) indexOf.set(key, (index = table.push([]) - 1));
        table[index] = [sheetId, domain, iso, JSON.stringify(merged)];
        changed.push(index);
      }
      if (sheet.getMaxRows() < table.length + 1)
        sheet.insertRowsAfter(sheet.getMaxRows(), table.length + 1 - sheet.getMaxRows());
      if (sheet.getMaxColumns() < DATES_HEADERS.length) {
        // Narrower than its four columns (an older version's, cut to the three it wrote).
        sheet.insertColumnsAfter(sheet.getMaxColumns(), DATES_HEADERS.length - sheet.getMaxColumns());
        sheet.getRange(1, 1, 1, DATES_HEADERS.length).setValues([DATES_HEADERS]);
      }
      for (const run of dateRuns(changed)) {
        const block = table.slice(run.first, run.first + run.count) as Array<Array<string | number>>;
        // A sheet made now gets its header row with its first rows, in one write.
        const header = !found && run.first === 0 ? [DATES_HEADERS] : [];
        sheet
          .getRange(run.first + 2 - header.length, 1, run.count + header.length, DATES_HEADERS.length)
          .setValues([...header, ...block]);
      }
    },
  };
}

/** Runs of adjacent changed rows (table indexes), or one block over them all when there would be many. */
function dateRuns(changed: number[]): Array<{ first: number; count: number }> {
  const runs = adjacentRuns(changed);
  if (runs.length <= MAX_DATE_WRITES) return runs;
  const last = runs[runs.length - 1];
  return [{ first: runs[0].first, count: last.first + last.count - runs[0].first }];
}
