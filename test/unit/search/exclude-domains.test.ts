import {
  mergeDomainLists,
  mostRecent,
  normalizeDomainList,
  overLimitMessage,
  splitPastedList,
} from '../../../src/search/exclude-domains';

describe('normalizeDomainList', () => {
  it('normalizes URLs, case and subdomains to registered domains, de-duplicated at their latest occurrence', () => {
    const list = normalizeDomainList([
      'https://www.Stripe.com/pricing',
      'acme.io',
      '',
      null,
      'STRIPE.COM',
      'shop.acme.io',
      'zeta.dev',
    ]);
    expect(list.domains).toEqual(['stripe.com', 'acme.io', 'zeta.dev']);
    expect(list.duplicates).toBe(2);
    expect(list.invalid).toEqual([]);
  });

  it('lists inputs that are not domains once each, as typed', () => {
    const list = normalizeDomainList(['not a domain', 'acme.io', 'localhost', 'not a domain', '10.0.0.1']);
    expect(list.domains).toEqual(['acme.io']);
    expect(list.invalid).toEqual(['not a domain', 'localhost', '10.0.0.1']);
  });
});

describe('splitPastedList', () => {
  it('splits on new lines, commas, semicolons, tabs and spaces', () => {
    expect(splitPastedList('a.com, b.com;c.com\n\td.com  e.com\r\n')).toEqual([
      'a.com',
      'b.com',
      'c.com',
      'd.com',
      'e.com',
    ]);
  });

  it('keeps a line of words that are not all domains as one entry, as a column cell would be (issue 29)', () => {
    expect(splitPastedList('not a domain\nacme.com stripe.com\nAcme Inc, b.com')).toEqual([
      'not a domain',
      'acme.com',
      'stripe.com',
      'Acme Inc',
      'b.com',
    ]);
    expect(normalizeDomainList(splitPastedList('not a domain'))).toMatchObject({
      domains: [],
      invalid: ['not a domain'],
    });
  });
});

describe('mostRecent and the limit', () => {
  it('keeps the last N of an oldest-first list', () => {
    const domains = Array.from({ length: 1005 }, (_, i) => `d${i}.com`);
    const kept = mostRecent(domains);
    expect(kept).toHaveLength(1000);
    expect(kept[0]).toBe('d5.com');
    expect(kept[999]).toBe('d1004.com');
    expect(mostRecent(['a.com'])).toEqual(['a.com']);
  });

  it('merges lists so a domain in several lists counts once, at its latest position', () => {
    expect(
      mergeDomainLists([
        ['a.com', 'b.com'],
        ['a.com', 'c.com'],
      ]).domains,
    ).toEqual(['b.com', 'a.com', 'c.com']);
  });

  it('says how many there are and what the limit is', () => {
    expect(overLimitMessage(1234)).toBe(
      '1,234 domains to exclude: the service takes at most 1,000. Use the 1,000 most recent, or shorten the list.',
    );
  });
});
