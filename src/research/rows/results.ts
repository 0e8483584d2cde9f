// Turns a ledger record (and its finished task's report) into the cells of its row: the status cell (with
// degradation reasons or the full failure reason as its note), a markdown report (cut at the cell limit with a
// marker; the full text stays in the report store) with its sources in a column or the report cell's note, or the
// schema fields in their columns (numbers as numbers, lists one per line, Evidenced values with reasoning and
// source URLs as the cell's note, a field the research did not fill empty with a note saying so). Every service
// string goes through safeText/toCellValue. And what a sheet's records write (write-back.ts reads the sheet for it):
// every row that asks a record's question gets its cells, a watched row its Signals (watch.ts). Pure.
import { clip } from '../../api/errors';
import { safeText, toCellValue } from '../../shared/cell-values';
import type { Source, TaskReport } from '../../api/types';
import type { CellWrite } from '../ports';
import { isPending, statusText, type LedgerEntry } from '../records/ledger';
import { watchedRow } from '../watch/watch';
import type { SignalItem } from '../../shared/storage/digest-outbox';
import { isEvidenced } from '../brief/output-schema';

export const LONG_REPORT_MARKER = '\n\n[Report continues: open Sheet Scout > Research to read it in full]';
const NOTE_LIMIT = 20000;
/** The note of a field's cell the research left empty (a paid task may fill some fields and not others). */
export const NOT_FOUND_NOTE =
  'Not found by the research: none of the sources it reviewed gave this field. A higher depth reviews more.';

export function sourcesText(sources: readonly Source[]): string {
  return sources.map((source) => `[${source.id}] ${source.url}`).join('\n');
}

function evidenceNote(reasoning: string, sources: readonly unknown[]): string {
  const urls = sources.filter((s): s is string => typeof s === 'string');
  const parts = [];
  if (reasoning.trim()) parts.push(reasoning.trim());
  if (urls.length > 0) parts.push(`Sources:\n${urls.join('\n')}`);
  return clip(parts.join('\n\n'), NOTE_LIMIT);
}

/** Header -> column (1-based) of a header row; first occurrence wins. */
export function headerIndex(headers: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  headers.forEach((header, i) => {
    const key = String(header).trim();
    if (key && !map.has(key)) map.set(key, i + 1);
  });
  return map;
}

/** The status cell: text plus a note (degradation reasons, or the full failure text), or no note. */
export function statusCell(entry: LedgerEntry): { value: string; note: string | null } {
  const value = statusText(entry);
  if (entry.state === 'done' && entry.degradation.length > 0) {
    return {
      value,
      note: clip(`Produced under degraded conditions:\n- ${entry.degradation.join('\n- ')}`, NOTE_LIMIT),
    };
  }
  if ((entry.state === 'failed' || entry.state === 'error') && entry.error && value.length > 200) {
    return { value: `${value.slice(0, 197)}...`, note: clip(entry.error, NOTE_LIMIT) };
  }
  return { value, note: null };
}

/**
 * The cells for a record in `row`: always the status cell; for a done task also its report or fields.
 * Headers that are missing from the sheet are skipped (the launcher creates them; a user may delete them later).
 */
export function rowCells(
  entry: LedgerEntry,
  report: TaskReport | null,
  row: number,
  columns: Map<string, number>,
): CellWrite[] {
  const cells: CellWrite[] = [];
  const status = statusCell(entry);
  const statusColumn = columns.get(entry.mapping.statusHeader);
  if (statusColumn) cells.push({ row, column: statusColumn, value: safeText(status.value), note: status.note });
  if (entry.state !== 'done' || !report) return cells;
  const mapping = entry.mapping;
  if (report.kind === 'markdown') {
    const reportColumn = mapping.reportHeader ? columns.get(mapping.reportHeader) : undefined;
    const sourcesColumn = mapping.sourcesHeader ? columns.get(mapping.sourcesHeader) : undefined;
    const list = sourcesText(report.sources);
    if (reportColumn) {
      const note = sourcesColumn || !list ? null : clip(`Sources:\n${list}`, NOTE_LIMIT);
      cells.push({ row, column: reportColumn, value: safeText(report.markdown, LONG_REPORT_MARKER), note });
    }
    if (sourcesColumn) cells.push({ row, column: sourcesColumn, value: safeText(list) });
    return cells;
  }
  for (const field of mapping.fields ?? []) {
    const column = columns.get(field.header);
    if (!column) continue;
    const found = report.fields[field.name];
    const value = toCellValue(isEvidenced(found) ? found.value : found);
    const evidence = isEvidenced(found) ? evidenceNote(found.reasoning, found.sources) : '';
    const note = value === '' ? clip([NOT_FOUND_NOTE, evidence].filter(Boolean).join('\n\n'), NOTE_LIMIT) : evidence;
    cells.push({ row, column, value, note: note || null });
  }
  return cells;
}

/**
 * What writing one sheet's records needs of it, read once just before the write: its headers, the rows each record is
 * in now (none: no row can be trusted with it), the reports of the finished ones, and the values of the rows where an
 * account watch's finished fields are about to be written (their Signals compare with them), by row.
 */
export interface SheetRows {
  sheetId: number;
  headers: string[];
  located: Array<{ entry: LedgerEntry; rows: number[]; report: TaskReport | null }>;
  before: Map<number, string[]>;
}

/**
 * The cells of one sheet's records (every row that asks a record's question gets its result; a watched row also its
 * own Signals against its own values), the records as they are once written (final ones `written`, or `detached`
 * when no row can be trusted with them), and the watch's signals for the digest. Pure.
 */
export function sheetWrites(sheet: SheetRows): { cells: CellWrite[]; updated: LedgerEntry[]; signals: SignalItem[] } {
  const columns = headerIndex(sheet.headers);
  const cells: CellWrite[] = [];
  const updated: LedgerEntry[] = [];
  const signals: SignalItem[] = [];
  for (const { entry, rows, report } of sheet.located) {
    const finalState = !isPending(entry);
    if (rows.length === 0) {
      if (finalState) updated.push({ ...entry, detached: true, written: true });
      continue;
    }
    let changed = false;
    for (const row of rows) {
      const own = rowCells(entry, report, row, columns);
      const was = sheet.before.get(row);
      const watched = entry.watch && was ? watchedRow(own, entry, entry.watch, { row, before: was, columns }) : null;
      cells.push(...(watched?.cells ?? own));
      if (watched?.signal && finalState) {
        changed = true;
        signals.push(watched.signal);
      }
    }
    const watch = entry.watch && finalState ? { ...entry.watch, changed } : entry.watch;
    updated.push({ ...entry, watch, written: finalState || entry.written, shownStatus: statusText(entry) });
  }
  return { cells, updated, signals };
}
