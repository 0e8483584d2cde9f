// Company domain input: turns what users paste into a sheet (URLs, emails, odd case, IDN, whitespace) into the
// registered domain the service is keyed by, or a reason it is not one. Pure; shared by formulas, bulk enrichment
// and the search panel's exclude list.
//
// The rules, in order:
// 1. The host is cut out of the input on ASCII delimiters only, as a URL parser does: scheme `x://`, then the
//    path/query/fragment, then any `user@` (so an e-mail address gives its domain), then a `:port`.
// 2. UTS #46 processing (tr46: non-transitional, CheckBidi, CheckJoiners, UseSTD3ASCIIRules) maps the host:
//    case folding, full-width forms (`ｓｔｒｉｐｅ．ｃｏｍ`), ideographic full stops (`例え。jp`), compatibility
//    characters (`ﬁ`, half-width katakana), ignored characters (zero-width space, soft hyphen), then NFC and
//    punycode. What the standard disallows is refused, and STD3 rules refuse what is not a hostname: `_` (so
//    `_dmarc.stripe.com` and `my_app.herokuapp.com`), NUL, spaces, other punctuation. Hyphens follow the browsers'
//    lookup profile (CheckHyphens off, so `ab--cd.com` is accepted), except that a label never starts or ends
//    with `-`.
// 3. DNS lengths: a label is 1..63 octets and the name at most 253 (in its punycode form). One trailing dot (an
//    absolute name, `acme.com.`) is dropped; a leading dot, a doubled dot anywhere (`acme.com..`) or an empty
//    label is refused rather than guessed at.
// 4. The registered domain is the label under the public suffix, private suffixes of the Public Suffix List
//    included: `www.acme.herokuapp.com` -> `acme.herokuapp.com`, `shop.myshopify.com`, `x.github.io` stay
//    companies of their own (collapsing them would look up Heroku, Shopify or GitHub). A host that *is* a private
//    suffix (`herokuapp.com`, `github.io`) is that platform's own domain. IP addresses and names under no ICANN
//    top-level domain are refused.
import type * as Tldts from 'tldts';
import type * as Tr46 from 'tr46';

// tldts and tr46 are required on first use, not imported: the bundle evaluates a module on its first require, and
// their data is unpacked when they are evaluated (src/shared/domain/packed-data.ts), so an execution that parses no domain
// (a panel's poll, a research tick) never pays for it, and one that meets only ASCII hosts never unpacks UTS #46.
declare const require: { (id: 'tldts'): typeof Tldts; (id: 'tr46'): typeof Tr46 };
let tldts: typeof Tldts | undefined;
let tr46: typeof Tr46 | undefined;
const publicSuffixes = () => (tldts ??= require('tldts'));
const uts46 = () => (tr46 ??= require('tr46'));

export type DomainParse = { kind: 'domain'; domain: string } | { kind: 'blank' } | { kind: 'invalid'; input: string };

const MAX_INPUT_LENGTH = 2048;
const MAX_LABEL_OCTETS = 63;
const MAX_NAME_OCTETS = 253;

/** UTS #46 as browsers look names up (the options tr46 gets). */
export const UTS46_LOOKUP = {
  checkHyphens: false,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  transitionalProcessing: false,
  verifyDNSLength: false,
} as const;

/** The host part of a pasted value (URL, e-mail address, `host:port` or a bare name), or null for an IPv6 literal. */
function hostOf(text: string): string | null {
  const withoutScheme = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/\//, '');
  const authority = withoutScheme.split(/[/?#\\]/, 1)[0];
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return null;
  return host.replace(/:\d*$/, '');
}

/** Plain ASCII hostnames (no punycode label), where UTS #46 only lower-cases: most of what users paste. */
const PLAIN_ASCII_HOST = /^[A-Za-z0-9.-]+$/;

/**
 * UTS #46 ToASCII of a host. For a plain ASCII host without an `xn--` label the mapping is lower-casing (every
 * other ASCII character is disallowed by STD3 and refused by the pattern; bidi and joiner rules need non-ASCII),
 * so it skips tr46, whose per-character table search costs about 0.5 ms per host in Apps Script's engine.
 */
export function uts46Ascii(host: string): string | null {
  if (PLAIN_ASCII_HOST.test(host)) {
    const lower = host.toLowerCase();
    if (!lower.includes('xn--')) return lower;
  }
  return uts46().toASCII(host, UTS46_LOOKUP);
}

/** The host as DNS sends it (UTS #46 mapped, punycode, lower case), or null when it is not a valid hostname. */
function asciiHostname(host: string): string | null {
  const mapped = uts46Ascii(host);
  if (mapped === null) return null;
  const name = mapped.endsWith('.') ? mapped.slice(0, -1) : mapped;
  if (name.length === 0 || name.length > MAX_NAME_OCTETS) return null;
  const labels = name.split('.');
  const validLabel = (label: string) =>
    label.length > 0 &&
    label.length <= MAX_LABEL_OCTETS &&
    /^[a-z0-9-]+$/.test(label) &&
    !label.startsWith('-') &&
    !label.endsWith('-');
  return labels.length >= 2 && labels.every(validLabel) ? name : null;
}

/** Normalizes one cell value to a registered domain (`https://www.Stripe.com/pricing` -> `stripe.com`). */
export function parseDomain(value: unknown): DomainParse {
  if (value === null || value === undefined) return { kind: 'blank' };
  const text = String(value).trim();
  if (text === '') return { kind: 'blank' };
  if (text.length > MAX_INPUT_LENGTH || /\s/.test(text)) return { kind: 'invalid', input: text };
  const host = hostOf(text);
  const hostname = host === null ? null : asciiHostname(host);
  if (hostname === null) return { kind: 'invalid', input: text };
  const { parse } = publicSuffixes();
  const withPrivate = parse(hostname, { allowPrivateDomains: true });
  if (withPrivate.isIp) return { kind: 'invalid', input: text };
  if (withPrivate.isPrivate && withPrivate.domain) return { kind: 'domain', domain: withPrivate.domain };
  const icann = withPrivate.isPrivate ? parse(hostname) : withPrivate;
  if (!icann.isIcann || !icann.domain) return { kind: 'invalid', input: text };
  return { kind: 'domain', domain: icann.domain };
}

/** A company UUID as the service issues them (lookup accepts a domain or a UUID). */
export function isCompanyUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim());
}

/** Cell text for an input that is not a domain: short, quoted, and cut so it never floods a cell. */
export function invalidDomainMessage(input: string): string {
  const shown = input.length > 60 ? `${input.slice(0, 57)}...` : input;
  return `Invalid domain: "${shown}"`;
}
