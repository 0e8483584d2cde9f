// The exclude-domains list the panel builds from several sources (companies already in a sheet, columns of any sheet,
// a pasted list): each source normalized on its own, the union de-duplicated with the count shown, and the 1,000 most
// recent kept only when the user agrees. Pure, so the unit tests cover it.
import { EXCLUDE_DOMAIN_LIMIT, mergeDomainLists, mostRecent, normalizeDomainList, splitPastedList, type DomainList } from '../../src/search/exclude-domains';

export interface ExcludeSource {
  id: string;
  label: string;
  list: DomainList;
}

export interface ExcludeSummary {
  /** Every distinct domain, oldest first. */
  domains: string[];
  /** Invalid inputs by source label. */
  invalid: Array<{ label: string; values: string[] }>;
  duplicates: number;
  overLimit: boolean;
  /** What would be sent: all domains, or the most recent 1,000 when the user accepted that. */
  toSend: string[];
}

export function pastedSource(text: string): ExcludeSource {
  return { id: 'pasted', label: 'Pasted list', list: normalizeDomainList(splitPastedList(text)) };
}

/** Sources in the order they were added (older first) form one list; a later source's domains are more recent. */
export function summarize(sources: readonly ExcludeSource[], acceptMostRecent: boolean): ExcludeSummary {
  const merged = mergeDomainLists(sources.map((source) => source.list.domains));
  const overLimit = merged.domains.length > EXCLUDE_DOMAIN_LIMIT;
  return {
    domains: merged.domains,
    invalid: sources.filter((source) => source.list.invalid.length > 0).map((source) => ({ label: source.label, values: source.list.invalid })),
    duplicates: merged.duplicates + sources.reduce((sum, source) => sum + source.list.duplicates, 0),
    overLimit,
    toSend: overLimit && acceptMostRecent ? mostRecent(merged.domains) : merged.domains,
  };
}

/** Replaces the source with the same id, or adds it last. */
export function upsertSource(sources: readonly ExcludeSource[], source: ExcludeSource): ExcludeSource[] {
  const kept = sources.filter((existing) => existing.id !== source.id);
  return [...kept, source];
}
