// The digest's other work of a period (issue 48, point 5), from the add-in's own records: the rows "Keep enriching new
// rows" filled since the last digest counted them, and the runs that did nothing, with why.
import { MemoryStore } from '../../fakes/ports';
import { periodActivity } from '../../../src/digest/activity';
import { writeSetting, type NewRowsSetting } from '../../../src/new-rows/state';
import { writeSchedules, type RefreshSchedule } from '../../../src/enrichment/refresh/schedule';
import { writeWatches, type Watch } from '../../../src/research/watch/watch';

const DAY = 86_400_000;

function setting(sheetId: number, since: number, filled: number, lastRun: string | null = null): NewRowsSetting {
  return {
    sheetId,
    sheetName: `Sheet ${sheetId}`,
    domainColumn: 1,
    domainHeader: 'Website',
    fields: ['company_name'],
    headers: ['Company'],
    since,
    digest: 'd',
    waiting: 0,
    owed: 0,
    lastFound: { at: 5 * DAY, added: 2, filled: 2, waiting: 0, invalid: 0 },
    problem: null,
    totals: { added: filled, filled },
    research: lastRun
      ? {
          template: 'Research {Website}',
          depth: 'medium',
          schema: null,
          mapping: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null },
          headers: ['Status', 'Report'],
          creditsPerRow: 10,
          monthlyLimit: 30,
          savedBy: 'ana@x.com',
          confirmedAt: 0,
          timer: 't1',
          lastRun: { at: 4 * DAY, text: lastRun },
        }
      : null,
  };
}

describe('the period’s other work', () => {
  it('counts the rows filled since the last digest, and lists the runs that did nothing with why', () => {
    const document = new MemoryStore();
    const records = new MemoryStore();
    writeSetting(document, 1, setting(1, 0, 40, "3 new rows not researched: this month's limit is reached"));
    writeSetting(document, 2, setting(2, 3 * DAY, 7, 'Researching 2 new rows'));
    writeSetting(document, 3, setting(3, 0, 9));
    const schedule = (sheetId: number, checked: number, problem: string | null): RefreshSchedule => ({
      sheetId,
      sheetName: `Sheet ${sheetId}`,
      days: 3,
      cadence: 'weekly',
      weekday: 1,
      nextRunAt: 9 * DAY,
      run: null,
      lastRun: { at: 2 * DAY, checked, changedRows: 0, changedCells: 0, keptEdits: 0, notFound: 0, problem },
    });
    writeSchedules(document, [
      schedule(1, 0, null),
      schedule(2, 0, 'The service could not be reached'),
      schedule(3, 4, null),
    ]);
    writeWatches(records, [
      { id: 'w1', sheetId: 3, lastRun: { at: 6 * DAY, text: 'Not started: none of the 3 watched rows was found' } },
      { id: 'w2', sheetId: 1, lastRun: { at: 6 * DAY, text: 'Researching 3 rows' } },
    ] as Watch[]);
    // The last digest (day 1) counted 30 rows on sheet 1; sheet 2 was turned on since; sheet 3 has no count yet.
    const activity = periodActivity({ document, records }, DAY, 8 * DAY, { '1': 30 });
    expect(activity.filled).toEqual([
      { sheetId: 1, rows: 10 },
      { sheetId: 2, rows: 7 },
      { sheetId: 3, rows: 2 },
    ]);
    expect(activity.filledTotals).toEqual({ '1': 40, '2': 7, '3': 9 });
    expect(activity.idle).toEqual([
      { kind: 'refresh', sheetId: 1, at: 2 * DAY, why: 'no row checked: every row was refreshed less than 3 days ago' },
      { kind: 'refresh', sheetId: 2, at: 2 * DAY, why: 'no row checked: the service could not be reached' },
      { kind: 'new-rows', sheetId: 1, at: 4 * DAY, why: "3 new rows not researched: this month's limit is reached" },
      { kind: 'watch', sheetId: 3, at: 6 * DAY, why: 'Not started: none of the 3 watched rows was found' },
    ]);
    // Outside the period, nothing.
    expect(periodActivity({ document, records }, 8 * DAY, 9 * DAY, activity.filledTotals)).toEqual({
      filled: [],
      idle: [],
      filledTotals: activity.filledTotals,
    });
  });
});
