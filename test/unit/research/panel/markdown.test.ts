// The Report tab's renderer without a browser: the nesting guard, marked's part and the plain-text fallback. The
// sanitizing path (DOMPurify needs a DOM) runs in Chromium in test/e2e/research/research.test.ts.
import {
  deepestNesting,
  markdownHtml,
  MAX_CONTAINER_DEPTH,
  plainTextReport,
  renderMarkdown,
} from '../../../../sidebar/research/markdown';

const nestedBlockquotes = (depth: number) => `${'>'.repeat(depth)} deep`;

describe('report markdown', () => {
  it('measures container nesting from blockquote and list markers and list indentation', () => {
    expect(deepestNesting('# Title\n\nplain text\n    indented code')).toBe(0);
    expect(deepestNesting('> a\n> > b')).toBe(2);
    expect(deepestNesting('- a\n  - b\n    - c')).toBe(3);
    expect(deepestNesting('> - > 1. x')).toBe(4);
    expect(deepestNesting(nestedBlockquotes(5000))).toBe(5000);
  });

  // Issue 13 item 8: 5,000 nested blockquotes made marked throw "Maximum call stack size exceeded".
  it('gives no HTML for 5,000 nested blockquotes, and the fallback shows the text escaped under a note', () => {
    const markdown = `${nestedBlockquotes(5000)} <img src=x onerror=alert(1)> & "quotes"`;
    expect(markdownHtml(markdown, [])).toBeNull();
    const html = plainTextReport(markdown);
    expect(html).toMatch(
      /^<p class="muted report-fallback">This report could not be formatted, so it is shown as plain text\.<\/p><pre/,
    );
    expect(html).toContain('&gt;&gt;&gt; deep &lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;</pre>');
    expect(html).not.toContain('<img');
  });

  it('renders nesting up to the limit', () => {
    const html = markdownHtml(nestedBlockquotes(MAX_CONTAINER_DEPTH), []);
    expect(html?.match(/<blockquote>/g)).toHaveLength(MAX_CONTAINER_DEPTH);
    expect(markdownHtml(nestedBlockquotes(MAX_CONTAINER_DEPTH + 1), [])).toBeNull();
  });

  it('renders a 1 MB report (time printed)', () => {
    const section = (i: number) =>
      `## Section ${i}\n\n${'Acme sells **widgets** to [customers](https://example.com/c) in 40 countries [1]. Revenue grew 12%.\n\n'.repeat(8)}` +
      '- one\n  - nested\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> a quote\n\n';
    let markdown = '';
    for (let i = 0; markdown.length < 1_000_000; i++) markdown += section(i);
    const started = performance.now();
    const html = markdownHtml(markdown, [{ id: 1, url: 'https://example.com/source' }]);
    const elapsed = performance.now() - started;
    console.log(`1 MB report (${markdown.length} characters): markdown -> HTML in ${elapsed.toFixed(0)} ms`);
    expect(html).not.toBeNull();
    expect(html).toContain('<h2>Section 0</h2>');
    expect(html).toContain('<a href="https://example.com/source">[1]</a>');
  });

  it('never returns unsanitized HTML: without a DOM (DOMPurify unsupported) the report is shown as escaped text', () => {
    expect(renderMarkdown('# Title <script>alert(1)</script>', [])).toBe(
      plainTextReport('# Title <script>alert(1)</script>'),
    );
  });
});
