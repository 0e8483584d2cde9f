// Report rendering for the Research panel: markdown from the service (untrusted) -> marked -> DOMPurify, with `[n]`
// citations linked to their sources and every link opening in a new tab (http/https only). Any report is shown:
// one whose containers nest deeper than MAX_CONTAINER_DEPTH (marked recurses per level: 5,000 nested blockquotes
// overflow the stack, deep lists take seconds), or that marked or DOMPurify fail on, is shown as escaped plain text
// under a short note. Nothing unsanitized is ever returned.
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import type { Source } from '../../src/api/types';
import { linkCitations, safeUrl } from './citations';

/** Blockquote and list levels a line may open (a report nests a few; 32 keeps a 1 MB report well under a second). */
export const MAX_CONTAINER_DEPTH = 32;

const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))+/;
const CONTAINER_MARKER = />|[-*+]|\d{1,9}[.)]/g;

let hooked = false;

function installLinkHook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      if (!safeUrl(node.getAttribute('href') ?? '')) node.removeAttribute('href');
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/**
 * The deepest container nesting a line opens: its blockquote and list markers, plus two columns of indentation
 * before the first marker per list level it sits in.
 */
export function deepestNesting(markdown: string): number {
  let deepest = 0;
  for (const line of markdown.split('\n')) {
    const prefix = CONTAINER_PREFIX.exec(line);
    if (!prefix) continue;
    const markers = prefix[0].match(CONTAINER_MARKER)?.length ?? 0;
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
    deepest = Math.max(deepest, markers + Math.floor(indent / 2));
  }
  return deepest;
}

/** Unsanitized HTML of a markdown report, or null when it nests too deeply for marked or marked fails on it. */
export function markdownHtml(markdown: string, sources: readonly Source[]): string | null {
  try {
    if (deepestNesting(markdown) > MAX_CONTAINER_DEPTH) return null;
    return marked.parse(linkCitations(markdown, sources), { async: false, gfm: true }) as string;
  } catch {
    return null;
  }
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The report as escaped plain text under a short note: what the panel shows when the markdown cannot be rendered. */
export function plainTextReport(markdown: string): string {
  return (
    '<p class="muted report-fallback">This report could not be formatted, so it is shown as plain text.</p>' +
    `<pre class="report-plain">${escapeHtml(markdown)}</pre>`
  );
}

/** Sanitized HTML of a markdown report; never throws. */
export function renderMarkdown(markdown: string, sources: readonly Source[]): string {
  const html = markdownHtml(markdown, sources);
  if (html === null) return plainTextReport(markdown);
  try {
    installLinkHook();
    return DOMPurify.sanitize(html, {
      FORBID_TAGS: ['style', 'form', 'input', 'button', 'img', 'iframe'],
      FORBID_ATTR: ['style'],
    });
  } catch {
    return plainTextReport(markdown);
  }
}
