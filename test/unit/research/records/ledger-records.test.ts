import { runLaunch } from '../../../../src/research/launch/launch';
import { runTick } from '../../../../src/research/polling/tick';
import { entryToRow, LEDGER_HEADERS, rowToEntry, type OutputMapping } from '../../../../src/research/records/ledger';
import { LedgerStore } from '../../../../src/research/records/stores';
import { CELL_CHARACTER_LIMIT } from '../../../../src/shared/cell-values';
import type { JsonSchemaObject } from '../../../../src/api/types';
import { FakeTable, jobWorld, ledgerEntry } from '../fakes';
import { ManualClock } from '../../../fakes/ports';

const SHEET = 1;
const mapping: OutputMapping = { kind: 'fields', statusHeader: 'Status', fields: [{ name: 'f0', header: 'F0' }] };

/** A legal request at its largest: a 20,000-character brief of characters JSON escapes, a 50-property schema. */
function largeSchema(): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++)
    properties[`f${i}`] = { type: 'string', description: `"${'Describe the field\n'.repeat(40)}"` };
  return { type: 'object', properties } as JsonSchemaObject;
}

describe('ledger records', () => {
  it('stores a record of any legal size in cells Sheets accepts, and reads it back exactly', () => {
    const { clock, grid, service, ledgerTable: table, deps } = jobWorld(new ManualClock(), 'l');
    const brief = '"quoted"\n\\'.repeat(2000).slice(0, 20000);
    grid.addSheet(SHEET, [['Brief', 'Status', 'F0'], [brief]]);
    const outcome = runLaunch(
      deps(),
      {
        sheetId: SHEET,
        rows: [2],
        template: '{Brief}',
        depth: 'medium',
        schema: largeSchema(),
        mapping,
        rerun: false,
        again: false,
      },
      { deadline: clock.now() + 60_000, availableCredits: null, reservationPerTask: 10, run: 'launch' },
    );
    expect(outcome.refused).toBeNull();
    const row = table.rows[0];
    expect(JSON.stringify(outcome.entries[0]).length).toBeGreaterThan(CELL_CHARACTER_LIMIT);
    expect(row.every((cell) => String(cell).length < CELL_CHARACTER_LIMIT)).toBe(true);
    const [record] = deps().ledger.load();
    expect(record.brief).toBe(brief);
    expect(record.schema).toEqual(largeSchema());
    // The next tick polls it: the paid task is never lost nor created again.
    service.advance();
    runTick(deps());
    expect(service.tasks).toHaveLength(1);
    expect(deps().ledger.load()[0].taskId).toBe(service.tasks[0].id);
  });

  it('keeps and reports a record it cannot read, and never writes over it', () => {
    const table = new FakeTable();
    const store = new LedgerStore(table);
    table.rows.push(['e1', 'task_9', 'created', 1, '', '2026-01-01T00:00:00.000Z', 1, '~{"id":"e1", broken']);
    expect(store.load()).toEqual([]);
    expect(store.damaged()).toEqual([{ entryId: 'e1', taskId: 'task_9' }]);
    const good = rowToEntry(entryToRow(ledgerEntry(mapping, { id: 'e2' })));
    if (good === 'blank' || !('state' in good)) throw new Error('round trip failed');
    store.save([good]);
    expect(table.rows).toHaveLength(2);
    expect(table.rows[0][7]).toBe('~{"id":"e1", broken');
    expect(rowToEntry(['', '', '', '', '', '', '', ''])).toBe('blank');
    expect(LEDGER_HEADERS).toContain('parts');
  });
});
