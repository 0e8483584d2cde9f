// The "exclude domains" list of the search panel: turns raw values (a sheet column, a pasted list, the domains already
// in a sheet) into registered domains with parseDomain, de-duplicates them, lists what is not a domain so the user can
// fix it, and applies the service's limit of 1,000 domains. Pure; used by the panel (live count) and re-checked by the
// server before anything is sent.
import { parseDomain } from '../shared/domain';

/** The service rejects more than this many domains after de-duplication (interface 4.9, section 8). */
export const EXCLUDE_DOMAIN_LIMIT = 1000;

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

/** Splits a pasted list on new lines, commas, semicolons, tabs and spaces. */
export function splitPastedList(text: string): string[] {
  return text.split(/[\s,;]+/).filter((part) => part !== '');
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
