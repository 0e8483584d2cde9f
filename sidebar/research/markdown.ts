// Report rendering for the Research panel: markdown from the service (untrusted) -> marked -> DOMPurify, with `[n]`
// citations linked to their sources and every link opening in a new tab (http/https only).
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import type { Source } from '../../src/api/types';
import { linkCitations, safeUrl } from './citations';

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

/** Sanitized HTML of a markdown report. */
export function renderMarkdown(markdown: string, sources: readonly Source[]): string {
  installLinkHook();
  const html = marked.parse(linkCitations(markdown, sources), { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'img', 'iframe'], FORBID_ATTR: ['style'] });
}
