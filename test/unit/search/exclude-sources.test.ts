import { normalizeDomainList } from '../../../src/search/exclude-domains';
import { pastedSource, summarize, upsertSource } from '../../../sidebar/search/exclude-sources';

describe('panel exclude sources', () => {
  it('counts the union of sources once each and lists invalid inputs by source', () => {
    const sheet = { id: 'sheet:1', label: 'Already in Leads', list: normalizeDomainList(['acme.io', 'Acme', 'b.com']) };
    const summary = summarize([sheet, pastedSource('https://www.acme.io\nc.com, c.com;not-a-domain')], false);
    expect(summary.domains).toEqual(['b.com', 'acme.io', 'c.com']);
    expect(summary.duplicates).toBe(2);
    expect(summary.invalid).toEqual([
      { label: 'Already in Leads', values: ['Acme'] },
      { label: 'Pasted list', values: ['not-a-domain'] },
    ]);
    expect(summary.overLimit).toBe(false);
    expect(summary.toSend).toEqual(summary.domains);
  });

  it('over 1,000 sends everything until the user accepts the 1,000 most recent', () => {
    const old = { id: 'column:1:0', label: 'Leads A', list: normalizeDomainList(Array.from({ length: 600 }, (_, i) => `old${i}.com`)) };
    const recent = pastedSource(Array.from({ length: 600 }, (_, i) => `new${i}.com`).join('\n'));
    const refused = summarize([old, recent], false);
    expect(refused).toMatchObject({ overLimit: true });
    expect(refused.toSend).toHaveLength(1200);
    const accepted = summarize([old, recent], true);
    expect(accepted.toSend).toHaveLength(1000);
    expect(accepted.toSend[0]).toBe('old200.com');
    expect(accepted.toSend[999]).toBe('new599.com');
  });

  it('replaces a source with the same id and moves it last (most recent)', () => {
    const a = pastedSource('a.com');
    const b = { id: 'sheet:1', label: 'S', list: normalizeDomainList(['b.com']) };
    expect(upsertSource([a, b], pastedSource('z.com')).map((s) => s.list.domains[0])).toEqual(['b.com', 'z.com']);
  });
});
