// Company domain input: turns what users paste into a sheet (URLs, emails, odd case, IDN, whitespace) into the
// registered domain the service is keyed by, or a reason it is not one. Pure; shared by formulas, bulk enrichment
// and the search panel's exclude list.
import { parse } from 'tldts';
import { toASCII } from 'punycode';

export type DomainParse =
  | { kind: 'domain'; domain: string }
  | { kind: 'blank' }
  | { kind: 'invalid'; input: string };

const MAX_INPUT_LENGTH = 2048;

/** Normalizes one cell value to a registered domain (`https://www.Stripe.com/pricing` -> `stripe.com`). */
export function parseDomain(value: unknown): DomainParse {
  if (value === null || value === undefined) return { kind: 'blank' };
  const text = String(value).trim();
  if (text === '') return { kind: 'blank' };
  if (text.length > MAX_INPUT_LENGTH || /\s/.test(text)) return { kind: 'invalid', input: text };
  const parsed = parse(text.toLowerCase());
  if (parsed.isIp || !parsed.domain || !parsed.isIcann) return { kind: 'invalid', input: text };
  let ascii: string;
  try {
    ascii = toASCII(parsed.domain);
  } catch {
    return { kind: 'invalid', input: text };
  }
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(ascii) || ascii.split('.').some((label) => label.startsWith('-') || label.endsWith('-'))) {
    return { kind: 'invalid', input: text };
  }
  return { kind: 'domain', domain: ascii };
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
