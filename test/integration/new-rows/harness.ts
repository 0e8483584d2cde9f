// Shared by the "Keep enriching new rows" integration tests and the scale benchmark: the Enrich panel's calls (enrich
// a sheet to the end, turn the new rows on or off, research on new rows confirmed as the panel asks), rows added the
// way another tool adds them (written under the list, no panel), and a row's fields read back by its domain.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { EnrichProgress, StartResult } from '../../../src/enrichment/contract';
import type { NewRowsAnswer, NewRowsResearchAnswer, NewRowsResearchRequest } from '../../../src/new-rows/contract';
import { columnLetter } from '../../../src/shared/a1';

export const FIELDS = ['company_name', 'employee_count'];

/** Enriches the active sheet (FIELDS unless given) through the Enrich panel's calls, to the end. */
export function enrichSheet(doc: GasRuntime, fields: string[] = FIELDS): void {
  const started = doc.run<StartResult>('startEnrichment', [{ fields }], { kind: 'sidebar' });
  if (!started.ok) throw new Error(`enrichment did not start: ${started.message}`);
  let progress: EnrichProgress = started.progress;
  for (let step = 0; step < 200 && progress.status === 'running'; step++)
    progress = doc.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
  if (progress.status !== 'done') throw new Error(`enrichment ended ${progress.status}`);
}

/** The panel's "Keep enriching new rows" switch on the active sheet, as `user` (the document's first user if none). */
export function keepNewRows(doc: GasRuntime, on = true, user?: string): NewRowsAnswer {
  return doc.run<NewRowsAnswer>('setNewRows', [{ on }], { kind: 'sidebar', user });
}

export function newRowsOf(doc: GasRuntime, user?: string): NewRowsAnswer {
  return doc.run<NewRowsAnswer>('getNewRows', [], { kind: 'sidebar', user });
}

/** Research on the active sheet's new rows, its figures confirmed as the panel asks for them: the answer. */
export function researchNewRows(
  doc: GasRuntime,
  request: Omit<NewRowsResearchRequest, 'confirmed'>,
  user?: string,
): NewRowsResearchAnswer {
  const save = (confirmed: NewRowsResearchRequest['confirmed']) =>
    doc.run<NewRowsResearchAnswer>('saveNewRowsResearch', [{ ...request, confirmed }], { kind: 'sidebar', user });
  const asked = save(null);
  return asked.ok && asked.confirm ? save(asked.confirm) : asked;
}

/** Rows written under the sheet's last row as another tool writes them (a form, an import): no panel, no edit event. */
export function appendRows(doc: GasRuntime, sheet: string, rows: string[][]): number[] {
  const model = doc.spreadsheet.sheet(sheet);
  const first = model.lastRow() + 1;
  const width = Math.max(...rows.map((row) => row.length));
  model.setValues(
    `A${first}:${columnLetter(width)}${first + rows.length - 1}`,
    rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? '')),
  );
  return rows.map((_, i) => first + i);
}

/** The values of the rows whose `domainHeader` cell holds `domain`, by header. */
export function rowsOf(
  doc: GasRuntime,
  sheet: string,
  domainHeader: string,
  domain: string,
): Record<string, unknown>[] {
  const [header, ...rows] = doc.spreadsheet.sheet(sheet).getValues();
  const at = header.indexOf(domainHeader);
  return rows
    .filter((row) => String(row[at]).trim().toLowerCase() === domain.toLowerCase())
    .map((row) => Object.fromEntries(header.map((name, i) => [String(name), row[i]])));
}
