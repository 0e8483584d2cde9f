// Whether a finished task is about the company in a row, before "Write to selected row" puts its result there: the
// domains a brief names against the domains in the row's cells. Pure.
import { parseDomain } from '../../shared/domain/domain';

/** Words that look like host names or URLs (a dot between letters or digits). */
const DOMAIN_LIKE = /(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/\S*)?/gi;

/** The registered domains a text names, in order of first mention. */
export function domainsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.match(DOMAIN_LIKE) ?? []) {
    const parsed = parseDomain(match);
    if (parsed.kind === 'domain' && !found.includes(parsed.domain)) found.push(parsed.domain);
  }
  return found;
}

/**
 * The task's domain and the row's when the brief names companies and the row holds companies and none is shared;
 * null when they match or either side names no company (nothing to compare).
 */
export function companyMismatch(
  brief: string,
  rowValues: readonly string[],
): { taskDomain: string; rowDomain: string } | null {
  const taskDomains = domainsIn(brief);
  const rowDomains = rowValues.flatMap((value) => {
    const parsed = parseDomain(value);
    return parsed.kind === 'domain' ? [parsed.domain] : [];
  });
  if (taskDomains.length === 0 || rowDomains.length === 0) return null;
  return taskDomains.some((domain) => rowDomains.includes(domain))
    ? null
    : { taskDomain: taskDomains[0], rowDomain: rowDomains[0] };
}
