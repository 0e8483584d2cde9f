// The enrichment dates (EnrichmentDates) in their hidden sheet, a sealed table: one row per sheet and domain (sheet
// id, domain, ISO time, and the fingerprints of what was written for it as JSON), read whole once per execution; a
// record writes only the rows it changed (new domains appended), in one block from the first changed row to the last
// when there would be many writes. A row changed outside the add-in reads as absent: its domain counts as never
// enriched (looked up again at the next refresh) and its cells as not written by the add-in (kept, never
// overwritten), the safe side of both. Pure over a TablePort.
import type { TablePort } from '../../ports';
import type { EnrichedDomain, EnrichmentDates } from '../ports';
import { adjacentRuns } from '../../shared/adjacent-runs';

export const DATES_HEADERS = ['Sheet id', 'Domain', 'Enriched at', 'Written'];
/** More runs of changed rows than this are written as one block from the first changed row to the last. */
const MAX_DATE_WRITES = 8;

/** The fingerprints of a row's "Written" cell (field key -> fingerprint), {} when absent or unreadable. */
function writtenOf(cell: unknown): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(String(cell || '{}'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Runs of adjacent changed rows (table indexes), or one block over them all when there would be many. */
function dateRuns(changed: number[]): Array<{ first: number; count: number }> {
  const runs = adjacentRuns(changed);
  if (runs.length <= MAX_DATE_WRITES) return runs;
  const last = runs[runs.length - 1];
  return [{ first: runs[0].first, count: last.first + last.count - runs[0].first }];
}

export function tableEnrichmentDates(table: TablePort): EnrichmentDates {
  // Read once (prepare, or the first use) and kept as this execution writes it, with each key's index.
  let known: unknown[][] | null = null;
  let indexOf = new Map<string, number>();
  const rows = (): unknown[][] => {
    if (!known) {
      known = table.readAll().rows;
      indexOf = new Map(known.flatMap((row, index) => (row.length > 0 ? [[`${row[0]}|${row[1]}`, index]] : [])));
    }
    return known;
  };
  return {
    prepare: () => {
      rows();
    },
    read: (sheetId) => {
      const dates = new Map<string, EnrichedDomain>();
      for (const [id, domain, at, written] of rows()) {
        if (Number(id) === sheetId && typeof domain === 'string')
          dates.set(domain, { at: Date.parse(String(at)), written: writtenOf(written) });
      }
      return dates;
    },
    record: (sheetId, domains, at) => {
      if (domains.size === 0) return;
      const all = rows();
      const iso = new Date(at).toISOString();
      const changed: number[] = [];
      for (const [domain, written] of domains) {
        const key = `${sheetId}|${domain}`;
        let index = indexOf.get(key);
        const merged = { ...writtenOf(index === undefined ? undefined : all[index][3]), ...written };
        if (index === undefined) indexOf.set(key, (index = all.push([]) - 1));
        all[index] = [sheetId, domain, iso, JSON.stringify(merged)];
        changed.push(index);
      }
      // A refused row in a block is rewritten as blank (its domain reads as never enriched: looked up again).
      const indices = dateRuns(changed).flatMap(({ first, count }) =>
        Array.from({ length: count }, (_, i) => first + i),
      );
      table.writeRows(
        indices.map((index) => ({
          index,
          values: (all[index].length > 0 ? all[index] : []) as Array<string | number>,
        })),
      );
    },
  };
}
