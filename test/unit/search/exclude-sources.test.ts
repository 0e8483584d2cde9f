import { normalizeDomainList, summarizeExclude } from '../../../src/search/exclude-domains';
import { excludeSummary } from '../../../src/search/service';
import { EMPTY_SUMMARY, pastedEntry, upsertSource } from '../../../sidebar/search/exclude-sources';

describe('exclude sources summary (computed by the server for the panel)', () => {
  it('counts the union of sources once each and lists invalid inputs by source', () => {
    const sheet = { id: 'sheet:1', label: 'Already in Leads', list: normalizeDomainList(['acme.io', 'Acme', 'b.com']) };
    const summary = excludeSummary({
      entries: [sheet, pastedEntry('https://www.acme.io\nc.com, c.com;not-a-domain')],
      acceptMostRecent: false,
    });
    expect(summary.toSend).toEqual(['b.com', 'acme.io', 'c.com']);
    expect(summary.count).toBe(3);
    expect(summary.sources).toEqual([
      { id: 'sheet:1', label: 'Already in Leads', count: 2 },
      { id: 'pasted', label: 'Pasted list', count: 2 },
    ]);
    expect(summary.duplicates).toBe(2);
    expect(summary.invalid).toEqual([
      { label: 'Already in Leads', values: ['Acme'] },
      { label: 'Pasted list', values: ['not-a-domain'] },
    ]);
    expect(summary.overLimit).toBe(false);
    expect(summary.overLimitMessage).toBeNull();
  });

  it('over 1,000 sends everything until the user accepts the 1,000 most recent', () => {
    const old = {
      id: 'column:1:0',
      label: 'Leads A',
      list: normalizeDomainList(Array.from({ length: 600 }, (_, i) => `old${i}.com`)),
    };
    const recent = pastedEntry(Array.from({ length: 600 }, (_, i) => `new${i}.com`).join('\n'));
    const refused = summarizeExclude([old, recent], false);
    expect(refused).toMatchObject({ overLimit: true, count: 1200 });
    expect(refused.overLimitMessage).toBe(
      '1,200 domains to exclude: the service takes at most 1,000. Use the 1,000 most recent, or shorten the list.',
    );
    expect(refused.toSend).toHaveLength(1200);
    const accepted = summarizeExclude([old, recent], true);
    expect(accepted).toMatchObject({ overLimit: true, count: 1200, overLimitMessage: null });
    expect(accepted.toSend).toHaveLength(1000);
    expect(accepted.toSend[0]).toBe('old200.com');
    expect(accepted.toSend[999]).toBe('new599.com');
  });

  it('the panel shows the empty summary without asking the server, and it matches the server answer for no sources', () => {
    expect(summarizeExclude([], false)).toEqual(EMPTY_SUMMARY);
  });

  it('replaces a source with the same id and moves it last (most recent)', () => {
    const a = pastedEntry('a.com');
    const b = { id: 'sheet:1', label: 'S', list: normalizeDomainList(['b.com']) };
    const summary = summarizeExclude(upsertSource([a, b], pastedEntry('z.com')), false);
    expect(summary.sources.map((source) => source.id)).toEqual(['sheet:1', 'pasted']);
    expect(summary.toSend).toEqual(['b.com', 'z.com']);
  });
});
