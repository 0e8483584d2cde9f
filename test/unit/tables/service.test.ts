import { alignAndSave, openState, push } from '../../../src/tables/service';
import { columnLetter } from '../../../src/shared/a1';
import { loadMapping } from '../../../src/tables/store';
import type { ColumnRecord, CreateColumnsRequest } from '../../../src/api/types';
import { agent, draft } from './helpers';
import { ManualClock } from '../../fakes/ports';
import { memoryRecordStores } from '../../fakes/table';

const sheet = (headers: string[]) => ({ sheetId: 5, sheetName: 'Leads', headers });

describe('session', () => {
  it('names columns by letter', () => {
    expect([1, 26, 27, 52, 703].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AZ', 'AAA']);
  });

  it('opens with defaults, then reopens as saved even after columns moved', () => {
    const store = memoryRecordStores();
    const first = openState(store, sheet(['Domain', 'Research']));
    expect(first.saved).toBe(false);
    expect(first.drafts.map((d) => d.include)).toEqual([false, false]);
    const edited = [
      { ...first.drafts[0], include: true },
      { ...agent('Research', 'Research {input}'), key: 'research' },
    ];
    alignAndSave(store, sheet(['Domain', 'Research']), JSON.parse(JSON.stringify(edited)));
    const reopened = openState(store, sheet(['Research', 'Extra', 'Domain']));
    expect(reopened.saved).toBe(true);
    expect(reopened.drafts.map((d) => [d.header, d.kind, d.include])).toEqual([
      ['Research', 'agent', true],
      ['Extra', 'input', false],
      ['Domain', 'input', true],
    ]);
    expect(reopened.letters).toEqual(['A', 'B', 'C']);
    expect(reopened.drafts[0].agent.prompt).toBe('Research {input}');
  });

  it('keeps the settings of a header that left the sheet, and restores them when it returns', () => {
    const store = memoryRecordStores();
    alignAndSave(store, sheet(['Domain', 'Fit']), [
      draft('Domain'),
      draft('Fit', { kind: 'criterion_grade', criterion: 'B2B' }),
    ]);
    const without = openState(store, sheet(['Domain']));
    expect(without.missing).toEqual(['Fit']);
    alignAndSave(store, sheet(['Domain']), without.drafts);
    const back = openState(store, sheet(['Fit', 'Domain']));
    expect(back.drafts[0]).toEqual(expect.objectContaining({ header: 'Fit', criterion: 'B2B', include: true }));
    expect(loadMapping(store, 5)).toHaveLength(2);
  });

  it("pushes in the sheet's current order and refuses included columns that left the sheet", () => {
    const store = memoryRecordStores();
    const sent: CreateColumnsRequest[] = [];
    const api = {
      createColumns: (_id: string, request: CreateColumnsRequest) => {
        sent.push(request);
        const value: ColumnRecord[] = request.column_configs.map((config, i) => ({
          id: `c${i}`,
          created_at: '',
          config,
        }));
        return { ok: true as const, value, status: 200, retries: 0 };
      },
      replaceTemplate: () => {
        throw new Error('unused');
      },
    };
    const deps = { api, stores: store, clock: new ManualClock(Date.UTC(2026, 10, 21, 12, 0)) };
    const drafts = [draft('Domain'), agent('Research', 'Research {domain}')];
    const gone = push(deps, sheet(['Research']), { drafts, table: 'tbl_1', position: { at: 'end' } });
    expect(gone).toEqual(
      expect.objectContaining({
        status: 'invalid',
        message: 'Column "Domain" is no longer in the sheet: reopen the dialog',
      }),
    );
    const moved = push(deps, sheet(['Research', 'Domain']), { drafts, table: 'tbl_1', position: { at: 'end' } });
    expect(moved.status).toBe('invalid');
    expect(moved.issues[0]).toEqual(
      expect.objectContaining({ row: 0, message: expect.stringContaining('comes later') }),
    );
    const ok = push(deps, sheet(['Domain', 'Research']), {
      drafts,
      table: 'tbl_1',
      position: { at: 'after', columnId: '' },
    });
    expect(ok).toEqual(
      expect.objectContaining({ status: 'invalid', issues: [expect.objectContaining({ field: 'position' })] }),
    );
    expect(push(deps, sheet(['Domain', 'Research']), { drafts, table: 'tbl_1', position: { at: 'end' } }).status).toBe(
      'created',
    );
    expect(sent).toHaveLength(1);
  });
});
