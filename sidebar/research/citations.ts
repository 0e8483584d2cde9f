// Citation handling of research reports, pure: `[n]` in the markdown becomes a link to source n when that source's
// URL is plain http(s); any other URL is never linked.
import type { Source } from '../../src/api/types';

const SAFE_URL = /^https?:\/\/[^\s<>"]+$/i;

export function safeUrl(url: unknown): string | null {
  return typeof url === 'string' && SAFE_URL.test(url.trim()) ? url.trim() : null;
}

/** `[n]` (not already a link or a link definition) -> a markdown link to source n, when that source has a safe URL. */
export function linkCitations(markdown: string, sources: readonly Source[]): string {
  const byId = new Map(sources.map((source) => [source.id, safeUrl(source.url)]));
  return markdown.replace(/\[(\d{1,4})\](?![(:])/g, (whole, id: string) => {
    const url = byId.get(Number(id));
    return url ? `[\\[${id}\\]](<${url.replace(/>/g, '%3E')}>)` : whole;
  });
}
