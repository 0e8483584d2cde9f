// The records sheet's commits (src/shared/storage/record-sheet.ts), as a class: an execution cut short (Apps Script's
// 6-minute limit) before any one of the writes of a set, setAll or remove leaves every record read, by the next
// execution, as it was before the call or as the call made it, never absent or "changed outside Sheet Scout"; the
// executions after it go on (a cut after a cut too). And the seal still holds: once a call has finished, an older
// sealed copy of a record's row put back is not read, nor a row edited outside the add-in; after a cut, a copy put
// back reads at most as the value the cut call was replacing. fast-check drives sequences of calls over a sealed
// FakeTable and a properties store that throw at the chosen write (fixed seed), from an empty document, one an earlier
// version wrote with fingerprints but no commit numbers, and one older still, without fingerprints.
import fc from 'fast-check';
import { FakeTable, testSealer } from '../../fakes/table';
import { MemoryStore } from '../../fakes/ports';
import { SealedTable } from '../../../src/shared/storage/sealed-table';
import { fingerprint } from '../../../src/shared/fingerprint';
import {
  RECORD_VALUES_KEY,
  RECORDS_HEADERS,
  RECORDS_SHEET,
  SheetRecordStore,
} from '../../../src/shared/storage/record-sheet';

const KEYS = ['sheetscout.research.watches', 'sheetscout.tables.history', 'sheetscout.newrows.7'];
type Values = Record<string, string | null>;
type Call =
  | { kind: 'set'; key: string; value: string }
  | { kind: 'remove'; key: string }
  | { kind: 'setAll'; values: Record<string, string> };

const CUT = 'Exceeded maximum execution time';
/** Values of one part, and (named, so a failure prints short) of two and three parts. */
const LONG: Record<string, string> = { '<45,001 x>': 'x'.repeat(45_001), '<90,001 y>': 'y'.repeat(90_001) };
const text = (named: string): string => LONG[named] ?? named;

/** A document: the records sheet's grid and its properties; `writesLeft` cuts the execution at a write (null: never). */
class Document {
  readonly grid = new FakeTable(SealedTable.sealedHeaders(RECORDS_HEADERS));
  readonly properties = new MemoryStore();
  writesLeft: number | null = null;
  writes = 0;

  /** Counts a write; throws (before it) when the execution is cut there. */
  private write(): void {
    if (this.writesLeft === 0) throw new Error(CUT);
    if (this.writesLeft !== null) this.writesLeft--;
    this.writes++;
  }

  /** One execution's store (as appContext makes it): writes go through `write`. */
  execution(): SheetRecordStore {
    const grid = this.grid;
    const properties = this.properties;
    const write = () => this.write();
    const cuttable = <T extends object>(target: T, methods: string[]): T =>
      new Proxy(target, {
        get(object, name) {
          const member = Reflect.get(object, name) as unknown;
          if (typeof member !== 'function') return member;
          return (...args: unknown[]) => {
            if (methods.includes(String(name))) write();
            return (member as (...a: unknown[]) => unknown).apply(object, args);
          };
        },
      });
    const store = cuttable(properties, ['set', 'setAll', 'remove']);
    const table = new SealedTable(
      cuttable(grid, ['writeRows', 'appendRows', 'writeHeader', 'deleteRows', 'fitGrid']),
      RECORDS_SHEET,
      testSealer(store),
      RECORDS_HEADERS,
    );
    return new SheetRecordStore(table, store);
  }

  copy(): Document {
    const copy = new Document();
    copy.grid.header = [...this.grid.header];
    copy.grid.rows = this.grid.rows.map((row) => [...row]);
    for (const [key, value] of this.properties.data) copy.properties.data.set(key, value);
    return copy;
  }

  /** What a new execution reads: every key's value, and the records it names changed outside. */
  read(): { values: Values; changed: string[] } {
    const store = this.execution();
    const named = (value: string | null) => Object.entries(LONG).find(([, long]) => long === value)?.[0] ?? value;
    return {
      values: Object.fromEntries(KEYS.map((key) => [key, named(store.get(key))])),
      changed: store.changedOutside(),
    };
  }
}

function apply(store: SheetRecordStore, call: Call): void {
  if (call.kind === 'set') store.set(call.key, text(call.value));
  else if (call.kind === 'remove') store.remove(call.key);
  else store.setAll(Object.fromEntries(Object.entries(call.values).map(([name, named]) => [name, text(named)])));
}

/** What `call` makes of the values read before it (long values by their names). */
function expected(before: Values, call: Call): Values {
  if (call.kind === 'set') return { ...before, [call.key]: call.value };
  if (call.kind === 'remove') return { ...before, [call.key]: null };
  return { ...before, ...call.values };
}

/** A document an earlier version left: its records' rows sealed, with fingerprints but no commit number, or neither. */
function earlierDocument(form: 'empty' | 'fingerprints' | 'none', values: Record<string, string>): Document {
  const document = new Document();
  if (form === 'empty') return document;
  const table = new SealedTable(document.grid, RECORDS_SHEET, testSealer(document.properties), RECORDS_HEADERS);
  table.appendRows(Object.entries(values).map(([key, value]) => [key, 1, `~${value}`]));
  if (form === 'fingerprints') {
    const prints = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, fingerprint(value)]));
    document.properties.set(RECORD_VALUES_KEY, JSON.stringify(prints));
  }
  return document;
}

/** Puts `row` back as the grid row of its key (appended when the key has none): an editor restoring an older copy. */
function putBack(document: Document, row: Array<string | number>): Document {
  const copy = document.copy();
  const at = copy.grid.rows.findIndex((cells) => cells[1] === row[1]);
  if (at >= 0) copy.grid.rows[at] = [...row];
  else copy.grid.rows.push([...row]);
  return copy;
}

const key = fc.constantFrom(...KEYS);
const value = fc.oneof(
  { weight: 12, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(...Object.keys(LONG)) },
);
const call: fc.Arbitrary<Call> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value }),
  fc.record({ kind: fc.constant('remove' as const), key }),
  fc.record({ kind: fc.constant('setAll' as const), values: fc.dictionary(key, value, { maxKeys: 3 }) }),
);
/** A call, and which of its cut executions the sequence goes on from (null: the one that finished). */
const step = fc.record({ call, goOnFromCut: fc.option(fc.nat(), { freq: 3 }) });

/** The grid rows of `document` whose key has no other row (an edit of one is an edit of that record's row). */
function onlyRows(document: Document): number[] {
  const keys = document.grid.rows.map((row) => String(row[1]));
  return keys.flatMap((name, index) => (keys.indexOf(name) === keys.lastIndexOf(name) ? [index] : []));
}

describe('records sheet commits', () => {
  it('leaves every record as before or after a call cut at any write, and refuses older copies and edits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('empty' as const, 'fingerprints' as const, 'none' as const),
        fc.dictionary(key, fc.string({ maxLength: 8 }), { minKeys: 1 }),
        fc.array(step, { minLength: 1, maxLength: 6 }),
        (form, initial, steps) => {
          let document = earlierDocument(form, initial);
          // Every sealed row the document's grid held (what an editor could have copied).
          const copies = new Map<unknown, Array<string | number>>();
          const keep = (rows: Array<Array<string | number>>) => rows.forEach((row) => copies.set(row[0], [...row]));
          keep(document.grid.rows);
          // By key, what a copy put back may read as: since the last call that finished, the values before and after
          // each call cut short (and, in a document with no fingerprints yet, whatever it held).
          let open = Object.fromEntries(KEYS.map((name) => [name, [document.read().values[name], null]]));
          for (const { call, goOnFromCut } of steps) {
            const before = document.read();
            expect(before.changed).toEqual([]);
            const after = expected(before.values, call);
            const cuts: Document[] = [];
            for (let at = 0; ; at++) {
              const attempt = document.copy();
              attempt.writesLeft = at;
              try {
                apply(attempt.execution(), call);
              } catch (error) {
                expect(String(error)).toContain(CUT);
                const read = attempt.read();
                expect(read.changed).toEqual([]);
                for (const name of KEYS) expect([before.values[name], after[name]]).toContainEqual(read.values[name]);
                for (const row of copies.values()) {
                  const replayed = putBack(attempt, row).read().values;
                  for (const name of KEYS)
                    expect([...open[name], before.values[name], after[name]]).toContainEqual(replayed[name]);
                }
                cuts.push(attempt);
                continue;
              }
              expect(attempt.read()).toEqual({ values: after, changed: [] });
              // Once a call that wrote finished, no older copy is read, and a row edited outside is refused and named.
              const settled = Object.fromEntries(
                KEYS.map((name) => [name, attempt.writes > 0 ? [after[name], null] : [...open[name], after[name]]]),
              );
              for (const row of copies.values()) {
                const replayed = putBack(attempt, row).read().values;
                for (const name of KEYS) expect(settled[name]).toContainEqual(replayed[name]);
              }
              for (const index of onlyRows(attempt)) {
                const edited = attempt.copy();
                const row = edited.grid.rows[index];
                edited.grid.rows[index] = [...row.slice(0, 3), `~edited ${String(row[3])}`, ...row.slice(4)];
                const name = String(row[1]);
                const read = edited.read();
                expect(read.values[name]).toBeNull();
                if (after[name] !== null) expect(read.changed).toEqual([name]);
              }
              if (goOnFromCut === null || cuts.length === 0) {
                document = attempt;
                open = settled;
              } else {
                document = cuts[goOnFromCut % cuts.length];
                for (const name of KEYS) open[name].push(before.values[name], after[name]);
              }
              keep(document.grid.rows);
              break;
            }
          }
        },
      ),
      { seed: 4949, numRuns: 100 },
    );
  });
});
