// The "exclude domains" list of the search panel: turns raw values (a sheet column, a pasted list, the domains already
// in a sheet) into registered domains with parseDomain, de-duplicates them, lists what is not a domain so the user can
// fix it, and applies the service's limit of 1,000 domains; also the panel's summary of all its exclude sources (the
// panel asks the server for it, so the public-suffix list stays out of the page). Pure; re-checked by checkSpec before
// anything is sent.
import { parseDomain } from '../shared/domain/domain';
import { EXCLUDE_DOMAIN_LIMIT } from './limits';

export { EXCLUDE_DOMAIN_LIMIT } from './limits';

export interface DomainList {
  /** Registered domains, oldest first: each domain sits at its latest occurrence in the input. */
  domains: string[];
  /** Inputs that are not domains, as typed, de-duplicated, in input order. */
  invalid: string[];
  /** How many inputs named a domain already counted. */
  duplicates: number;
}

/**
 * Normalizes values given oldest first (sheet rows top to bottom, pasted lines top to bottom). A domain that occurs
 * several times keeps the position of its latest occurrence, so "most recent" means "last seen".
 */
export function normalizeDomainList(values: readonly unknown[]): DomainList {
  const lastIndex = new Map<string, number>();
  const invalid: string[] = [];
  const invalidSeen = new Set<string>();
  let duplicates = 0;
  values.forEach((value, index) => {
    const parsed = parseDomain(value);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'invalid') {
      if (!invalidSeen.has(parsed.input)) {
        invalidSeen.add(parsed.input);
        invalid.push(parsed.input);
      }
      return;
    }
    if (lastIndex.has(parsed.domain)) duplicates++;
    lastIndex.set(parsed.domain, index);
  });
  const domains = [...lastIndex.entries()].sort((a, b) => a[1] - b[1]).map(([domain]) => domain);
  return { domains, invalid, duplicates };
}

/**
 * Splits a pasted list on new lines, commas, semicolons and tabs; a piece with spaces is split on them too when each
 * word is a domain ("a.com b.com"), and otherwise stays one entry ("not a domain"), as the same cell read from a
 * column would.
 */
export function splitPastedList(text: string): string[] {
  return text
    .split(/[\r\n\t,;]+/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .flatMap((piece) => {
      const words = piece.split(/\s+/);
      return words.length > 1 && words.every((word) => parseDomain(word).kind === 'domain') ? words : [piece];
    });
}

/** Joins lists given oldest first into one normalized list (a domain in several lists counts once, at its latest). */
export function mergeDomainLists(lists: readonly (readonly string[])[]): DomainList {
  return normalizeDomainList(lists.flat());
}

/** The `limit` most recent domains (the end of an oldest-first list). */
export function mostRecent(domains: readonly string[], limit = EXCLUDE_DOMAIN_LIMIT): string[] {
  return domains.length <= limit ? [...domains] : domains.slice(domains.length - limit);
}

/** The panel's and the server's sentence for a list over the limit. */
export function overLimitMessage(count: number): string {
  return `${count.toLocaleString('en-US')} domains to exclude: the service takes at most ${EXCLUDE_DOMAIN_LIMIT.toLocaleString('en-US')}. Use the ${EXCLUDE_DOMAIN_LIMIT.toLocaleString('en-US')} most recent, or shorten the list.`;
}

/**
 * One exclude source of the panel: a list the server already normalized (a sheet column, the companies already in a
 * sheet, a saved search's domains) or the text the user pasted.
 */
export type ExcludeEntry =
  { id: string; label: string; list: DomainList } | { id: string; label: string; text: string };

export interface ExcludeSummary {
  /** Each source's label and how many distinct domains it holds, in the order given. */
  sources: Array<{ id: string; label: string; count: number }>;
  /** Distinct domains over all sources. */
  count: number;
  /** Invalid inputs by source label (sources without any left out). */
  invalid: Array<{ label: string; values: string[] }>;
  duplicates: number;
  overLimit: boolean;
  /** The over-the-limit sentence while the user has not accepted the most recent; otherwise null. */
  overLimitMessage: string | null;
  /** What would be sent: all domains, or the most recent 1,000 when the user accepted that. */
  toSend: string[];
}

/**
 * Sources in the order they were added (older first) form one list; a later source's domains are more recent.
 * Pasted text is split and normalized here; lists are taken as the server normalized them.
 */
export function summarizeExclude(entries: readonly ExcludeEntry[], acceptMostRecent: boolean): ExcludeSummary {
  const sources = entries.map((entry) => ({
    id: entry.id,
    label: entry.label,
    list: 'text' in entry ? normalizeDomainList(splitPastedList(entry.text)) : entry.list,
  }));
  const merged = mergeDomainLists(sources.map((source) => source.list.domains));
  const overLimit = merged.domains.length > EXCLUDE_DOMAIN_LIMIT;
  return {
    sources: sources.map((source) => ({ id: source.id, label: source.label, count: source.list.domains.length })),
    count: merged.domains.length,
    invalid: sources
      .filter((source) => source.list.invalid.length > 0)
      .map((source) => ({ label: source.label, values: source.list.invalid })),
    duplicates: merged.duplicates + sources.reduce((sum, source) => sum + source.list.duplicates, 0),
    overLimit,
    overLimitMessage: overLimit && !acceptMostRecent ? overLimitMessage(merged.domains.length) : null,
    toSend: overLimit && acceptMostRecent ? mostRecent(merged.domains) : merged.domains,
  };
}
