// The exclude-domains sources the panel holds, in the order the user added them (a later source's domains are more
// recent): lists the server read from sheets and the pasted text. The server normalizes, de-duplicates and counts
// them (summarizeSearchExcludeDomains), so no domain parsing is bundled into the page.
import type { ExcludeEntry, ExcludeSummary } from '../../src/search/contract';

export type { ExcludeEntry, ExcludeSummary };

/** The summary of no sources at all (shown before the first answer, without a server call). */
export const EMPTY_SUMMARY: ExcludeSummary = {
  sources: [],
  count: 0,
  invalid: [],
  duplicates: 0,
  overLimit: false,
  overLimitMessage: null,
  toSend: [],
};

export function pastedEntry(text: string): ExcludeEntry {
  return { id: 'pasted', label: 'Pasted list', text };
}

/** Replaces the source with the same id, or adds it last. */
export function upsertSource(sources: readonly ExcludeEntry[], source: ExcludeEntry): ExcludeEntry[] {
  const kept = sources.filter((existing) => existing.id !== source.id);
  return [...kept, source];
}
