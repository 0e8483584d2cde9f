// Citation handling of research reports, pure: `[n]` in the markdown becomes a link to source n when that source's
// URL is plain http(s); any other URL is never linked. The panel shows the report's `sources` as one numbered list,
// so a list of the same sources at the end of the markdown ("## Sources" then `[1] https://...` lines, which markdown
// would run together into one paragraph) is left out.
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

const SOURCES_HEADING = /^#{1,6}\s*(sources|references)\s*:?\s*$/i;
const SOURCE_LINE = /^\s*(?:[-*]\s*)?\[?\d{1,4}\]?[.:)]?\s+\S+\s*$/;

/** The markdown without its closing source list, when that list holds nothing but numbered sources. */
export function withoutSourceList(markdown: string): string {
  const lines = markdown.split('\n');
  const heading = lines.map((line) => SOURCES_HEADING.test(line.trim())).lastIndexOf(true);
  if (heading < 0) return markdown;
  const rest = lines.slice(heading + 1).filter((line) => line.trim() !== '');
  if (rest.length === 0 || !rest.every((line) => SOURCE_LINE.test(line))) return markdown;
  return lines.slice(0, heading).join('\n').replace(/\s*$/, '\n');
}
