// Identifier helpers: turning a domain or URL into its registered domain (scheme, www., port, path and case
// removed) and recognising company UUIDs.
import { parse } from 'tldts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/**
 * The registered domain of a domain or URL ("https://WWW.Blog.Acme.co.uk/x" -> "acme.co.uk"),
 * or null when the text is not a valid public domain (no ICANN suffix, an IP, spaces, an e-mail address).
 */
export function registeredDomain(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return null;
  if (!trimmed.includes('://') && trimmed.includes('@')) return null;
  const parsed = parse(trimmed.toLowerCase());
  if (parsed.isIp || parsed.isIcann !== true || parsed.domain === null) return null;
  return parsed.domain;
}
