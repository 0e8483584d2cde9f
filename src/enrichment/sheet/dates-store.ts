// The enrichment dates (EnrichmentDates): when each domain of each sheet was last enriched and the fingerprints of what
// was written for it, in their hidden sheet, a sealed table (src/shared/storage/sealed-table.ts). Records are packed,
// many to a row: each row holds a block, the JSON of up to BLOCK_CHARS characters of records `[sheet id, domain, ISO
// time, {field: fingerprint}]`, so a job of 10,000 rows writes a few cells instead of four per domain (Apps Script's
// commit of buffered writes grows with the cells written: about 0.15 ms a cell, docs/platform §12). Read whole once
// per execution (prepare, or the first use) and kept as the execution writes it; a record rewrites only the blocks it
// changed, and new domains fill the last block, then new ones. An earlier version's rows (a row per domain: sheet id,
// domain, time, fingerprints) are read as they are and written packed at the first record. A row changed outside the
// add-in reads as absent: its domains count as never enriched (looked up again at the next refresh) and their cells as
// not written by the add-in (kept, never overwritten), the safe side of both. Pure over a TablePort.
import type { TablePort } from '../../ports';
import type { EnrichedDomain, EnrichmentDates } from '../ports';
import { adjacentRuns } from '../../shared/adjacent-runs';

type Written = Record<string, string>;
/** One domain of one sheet: sheet id, domain, ISO time, fingerprints. */
type DateRecord = [number, string, string, Written];

/** The header of the dates sheet (its one column of packed blocks). */
export const DATES_HEADERS = ['Sheet Scout enrichment dates (packed records: do not edit)'];
/** Characters of records per cell, well inside Sheets' 50,000 per cell. */
const BLOCK_CHARS = 40_000;

interface Table {
  blocks: DateRecord[][];
  /** Characters of each block's JSON, as it grows. */
  chars: number[];
  /** `sheetId|domain` -> [block, position]. */
  index: Map<string, [number, number]>;
  /** Rows of the sheet when read: an earlier version's (a row per domain) are all rewritten at the first record. */
  rows: number;
  unpacked: boolean;
}

function parsedWritten(value: unknown): Written {
  try {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value || '{}') : value;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Written) : {};
  } catch {
    return {};
  }
}

/** A block's records (a cell that holds no block reads as none). */
function blockOf(cell: unknown): DateRecord[] {
  try {
    const parsed: unknown = JSON.parse(String(cell));
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((entry): entry is unknown[] => Array.isArray(entry) && typeof entry[1] === 'string')
      .map((entry) => [Number(entry[0]), String(entry[1]), String(entry[2]), parsedWritten(entry[3])]);
  } catch {
    return [];
  }
}

const recordChars = (record: DateRecord) => JSON.stringify(record).length + 1;

/** The records of the table's rows: packed blocks, or an earlier version's row per domain (regrouped into blocks). */
function readTable(rows: readonly unknown[][]): Table {
  const legacy = rows.filter((row) => typeof row[1] === 'string' && row[1] !== '');
  const blocks = rows.filter((row) => row.length > 0 && legacy.indexOf(row) < 0).map((row) => blockOf(row[0]));
  const table: Table = { blocks: [], chars: [], index: new Map(), rows: rows.length, unpacked: legacy.length > 0 };
  for (const block of blocks) for (const record of block) put(table, record);
  for (const row of legacy) put(table, [Number(row[0]), String(row[1]), String(row[2]), parsedWritten(row[3])]);
  return table;
}

/** Sets (or adds) a record: the block it is in, which the write must rewrite. */
function put(table: Table, record: DateRecord): number {
  const key = `${record[0]}|${record[1]}`;
  const at = table.index.get(key);
  if (at) {
    const before = table.blocks[at[0]][at[1]];
    table.blocks[at[0]][at[1]] = record;
    table.chars[at[0]] += recordChars(record) - recordChars(before);
    return at[0];
  }
  let block = table.blocks.length - 1;
  if (block < 0 || table.chars[block] + recordChars(record) > BLOCK_CHARS) {
    block = table.blocks.push([]) - 1;
    table.chars[block] = 2;
  }
  table.index.set(key, [block, table.blocks[block].push(record) - 1]);
  table.chars[block] += recordChars(record);
  return block;
}

export function tableEnrichmentDates(table: TablePort): EnrichmentDates {
  let known: Table | null = null;
  const dates = (): Table => (known ??= readTable(table.readAll().rows));
  return {
    prepare: () => {
      dates();
    },
    read: (sheetId) => {
      const found = new Map<string, EnrichedDomain>();
      for (const block of dates().blocks)
        for (const [id, domain, at, written] of block)
          if (id === sheetId) found.set(domain, { at: Date.parse(at), written });
      return found;
    },
    record: (sheetId, domains, at) => {
      if (domains.size === 0) return;
      const current = dates();
      const iso = new Date(at).toISOString();
      const changed: number[] = [];
      for (const [domain, written] of domains) {
        const place = current.index.get(`${sheetId}|${domain}`);
        const before = place ? current.blocks[place[0]][place[1]][3] : {};
        changed.push(put(current, [sheetId, domain, iso, { ...before, ...written }]));
      }
      // An earlier version's rows (or rows no block could be read from), once: every block, and nothing after them.
      const whole = current.unpacked || current.rows > current.blocks.length;
      if (whole) changed.push(...current.blocks.map((_, block) => block));
      const rows = adjacentRuns(changed).flatMap(({ first, count }) =>
        current.blocks
          .slice(first, first + count)
          .map((block, i) => ({ index: first + i, values: [JSON.stringify(block)] })),
      );
      if (whole) table.writeHeader(DATES_HEADERS);
      table.writeRows(rows);
      if (whole && current.rows > current.blocks.length) {
        table.deleteRows(
          Array.from({ length: current.rows - current.blocks.length }, (_, i) => current.blocks.length + i),
        );
        table.fitGrid(DATES_HEADERS.length);
      }
      current.rows = current.blocks.length;
      current.unpacked = false;
    },
  };
}
