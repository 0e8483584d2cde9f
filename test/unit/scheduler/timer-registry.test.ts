// The user's registry of spreadsheets holding timers stays within one property value (8,066 bytes measured) for the
// 20 timers Google allows, whatever the spreadsheets are called: long names in a wide script are cut shorter.
import { changeHolders, readHolders, withHolder, type TimerHolder } from '../../../src/scheduler/timer-registry';
import { MemoryLock, MemoryStore } from '../../fakes/ports';

const holder = (i: number, name: string): TimerHolder => ({
  id: `${'1'.repeat(40)}${String(i).padStart(4, '0')}`,
  name,
  url: `https://docs.google.com/spreadsheets/d/${'1'.repeat(40)}${String(i).padStart(4, '0')}/edit`,
  trigger: String(7_000_000_000_000_000_000 + i),
  keeps: ['refresh', 'watch', 'newRows', 'research', 'enrichment', 'digest'],
  nextRunAt: 1_780_000_000_000 + i,
  // Every work with its own time, as the longest entry of this version is.
  wakes: {
    refresh: 1_780_000_000_001,
    watch: 1_780_000_000_002,
    newRows: 1_780_000_000_003,
    research: 1_780_000_000_004,
    enrichment: 1_780_000_000_005,
    digest: 1_780_000_000_006,
  },
  cadence: 'hourly',
  madeAt: 1_779_000_000_000 + i,
});

function fill(names: (i: number) => string): MemoryStore {
  const user = new MemoryStore();
  for (let i = 0; i < 20; i++)
    changeHolders(user, new MemoryLock(), (holders) => withHolder(holders, holder(i, names(i))));
  return user;
}

describe("the registry of the user's timers", () => {
  it('holds 20 spreadsheets with long names in a wide script (CJK) within one property value', () => {
    const user = fill((i) => `${'売上見込み顧客リスト'.repeat(20)}${i}`);
    const holders = readHolders(user);
    expect(holders).toHaveLength(20);
    expect(holders.map((entry) => entry.trigger)).toEqual(
      Array.from({ length: 20 }, (_, i) => String(7_000_000_000_000_000_000 + i)),
    );
    // Each name keeps its start, shortened no further than needed.
    for (const entry of holders) expect(entry.name.length).toBeGreaterThanOrEqual(16);
    expect(holders[0].name.startsWith('売上見込み顧客リスト')).toBe(true);
  });

  it('keeps names of 80 characters whole when they fit', () => {
    const holders = readHolders(fill((i) => `Pipeline review ${i} `.padEnd(80, 'x')));
    expect(holders.map((entry) => entry.name.length)).toEqual(new Array(20).fill(80));
  });
});
