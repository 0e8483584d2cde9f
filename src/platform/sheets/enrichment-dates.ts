// The hidden sheet of enrichment dates (EnrichmentDates): when each domain of each sheet was last enriched and the
// fingerprints of what was written for it. Records are packed, many to a cell: column A from row 2 holds blocks, each
// the JSON of up to BLOCK_CHARS characters of records `[sheet id, domain, ISO time, {field: fingerprint}]`, so a job
// of 10,000 rows writes a few cells instead of four per domain (Apps Script's commit of buffered writes grows with the
// cells written: about 0.15 ms a cell, docs/platform §12). Read whole once per execution (prepare, or the first use)
// and kept as the execution writes it; a record rewrites only the blocks it changed, and new domains fill the last
// block, then new ones. A sheet of an earlier version (a row per domain: sheet id, domain, time, fingerprints under a
// header) is read as it is and written packed at the first record.
import type { EnrichedDomain, EnrichmentDates } from '../../enrichment/ports';
import { ENRICHMENT_DATES_SHEET } from '../../shared/storage/internal-sheets';
import { adjacentRuns } from '../../shared/adjacent-runs';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Written = Record<string, string>;
/** One domain of one sheet: sheet id, domain, ISO time, fingerprints. */
type DateRecord = [number, string, string, Written];

/** The header of a packed dates sheet (an earlier version's header starts with "Sheet id"). */
export const PACKED_DATES_HEADER = 'Sheet Scout enrichment dates (packed records: do not edit)';
/** Characters of records per cell, well inside Sheets' 50,000 per cell. */
const BLOCK_CHARS = 40_000;

interface Table {
  blocks: DateRecord[][];
  /** Characters of each block's JSON, as it grows. */
  chars: number[];
  /** `sheetId|domain` -> [block, position]. */
  index: Map<string, [number, number]>;
  /** The sheet holds an earlier version's rows: the first record writes it packed. */
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

/** A cell's records (a block edited by hand into something else reads as none). */
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

function tableOf(blocks: DateRecord[][], unpacked: boolean): Table {
  const index = new Map<string, [number, number]>();
  blocks.forEach((block, b) => block.forEach((record, r) => index.set(`${record[0]}|${record[1]}`, [b, r])));
  return { blocks, chars: blocks.map((block) => JSON.stringify(block).length), index, unpacked };
}

function readTable(sheet: Sheet | null): Table {
  if (!sheet || sheet.getLastRow() < 1) return tableOf([], false);
  const last = sheet.getLastRow();
  const width = Math.min(4, Math.max(1, sheet.getLastColumn()));
  const values = sheet.getRange(1, 1, last, width).getValues();
  if (values[0][0] === PACKED_DATES_HEADER)
    return tableOf(
      values.slice(1).map((row) => blockOf(row[0])),
      false,
    );
  // An earlier version's sheet: a row per domain under its header (three or four columns).
  const records = values
    .slice(1)
    .filter((row) => typeof row[1] === 'string' && row[1] !== '')
    .map((row): DateRecord => [Number(row[0]), String(row[1]), String(row[2]), parsedWritten(row[3])]);
  const blocks: DateRecord[][] = [];
  let chars = BLOCK_CHARS;
  for (const record of records) {
    if (chars + recordChars(record) > BLOCK_CHARS) {
      blocks.push([]);
      chars = 2;
    }
    blocks[blocks.length - 1].push(record);
    chars += recordChars(record);
  }
  return tableOf(blocks, true);
}

export function appsScriptEnrichmentDates(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): EnrichmentDates {
  const existing = () => spreadsheet.getSheetByName(ENRICHMENT_DATES_SHEET);
  let known: Table | null = null;
  const table = (sheet: Sheet | null): Table => (known ??= readTable(sheet));
  const create = (): Sheet => {
    // insertSheet activates the new sheet: give the user their sheet back.
    const active = spreadsheet.getActiveSheet();
    const sheet = spreadsheet.insertSheet(ENRICHMENT_DATES_SHEET, spreadsheet.getSheets().length);
    sheet.hideSheet();
    if (active) spreadsheet.setActiveSheet(active);
    return sheet;
  };
  /** Sets (or adds) a record: the block it is in, which the write must rewrite. */
  const put = (dates: Table, record: DateRecord): number => {
    const key = `${record[0]}|${record[1]}`;
    const at = dates.index.get(key);
    if (at) {
      const before = dates.blocks[at[0]][at[1]];
      dates.blocks[at[0]][at[1]] = record;
      dates.chars[at[0]] += recordChars(record) - recordChars(before);
      return at[0];
    }
    let b = dates.blocks.length - 1;
    if (b < 0 || dates.chars[b] + recordChars(record) > BLOCK_CHARS) {
      b = dates.blocks.push([]) - 1;
      dates.chars[b] = 2;
    }
    dates.index.set(key, [b, dates.blocks[b].push(record) - 1]);
    dates.chars[b] += recordChars(record);
    return b;
  };
  return {
    prepare: () => {
      table(existing());
    },
    read: (sheetId) => {
      const dates = new Map<string, EnrichedDomain>();
      for (const block of table(existing()).blocks)
        for (const [id, domain, at, written] of block)
          if (id === sheetId) dates.set(domain, { at: Date.parse(at), written });
      return dates;
    },
    record: (sheetId, domains, at) => {
      if (domains.size === 0) return;
      const found = existing();
      const sheet = found ?? create();
      const dates = table(sheet);
      const iso = new Date(at).toISOString();
      const changed: number[] = [];
      for (const [domain, written] of domains) {
        const place = dates.index.get(`${sheetId}|${domain}`);
        const before = place ? dates.blocks[place[0]][place[1]][3] : {};
        changed.push(put(dates, [sheetId, domain, iso, { ...before, ...written }]));
      }
      // A new sheet, or an earlier version's rows (written packed, once): the header and every block.
      const whole = !found || dates.unpacked;
      if (dates.unpacked) {
        sheet.clearContents();
        dates.unpacked = false;
      }
      if (whole) changed.push(...dates.blocks.map((_, b) => b));
      if (sheet.getMaxRows() < dates.blocks.length + 1)
        sheet.insertRowsAfter(sheet.getMaxRows(), dates.blocks.length + 1 - sheet.getMaxRows());
      for (const run of adjacentRuns(changed)) {
        const cells = dates.blocks.slice(run.first, run.first + run.count).map((block) => [JSON.stringify(block)]);
        const header = whole && run.first === 0 ? [[PACKED_DATES_HEADER]] : [];
        sheet.getRange(run.first + 2 - header.length, 1, run.count + header.length, 1).setValues([...header, ...cells]);
      }
    },
  };
}
