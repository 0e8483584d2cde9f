// Seals: how the add-in tells a row it wrote into one of its hidden sheets, as it wrote it, from anything else. Every
// editor can change a hidden sheet; only the add-in can read the document's properties, where a random key is kept.
// A row's seal is a keyed MAC (HMAC-SHA-256, cut to 128 bits) over the table's name and the row's cells as Sheets
// stores them, so a row edited, forged, or moved to another table fails; identity (a record's id, its launch, its
// task) lives in the cells, so a record copied under another id or launch fails too. What a seal cannot tell is a
// row's age: an older sealed copy of a record put back (a replay) passes, and each store makes that harmless (see
// docs/design/security.md). The key is made by the first sealed write (its writer holds the document lock); the
// tables an earlier version wrote are sealed as they are at that moment (`adoptLegacy`), so a document holds
// unsealed tables only while it has no key. Pure over a KeyValueStore and a MAC function.
import type { KeyValueStore } from '../../ports';
import { safeText } from '../cell-values';

/** Where the document keeps its sealing key (base64, web-safe). */
export const SEAL_KEY = 'sheetscout.seal.key';
/** The first header cell of a sealed table: its column holds each row's seal. */
export const SEAL_HEADER = 'seal';

/** HMAC-SHA-256 of `message` (UTF-8) under `key` (base64), cut to 16 bytes, base64 web-safe without padding. */
export type MacFunction = (key: string, message: string) => string;

export interface SealerDeps {
  /** The document's properties. */
  store: KeyValueStore;
  mac: MacFunction;
  /** A new random secret (base64). */
  newSecret: () => string;
  /** The hidden tables that exist now (when the key is made, those an earlier version wrote unsealed). */
  existingTables: () => string[];
  /** Seals the rows of a table an earlier version wrote, as they are, with `sealRow` (under the document lock). */
  adoptLegacy: (table: string, sealRow: (cells: readonly unknown[]) => string) => void;
}

/** The kept key, and the tables of an earlier version not sealed yet (trusted as they are until then). */
interface KeyRecord {
  key: string;
  legacy: string[];
}

/** Sheets keeps 15 significant digits of a number: a seal covers what a read gives back. */
const storedNumber = (value: number): number => Number(value.toPrecision(15));

/** A cell as Sheets stores it when the hidden-table adapter writes it (text cut to the cell limit, no prefix). */
export function storedCell(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? storedNumber(value) : '';
  if (typeof value === 'string') return safeText(value).replace(/^'/, '');
  if (value === null || value === undefined) return '';
  return value;
}

/** The cells a seal covers: as stored, without the empty cells a wider grid pads a row with. */
function sealedCells(cells: readonly unknown[]): unknown[] {
  const stored = cells.map(storedCell);
  let end = stored.length;
  while (end > 0 && stored[end - 1] === '') end--;
  return stored.slice(0, end);
}

function parseRecord(text: string | null): KeyRecord | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<KeyRecord>;
    return typeof parsed.key === 'string' && parsed.key !== '' && Array.isArray(parsed.legacy)
      ? { key: parsed.key, legacy: parsed.legacy.map(String) }
      : null;
  } catch {
    return null;
  }
}

/** The sealing key of one document, and the seals of its tables' rows. */
export class Sealer {
  private record: KeyRecord | null | undefined;
  private readFresh = false;
  /** Tables this execution sealed for an earlier version (their grids changed shape: readers read them again). */
  adoptions = 0;

  constructor(private readonly deps: SealerDeps) {}

  /** The key record as this execution knows it (read again once if absent: another execution may have made it). */
  private known(): KeyRecord | null {
    if (this.record === undefined) this.record = parseRecord(this.deps.store.get(SEAL_KEY));
    if (this.record === null && !this.readFresh) {
      this.readFresh = true;
      this.record = parseRecord(this.deps.store.fresh(SEAL_KEY));
    }
    return this.record;
  }

  /**
   * Whether a table's rows are read as they are, unsealed: only while the document has no key, or a table an earlier
   * version wrote is not sealed yet (its first sealed write seals it).
   */
  trustsUnsealed(table: string): boolean {
    const record = this.known();
    return record === null || record.legacy.includes(table);
  }

  /**
   * The key, made now when the document has none (its first sealed write: the writer holds the document lock), with
   * every table an earlier version wrote sealed as it is first.
   */
  ensure(): string {
    let record = this.known();
    if (!record) {
      record = { key: this.deps.newSecret(), legacy: this.deps.existingTables() };
      this.save(record);
    }
    while (record.legacy.length > 0) {
      const [table, key] = [record.legacy[0], record.key];
      this.deps.adoptLegacy(table, (cells) => this.deps.mac(key, messageOf(table, cells)));
      this.adoptions++;
      record = { ...record, legacy: record.legacy.slice(1) };
      this.save(record);
    }
    return record.key;
  }

  private save(record: KeyRecord): void {
    this.deps.store.set(SEAL_KEY, JSON.stringify(record));
    this.record = record;
  }

  /** The seal of a row of `table` (the key made if needed). */
  seal(table: string, cells: readonly unknown[]): string {
    return this.deps.mac(this.ensure(), messageOf(table, cells));
  }

  /** Whether `seal` is the seal of the row under the document's key (false while there is none). */
  verify(table: string, cells: readonly unknown[], seal: unknown): boolean {
    const record = this.known();
    return (
      record !== null &&
      typeof seal === 'string' &&
      seal !== '' &&
      this.deps.mac(record.key, messageOf(table, cells)) === seal
    );
  }
}

function messageOf(table: string, cells: readonly unknown[]): string {
  return `${table}\n${JSON.stringify(sealedCells(cells))}`;
}
