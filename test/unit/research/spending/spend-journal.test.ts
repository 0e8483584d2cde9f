// The spend journal (src/research/spending/spend-journal.ts): what research counted against the spending cap, by launch day,
// in the document's properties: changes add up per day, never below zero, read fresh before each write (another
// editor's launch counts), and only the current and the previous month are kept.
import { documentSpendJournal, SPEND_JOURNAL_KEY } from '../../../../src/research/spending/spend-journal';
import type { Calendar } from '../../../../src/research/spending/calendar';
import { MemoryStore } from '../../../fakes/ports';

const DAY = 86_400_000;
const utc: Calendar = {
  day: (ms) => new Date(ms).toISOString().slice(0, 10),
  month: (ms) => new Date(ms).toISOString().slice(0, 7),
};

describe('spend journal', () => {
  it('adds changes by launch day, never below zero, and keeps this month and the last', () => {
    const store = new MemoryStore();
    let now = Date.UTC(2026, 9, 30);
    const journal = documentSpendJournal(store, utc, () => now);
    journal.add([
      { at: now, credits: 30 },
      { at: now - DAY, credits: 10 },
    ]);
    journal.add([
      { at: now, credits: -8 },
      { at: now - DAY, credits: -50 },
      { at: now, credits: 0 },
    ]);
    expect(journal.days()).toEqual({ '2026-10-30': 22, '2026-10-29': 0 });
    // December: October is the month before November, so it goes.
    now = Date.UTC(2026, 11, 2);
    journal.add([
      { at: Date.UTC(2026, 10, 20), credits: 50 },
      { at: now, credits: 10 },
    ]);
    expect(journal.days()).toEqual({ '2026-11-20': 50, '2026-12-02': 10 });
  });

  it("reads the store fresh before adding: another execution's launch is kept", () => {
    const store = new MemoryStore();
    const now = Date.UTC(2026, 10, 25);
    const mine = documentSpendJournal(store, utc, () => now);
    mine.days();
    store.set(SPEND_JOURNAL_KEY, JSON.stringify({ '2026-11-25': 30 }));
    mine.add([{ at: now, credits: 10 }]);
    expect(JSON.parse(store.get(SPEND_JOURNAL_KEY) ?? '{}')).toEqual({ '2026-11-25': 40 });
  });

  it('reads a damaged value as empty, and drops entries that are not days', () => {
    const store = new MemoryStore();
    const journal = documentSpendJournal(store, utc, () => Date.UTC(2026, 10, 25));
    store.set(SPEND_JOURNAL_KEY, '{broken');
    expect(journal.days()).toEqual({});
    store.set(SPEND_JOURNAL_KEY, JSON.stringify({ '2026-11-25': 5, x: 3, '2026-11-24': 'a' }));
    expect(journal.days()).toEqual({ '2026-11-25': 5 });
  });
});
