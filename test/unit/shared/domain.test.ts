import { parseDomain, isCompanyUuid, invalidDomainMessage } from '../../../src/shared/domain';

describe('parseDomain', () => {
  it.each([
    ['stripe.com', 'stripe.com'],
    ['  Stripe.COM ', 'stripe.com'],
    ['https://www.stripe.com/pricing?x=1#top', 'stripe.com'],
    ['http://blog.acme.co.uk/post', 'acme.co.uk'],
    ['jane.doe@Acme.io', 'acme.io'],
    ['acme.com.', 'acme.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
  ])('normalizes %p to %p', (input, expected) => {
    expect(parseDomain(input)).toEqual({ kind: 'domain', domain: expected });
  });

  it.each([[''], ['   '], [null], [undefined]])('treats %p as blank', (input) => {
    expect(parseDomain(input)).toEqual({ kind: 'blank' });
  });

  it.each([['foo'], ['not a domain'], ['1.2.3.4'], ['localhost'], ['a..com'], ['-bad.com'], ['http://'], [42]])(
    'rejects %p',
    (input) => {
      expect(parseDomain(input).kind).toBe('invalid');
    },
  );
});

describe('helpers', () => {
  it('recognizes company UUIDs', () => {
    expect(isCompanyUuid('3f2b8c1e-0d4a-4b5e-9f6a-1c2d3e4f5a6b')).toBe(true);
    expect(isCompanyUuid('stripe.com')).toBe(false);
  });
  it('quotes and shortens invalid input', () => {
    expect(invalidDomainMessage('foo')).toBe('Invalid domain: "foo"');
    expect(invalidDomainMessage('x'.repeat(100))).toBe(`Invalid domain: "${'x'.repeat(57)}..."`);
  });
});
