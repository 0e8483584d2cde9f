// The refresh change log (src/enrichment/refresh/change-log.ts): a sheet's changes since a date, newest first; expired rows
// removed once enough gather; and never more than 20,000 rows, whatever the refreshes change.
import { ChangeLog, CHANGE_LOG_HEADERS, type LoggedChange } from '../../../src/enrichment/refresh/change-log';
import { FakeTable } from '../../fakes/table';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25);
const change = (i: number, at: number, sheetId = 7): LoggedChange => ({
  sheetId,
  domain: `c${i}.com`,
  header: 'Employees',
  before: '11-50',
  after: '51-200',
  at,
  occurrence: 1,
});

describe('refresh change log', () => {
  it('lists a sheet’s changes since a date, newest first', () => {
    const log = new ChangeLog(new FakeTable(CHANGE_LOG_HEADERS));
    log.append([change(1, NOW - 10 * DAY), change(2, NOW - 2 * DAY), change(3, NOW - DAY, 8)], NOW);
    log.append([change(4, NOW)], NOW);
    expect(log.since(7, NOW - 5 * DAY, 10).map((entry) => entry.domain)).toEqual(['c4.com', 'c2.com']);
  });

  it('keeps which of a domain’s rows each change was in; a change logged before that reads as 0', () => {
    const table = new FakeTable(CHANGE_LOG_HEADERS);
    const log = new ChangeLog(table);
    log.append([{ ...change(1, NOW), occurrence: 2 }], NOW);
    table.rows.push([7, 'old.com', 'Employees', '1-10', '11-50', new Date(NOW - DAY).toISOString()]);
    expect(log.since(7, NOW - 5 * DAY, 10).map((entry) => [entry.domain, entry.occurrence])).toEqual([
      ['c1.com', 2],
      ['old.com', 0],
    ]);
  });

  it('removes expired changes once 200 gathered, and keeps at most 20,000 rows, the newest', () => {
    const table = new FakeTable(CHANGE_LOG_HEADERS);
    const log = new ChangeLog(table);
    log.append(
      Array.from({ length: 250 }, (_, i) => change(i, NOW - 100 * DAY)),
      NOW - 100 * DAY,
    );
    log.append([change(999, NOW)], NOW);
    expect(table.rows).toHaveLength(1);
    log.append(
      Array.from({ length: 20_500 }, (_, i) => change(i, NOW)),
      NOW,
    );
    expect(table.rows).toHaveLength(20_000);
    expect(table.rows[table.rows.length - 1][1]).toBe('c20499.com');
    log.append([change(-1, NOW)], NOW);
    expect(table.rows).toHaveLength(20_000);
    expect(table.rows[table.rows.length - 1][1]).toBe('c-1.com');
  });
});
