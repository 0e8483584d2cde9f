// The registry entry of a spreadsheet's timer (issue 48, point 4): when each work is next due, and when the timer
// itself next runs (a period after its last run, rolled past now), never "now" for work that waits for a day.
import fc from 'fast-check';
import { holderEntry, timerNextRun } from '../../../src/scheduler/timer-registry';

const HERE = { id: 'sheet-1', name: 'Accounts', url: 'https://docs.google.com/spreadsheets/d/sheet-1/edit' };
const HOUR = 3_600_000;

describe('timer registry entries', () => {
  it('keeps each pending work with its own due time; none for work without', () => {
    const now = 1_000 * HOUR;
    const entry = holderEntry(
      HERE,
      { trigger: 't1', cadence: 'hourly', ranAt: now - 20 * 60_000 },
      [
        ['refresh', now + 50 * HOUR],
        ['newRows', 1],
        ['watch', null],
      ],
      now,
    );
    expect(entry).toMatchObject({
      keeps: ['refresh', 'newRows'],
      wakes: { refresh: now + 50 * HOUR, newRows: 1 },
      nextRunAt: null,
      cadence: 'hourly',
    });
  });

  it("puts the timer's next run one period after its last, the first such time after now", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'minute' | 'hourly'>('minute', 'hourly'),
        fc.integer({ min: 0, max: 100 * HOUR }),
        fc.integer({ min: 0, max: 10 * HOUR }),
        (cadence, ranAt, since) => {
          const period = cadence === 'minute' ? 60_000 : HOUR;
          const next = timerNextRun({ cadence, ranAt }, ranAt + since) as number;
          expect(next).toBeGreaterThan(ranAt + since - (since === 0 ? 0 : 1));
          expect(next - period).toBeLessThanOrEqual(Math.max(ranAt, ranAt + since));
          expect((next - ranAt) % period).toBe(0);
        },
      ),
      { seed: 48, numRuns: 300 },
    );
    expect(timerNextRun({ cadence: undefined, ranAt: 5 }, 10)).toBeNull();
  });
});
