// Text a digest may post, whatever it is given: service text and names (a company's, a sheet's, the spreadsheet's) are
// made plain (control characters, line and paragraph separators and tabs become spaces; format characters go: the
// bidi embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069, the marks U+200E, U+200F and U+061C,
// zero-width characters, the BOM; lone surrogates too), made inert for the service's markup (Slack: &, < and > as
// entities; Google Chat, which documents no escape: < and > as ‹ ›) and clipped to a length measured as the post is
// (UTF-16 units: a code point takes one or two) after escaping, by whole code points and whole entities: a clip never
// splits an emoji or an "&amp;", and never makes a text longer than asked. Pure.
import type { WebhookService } from './webhook';

/** Characters that become a space: controls (C0, DEL, C1) and the line and paragraph separators. */
const SPACING = /[\p{Cc}\u2028\u2029]+/gu;
/** Characters dropped: format characters (bidi controls, zero-width characters, the BOM) and lone surrogates. */
const DROPPED = /[\p{Cf}\p{Cs}]/gu;

/** Text with no control, format or separator character, its runs of white space made one space, trimmed. */
export function plainText(text: string): string {
  return text.replace(SPACING, ' ').replace(DROPPED, '').replace(/\s+/g, ' ').trim();
}

/** One code point made inert for the service's markup. */
function escapeChar(service: WebhookService, char: string): string {
  if (service === 'slack') return char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : char;
  return char === '<' ? '‹' : char === '>' ? '›' : char;
}

/** Service text made plain and inert for the service's markup. */
export function escapeFor(service: WebhookService, text: string): string {
  let out = '';
  for (const char of plainText(text)) out += escapeChar(service, char);
  return out;
}

/**
 * Service text made plain and inert, at most `units` long as posted (UTF-16 units): cut by whole code points and
 * whole entities, with "…" when cut.
 */
export function clipEscaped(service: WebhookService, text: string, units: number): string {
  const parts: string[] = [];
  let length = 0;
  for (const char of plainText(text)) {
    const part = escapeChar(service, char);
    parts.push(part);
    length += part.length;
  }
  if (length <= units) return parts.join('');
  let out = '';
  for (const part of parts) {
    if (out.length + part.length > units - 1) break;
    out += part;
  }
  return `${out}…`;
}

/** Text the add-in wrote (markup allowed) clipped to `units` UTF-16 units by whole code points, with "…" when cut. */
export function clip(text: string, units: number): string {
  if (text.length <= units) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > units - 1) break;
    out += char;
  }
  return `${out}…`;
}
