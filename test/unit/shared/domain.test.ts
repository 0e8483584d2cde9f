import fc from 'fast-check';
import { toASCII } from 'tr46';
import {
  parseDomain,
  isCompanyUuid,
  invalidDomainMessage,
  uts46Ascii,
  UTS46_LOOKUP,
} from '../../../src/shared/domain/domain';

describe('parseDomain', () => {
  it.each([
    ['stripe.com', 'stripe.com'],
    ['  Stripe.COM ', 'stripe.com'],
    ['https://www.stripe.com/pricing?x=1#top', 'stripe.com'],
    ['http://blog.acme.co.uk/post', 'acme.co.uk'],
    ['jane.doe@Acme.io', 'acme.io'],
    ['https://user:secret@www.acme.com:8443/x', 'acme.com'],
    ['acme.com:8080', 'acme.com'],
    ['acme.com.', 'acme.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['ab--cd.com', 'ab--cd.com'],
  ])('normalizes %p to %p', (input, expected) => {
    expect(parseDomain(input)).toEqual({ kind: 'domain', domain: expected });
  });

  // Issue 13 item 5: UTS #46 mapping and NFC before punycode (each of these gave another domain, or none, before).
  it.each([
    ['zero-width space (ignored)', 'stri\u200Bpe.com', 'stripe.com'],
    ['soft hyphen (ignored)', 'stri\u00ADpe.com', 'stripe.com'],
    ['decomposed u + combining diaeresis (NFC)', 'mu\u0308nchen.de', 'xn--mnchen-3ya.de'],
    ['half-width katakana (mapped to full width)', '\uFF76\uFF80\uFF76\uFF85.jp', 'xn--lcka3d1b.jp'],
    ['the fi ligature', '\uFB01rma.de', 'firma.de'],
    ['full-width letters and full stop', 'ｓｔｒｉｐｅ．ｃｏｍ', 'stripe.com'],
    ['ideographic full stop', '例え。jp', 'xn--r8jz45g.jp'],
    ['full-width host inside a URL', 'https://ｗｗｗ．ｓｔｒｉｐｅ．ｃｏｍ/pricing', 'stripe.com'],
  ])('maps %s', (_case, input, expected) => {
    expect(parseDomain(input)).toEqual({ kind: 'domain', domain: expected });
  });

  // Hosts under a private suffix of the Public Suffix List are companies of their own.
  it.each([
    ['acme.herokuapp.com', 'acme.herokuapp.com'],
    ['https://www.acme.herokuapp.com/app', 'acme.herokuapp.com'],
    ['shop.myshopify.com', 'shop.myshopify.com'],
    ['x.github.io', 'x.github.io'],
    ['herokuapp.com', 'herokuapp.com'],
    ['github.io', 'github.io'],
  ])('keeps %p as %p (private suffix)', (input, expected) => {
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

  // Issue 13 item 5: what is not a hostname is refused (each was accepted before).
  it.each([
    ['an underscore label (DNS record name)', '_dmarc.stripe.com'],
    ['an underscore in a host', 'my_app.herokuapp.com'],
    ['NUL', 'stripe\u0000.com'],
    ['a label over 63 octets', `${'a'.repeat(64)}.com`],
    ['a name over 253 octets', `${Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.')}.com`],
    ['a label of 54 characters, 65 octets in punycode', `${'aüböcä'.repeat(9)}.de`],
    ['a leading dot', '.stripe.com'],
    ['a doubled trailing dot', 'stripe.com..'],
    ['a full-width solidus that maps to "/" inside the host', 'stripe．com／x'],
    ['a zero-width joiner outside its allowed context', 'stri\u200Dpe.com'],
    ['invalid punycode', 'xn--abc.com'],
    ['an IPv6 literal', 'http://[::1]/'],
  ])('refuses %s', (_case, input) => {
    expect(parseDomain(input)).toEqual({ kind: 'invalid', input });
  });

  it('accepts a 253-octet name and labels of 63 octets', () => {
    const name = `${['a', 'b', 'c'].map((c) => c.repeat(63)).join('.')}.${'d'.repeat(57)}.com`;
    expect(name.length).toBe(253);
    expect(parseDomain(name)).toEqual({ kind: 'domain', domain: `${'d'.repeat(57)}.com` });
  });
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

describe('uts46Ascii (the plain ASCII fast path)', () => {
  const lookup = UTS46_LOOKUP;
  const hostChars = fc.constantFrom(...'abcXYZ019-._ ~@:xn'.split(''));

  it('answers exactly as tr46 for any ASCII host', () => {
    fc.assert(
      fc.property(fc.string({ unit: hostChars, maxLength: 30 }), (host) => {
        expect(uts46Ascii(host)).toBe(toASCII(host, lookup));
      }),
      { numRuns: 2000 },
    );
  });

  it('still sends punycode labels through tr46 (xn-- is decoded and checked)', () => {
    expect(uts46Ascii('XN--BCHER-KVA.example')).toBe('xn--bcher-kva.example');
    expect(uts46Ascii('xn--a.com')).toBe(toASCII('xn--a.com', lookup));
  });
});

describe('loading', () => {
  // The bundle unpacks tldts's and tr46's data when they are first required (src/shared/domain/packed-data.ts).
  it('requires tldts at the first domain and tr46 at the first non-ASCII host, not when loaded', () => {
    const required: string[] = [];
    jest.isolateModules(() => {
      jest.doMock('tldts', () => (required.push('tldts'), jest.requireActual('tldts')));
      jest.doMock('tr46', () => (required.push('tr46'), jest.requireActual('tr46')));
      const domain: typeof import('../../../src/shared/domain/domain') = require('../../../src/shared/domain/domain');
      expect(required).toEqual([]);
      expect(domain.parseDomain('https://www.Stripe.com/x')).toEqual({ kind: 'domain', domain: 'stripe.com' });
      expect(required).toEqual(['tldts']);
      expect(domain.parseDomain('münchen.de')).toEqual({ kind: 'domain', domain: 'xn--mnchen-3ya.de' });
      expect(domain.parseDomain('köln.de')).toEqual({ kind: 'domain', domain: 'xn--kln-sna.de' });
      expect(required).toEqual(['tldts', 'tr46']);
    });
  });
});
