// The registry entry of a spreadsheet's timer (issue 48, point 4): when each work is next due, and when the timer
// itself next runs (whole periods after it was made, the first such time after now), never "now" for work that
// waits for a day.
import fc from 'fast-check';
import {
  changeHolders,
  holderEntry,
  readHolders,
  timerNextRun,
  withHolder,
} from '../../../src/scheduler/timer-registry';
import { MemoryLock, MemoryStore } from '../../fakes/ports';

const HERE = { id: 'sheet-1', name: 'Accounts', url: 'https://docs.google.com/spreadsheets/d/sheet-1/edit' };
const HOUR = 3_600_000;

describe('timer registry entries', () => {
  it('keeps each pending work with its own due time; none for work without', () => {
    const now = 1_000 * HOUR;
    const entry = holderEntry(
      HERE,
      { trigger: 't1', cadence: 'hourly', madeAt: now - 20 * 60_000 },
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

  it("puts the timer's next run whole periods after it was made, the first such time after now", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'minute' | 'hourly'>('minute', 'hourly'),
        fc.integer({ min: 0, max: 100 * HOUR }),
        fc.integer({ min: 0, max: 10 * HOUR }),
        (cadence, madeAt, since) => {
          const period = cadence === 'minute' ? 60_000 : HOUR;
          const now = madeAt + since;
          const next = timerNextRun({ cadence, madeAt }, now) as number;
          expect(next).toBeGreaterThan(now);
          expect(next - period).toBeLessThanOrEqual(now);
          expect((next - madeAt) % period).toBe(0);
        },
      ),
      { seed: 48, numRuns: 300 },
    );
    expect(timerNextRun({ cadence: undefined, madeAt: 5 }, 10)).toBeNull();
  });
});

describe('timer registry storage', () => {
  it('reads back what it stored, and an unchanged entry written again changes nothing', () => {
    const user = new MemoryStore();
    const now = 1_000 * HOUR;
    const entry = holderEntry(
      HERE,
      { trigger: 't1', cadence: 'hourly', madeAt: now - HOUR },
      [
        ['refresh', now + 5 * HOUR],
        ['research', now - 1],
        ['digest', null],
      ],
      now,
    );
    changeHolders(user, new MemoryLock(), (holders) => withHolder(holders, entry));
    const stored = readHolders(user);
    expect(stored).toEqual([entry]);
    expect(withHolder(stored, entry)).toBe(stored);
  });
});
