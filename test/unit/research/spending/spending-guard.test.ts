import { runLaunch } from '../../../../src/research/launch/launch';
import { runTick } from '../../../../src/research/polling/tick';
import type { LedgerEntry, OutputMapping } from '../../../../src/research/records/ledger';
import {
  capMessage,
  chargedCredits,
  guardRoom,
  questionFit,
  readCap,
  rowsThatFit,
} from '../../../../src/research/spending/spending-guard';
import type { Calendar } from '../../../../src/research/spending/calendar';
import { jobWorld, launchInput, ledgerEntry } from '../fakes';
import { ManualClock } from '../../../fakes/ports';

const utc: Calendar = {
  day: (ms) => new Date(ms).toISOString().slice(0, 10),
  month: (ms) => new Date(ms).toISOString().slice(0, 7),
};
const mapping: OutputMapping = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };
const DAY = 24 * 3600_000;

function record(
  state: LedgerEntry['state'],
  agents: number,
  launchedAt: number,
  depth: LedgerEntry['depth'] = 'medium',
): LedgerEntry {
  return ledgerEntry(mapping, {
    id: `${state}-${launchedAt}`,
    taskId: 't',
    state,
    depth,
    agents,
    launchedAt,
    updatedAt: launchedAt,
    written: true,
  });
}

describe('spending guard', () => {
  it('counts what the service charges: the reservation while running, the agents that ran once done, nothing if failed', () => {
    const now = Date.UTC(2026, 10, 23, 12);
    expect(chargedCredits(record('in_progress', 2, now, 'high'))).toBe(30);
    expect(chargedCredits(record('unconfirmed', 0, now))).toBe(10);
    expect(chargedCredits(record('done', 3, now))).toBe(6);
    expect(chargedCredits(record('failed', 4, now))).toBe(0);
    const entries = [record('done', 3, now), record('created', 0, now - DAY), record('done', 5, Date.UTC(2026, 9, 30))];
    expect(guardRoom({ daily: 20, monthly: 50 }, entries, now, utc)).toEqual({
      cap: { daily: 20, monthly: 50 },
      spentToday: 6,
      spentThisMonth: 16,
      left: 14,
    });
    expect(guardRoom({ daily: null, monthly: null }, entries, now, utc).left).toBeNull();
    // The journal (the document's properties) counts when the ledger says less: a record edited or deleted in the grid.
    const journal = { '2026-11-23': 30, '2026-11-22': 10, '2026-10-30': 99 };
    expect(guardRoom({ daily: 20, monthly: 50 }, entries, now, utc, journal)).toMatchObject({
      spentToday: 30,
      spentThisMonth: 40,
      left: 0,
    });
    // And the ledger when the journal says less (records launched before the journal was kept).
    expect(guardRoom({ daily: 20, monthly: 50 }, entries, now, utc, { '2026-11-23': 2 })).toMatchObject({
      spentToday: 6,
      spentThisMonth: 16,
    });
  });

  it('says how many rows fit and refuses with the numbers', () => {
    const room = { cap: { daily: 100, monthly: null }, spentToday: 75, spentThisMonth: 75, left: 25 };
    expect(rowsThatFit(room, 'medium', 5)).toBe(2);
    expect(capMessage(room, 'medium', 5)).toBe(
      "Over this spreadsheet's research spending cap: 5 rows reserve 50 credits, 25 left (75 of 100 today spent). 2 rows fit.",
    );
    const one = { ...room, spentToday: 85, left: 15 };
    expect(capMessage(one, 'medium', 1)).toBe(
      "Over this spreadsheet's research spending cap: 1 row reserves 10 credits, 15 left (85 of 100 today spent). 1 row fits.",
    );
    expect(readCap({ daily: 50, monthly: 20 })).toBe('The daily cap is above the monthly cap');
    expect(readCap({ daily: -1, monthly: null })).toBe('Daily cap: a whole number of credits, or blank for none');
  });

  it('refuses a launch over the cap before anything is sent, and launches only the first rows that fit when asked', () => {
    const { clock, grid, service, deps } = jobWorld(new ManualClock(Date.UTC(2026, 10, 23, 9)), 'g');
    grid.addSheet(1, [['Company', 'Status', 'Report'], ['a.com'], ['b.com'], ['c.com'], ['d.com']]);
    const launch = (rows: number[], fitToCap: boolean) =>
      runLaunch(deps(), launchInput(1, rows, mapping), {
        deadline: clock.now() + 60_000,
        availableCredits: null,
        reservationPerTask: 10,
        run: 'launch',
        guard: { cap: { daily: 25, monthly: null }, calendar: utc, fitToCap },
      });
    expect(launch([2, 3, 4], false)).toMatchObject({
      refused: expect.stringMatching(
        /^Over this spreadsheet's research spending cap: 3 rows reserve 30 credits, 25 left/,
      ),
    });
    expect(service.tasks).toHaveLength(0);
    expect(launch([2, 3, 4], true)).toMatchObject({ refused: null, overCap: [4] });
    expect(service.tasks.map((task) => task.brief)).toEqual(['Research a.com', 'Research b.com']);
    // Once they finish with 4 agents each (8 credits), the real cost frees room: 25 - 16 = 9, not enough for 10.
    for (let i = 0; i < 5; i++) {
      clock.sleep(60_000);
      service.advance();
      runTick(deps());
    }
    expect(launch([4], false).refused).toMatch(/9 left/);
  });

  it('the question about researching rows again: the first rows that the cap and the credits leave room for', () => {
    expect(questionFit([5, 3, 9], 10, null, null)).toEqual({ rows: [3, 5, 9], perRow: 10, limit: null });
    expect(questionFit([5, 3, 9], 10, 30, 500)).toEqual({ rows: [3, 5, 9], perRow: 10, limit: null });
    expect(questionFit([5, 3, 9], 10, 15, 500)).toEqual({ rows: [3], perRow: 10, limit: { by: 'cap', left: 15 } });
    expect(questionFit([5, 3, 9], 10, 25, 12)).toEqual({ rows: [3], perRow: 10, limit: { by: 'credits', left: 12 } });
    expect(questionFit([5, 3], 10, 9, null)).toEqual({ rows: [], perRow: 10, limit: { by: 'cap', left: 9 } });
  });

  it('asks about researched rows with the room the launch leaves: its new rows first, then what fits', () => {
    const { clock, grid, service, deps } = jobWorld(new ManualClock(Date.UTC(2026, 10, 23, 9)), 'q');
    grid.addSheet(1, [['Company', 'Status', 'Report'], ['a.com'], ['b.com'], ['c.com']]);
    const launch = (rows: number[], availableCredits: number | null) =>
      runLaunch(deps(), launchInput(1, rows, mapping), {
        deadline: clock.now() + 60_000,
        availableCredits,
        reservationPerTask: 10,
        run: 'launch',
        guard: { cap: { daily: 50, monthly: null }, calendar: utc, fitToCap: true },
      });
    expect(launch([2, 3], null).question).toBeNull();
    for (let i = 0; i < 5; i++) {
      clock.sleep(60_000);
      service.advance();
      runTick(deps());
    }
    // 16 spent (2 tasks of 8): 34 left. Row 4 is new and launched (24 left); rows 2 and 3 are asked about: 2 fit.
    const mixed = launch([2, 3, 4], null);
    expect(mixed).toMatchObject({ refused: null, question: { rows: [2, 3], limit: null } });
    expect(mixed.entries.map((entry) => entry.row.rowHint)).toEqual([4]);
    // 24 left under the cap, and the account's 15 credits: one row fits, the credits say why.
    expect(launch([2, 3], 15).question).toEqual({ rows: [2], perRow: 10, limit: { by: 'credits', left: 15 } });
    expect(launch([2, 3], 5).question).toEqual({ rows: [], perRow: 10, limit: { by: 'credits', left: 5 } });
  });
});
