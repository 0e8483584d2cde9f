// Writing search results into the spreadsheet: a new sheet (header row + values, the saved search in the header
// cell's note), or appended to an existing sheet (columns matched to its header by label, missing ones added at the
// right, companies whose domain is already there skipped). Values only, formula-escaped by cellRow; one read and
// one rectangular write per sheet.
import type { CompanySearchResult } from '../../api/types';
import type { CellValue } from '../../shared/cell-values';
import { parseDomain } from '../../shared/domain/domain';
import { cellRow, type ResultColumn } from './columns';
import { formatSavedSearchNote, type SavedSearch } from './saved-search';
import { domainColumns, domainsInGrid } from '../sheet-domains';
import type { SearchSheetPort, SheetRef } from '../ports';

export interface WriteSummary {
  sheet: SheetRef;
  written: number;
  /** Results left out because their domain was already in the sheet (or repeated in the results). */
  skipped: number;
  /** Header labels added to an existing sheet. */
  addedColumns: string[];
}

const SHEET_NAME_MAX = 90;

/** A sheet name for a search, unused in the spreadsheet ("Search: fintech in Berlin", "... (2)"). */
export function sheetNameFor(saved: SavedSearch, taken: readonly string[]): string {
  const subject = saved.spec.mode === 'describe' ? saved.spec.query : `similar to ${saved.spec.reference}`;
  return unusedSheetName('Search', subject, taken);
}

/** "<prefix>: <subject>" without the characters sheet names refuse, cut to fit, with " (2)" etc. when taken. */
export function unusedSheetName(prefix: string, subject: string, taken: readonly string[]): string {
  const cleaned =
    subject
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/[[\]*?/\\:]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'results';
  const base = `${prefix}: ${cleaned}`.slice(0, SHEET_NAME_MAX).trim();
  const used = new Set(taken.map((name) => name.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const name = `${base} (${n})`;
    if (!used.has(name.toLowerCase())) return name;
  }
}

function uniqueByDomain(
  results: readonly CompanySearchResult[],
  skip: Set<string>,
): { kept: CompanySearchResult[]; skipped: number } {
  const kept: CompanySearchResult[] = [];
  let skipped = 0;
  for (const result of results) {
    const parsed = parseDomain(result.domain);
    const key = parsed.kind === 'domain' ? parsed.domain : String(result.domain ?? '').toLowerCase();
    if (key !== '' && skip.has(key)) {
      skipped++;
      continue;
    }
    if (key !== '') skip.add(key);
    kept.push(result);
  }
  return { kept, skipped };
}

function writeFresh(
  port: SearchSheetPort,
  sheet: SheetRef,
  results: readonly CompanySearchResult[],
  columns: readonly ResultColumn[],
  saved: SavedSearch,
): WriteSummary {
  const { kept, skipped } = uniqueByDomain(results, new Set());
  const rows: CellValue[][] = [
    columns.map((column) => column.label),
    ...kept.map((result) => cellRow(result, columns)),
  ];
  port.writeValues(sheet.id, 1, 1, rows);
  port.setNote(sheet.id, 1, 1, formatSavedSearchNote(saved));
  port.styleHeader(sheet.id, columns.length);
  return { sheet, written: kept.length, skipped, addedColumns: [] };
}

/** Inserts a new sheet named after the search and writes the results into it. */
export function insertIntoNewSheet(
  port: SearchSheetPort,
  results: readonly CompanySearchResult[],
  columns: readonly ResultColumn[],
  saved: SavedSearch,
): WriteSummary {
  const sheet = port.insertSheet(
    sheetNameFor(
      saved,
      port.listSheets().map((s) => s.name),
    ),
  );
  const summary = writeFresh(port, sheet, results, columns, saved);
  port.activate(sheet.id);
  return summary;
}

/**
 * Appends results below the last row of a sheet. An empty sheet gets the header row and the saved-search note, like
 * a new one. Otherwise each chosen column goes under the header cell with the same label (case-insensitive; domains
 * under the sheet's domain column), labels the sheet lacks are added at the right of the header row, and companies
 * already in the sheet are skipped.
 */
export function appendToSheet(
  port: SearchSheetPort,
  sheet: SheetRef,
  results: readonly CompanySearchResult[],
  columns: readonly ResultColumn[],
  saved: SavedSearch,
): WriteSummary {
  const grid = port.readAll(sheet.id);
  const isEmpty = grid.every((row) => row.every((value) => value === '' || value === null || value === undefined));
  if (isEmpty) return writeFresh(port, sheet, results, columns, saved);
  const header = grid[0].map((value) => (value === null || value === undefined ? '' : String(value).trim()));
  const positions: number[] = [];
  const addedColumns: string[] = [];
  const existingDomainColumn = domainColumns(grid)[0];
  for (const column of columns) {
    let index = header.findIndex((label) => label.toLowerCase() === column.label.toLowerCase());
    // Domains go under the sheet's own domain column ("Website", "URL", ...) when it has no "Domain" header.
    if (index < 0 && column.key === 'domain' && existingDomainColumn !== undefined) index = existingDomainColumn;
    if (index < 0) {
      index = header.length;
      header.push(column.label);
      addedColumns.push(column.label);
    }
    positions.push(index);
  }
  if (addedColumns.length > 0) port.writeValues(sheet.id, 1, header.length - addedColumns.length + 1, [addedColumns]);
  const { kept, skipped } = uniqueByDomain(results, domainsInGrid(grid));
  if (kept.length > 0) {
    const width = Math.max(...positions) + 1;
    const rows = kept.map((result) => {
      const cells = cellRow(result, columns);
      const row: CellValue[] = new Array<CellValue>(width).fill('');
      positions.forEach((position, index) => (row[position] = cells[index]));
      return row;
    });
    port.writeValues(sheet.id, grid.length + 1, 1, rows);
  }
  return { sheet, written: kept.length, skipped, addedColumns };
}
