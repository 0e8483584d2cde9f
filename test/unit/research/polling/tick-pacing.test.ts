import { nextPanelTick, readTickNote, tickNoteText } from '../../../../src/research/polling/tick-pacing';

describe('tick pacing', () => {
  it('lets the panels tick 15 s after a cheap tick, and later after an expensive one (600 requests an hour)', () => {
    expect(nextPanelTick({ at: 0, requests: 2 })).toBe(15_000);
    // Each request stands for 6 s of the hour's 600.
    expect(nextPanelTick({ at: 0, requests: 3 })).toBe(18_000);
    // 80 list pages to reach tasks behind thousands of newer ones: the next panel tick waits 8 minutes.
    expect(nextPanelTick({ at: 0, requests: 80 })).toBe(8 * 60_000);
  });

  it('reads its note, and the bare time the first versions stored', () => {
    expect(readTickNote(tickNoteText({ at: 5, requests: 7 }))).toEqual({ at: 5, requests: 7 });
    expect(readTickNote('1700000000000')).toEqual({ at: 1700000000000, requests: 0 });
    expect(readTickNote(null)).toBeNull();
    expect(readTickNote('{oops')).toBeNull();
  });
});
