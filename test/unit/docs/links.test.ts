// The repository's READMEs and docs stand alone (a clone has no ../shared): every relative link and image points at a
// file inside the repository that exists, and none reaches outside it (issue 29). Issue 38 split the README into a
// users' page and docs/guide/ (per feature) + docs/design/ (for maintainers): every one of those pages is checked
// here, the README links each, and a link's #anchor names a heading of the page it points at.
import fs from 'fs';
import path from 'path';

const root = path.resolve(__dirname, '../../..');

/** The pages issue 38 moved out of the README: each must exist, be checked below and be linked from the README. */
const GUIDES = [
  'account.md',
  'account-watch.md',
  'company-search.md',
  'digest.md',
  'enrichment.md',
  'functions.md',
  'lookalikes.md',
  'playground.md',
  'research.md',
  'spending-guard.md',
  'spending-history.md',
  'tables.md',
].map((name) => `docs/guide/${name}`);
const DESIGN = [
  'enrichment.md',
  'functions.md',
  'layout.md',
  'limits-and-scale.md',
  'new-rows.md',
  'performance.md',
  'request-budget.md',
  'research.md',
  'search.md',
  'security.md',
  'shared-timer.md',
  'tables.md',
  'throughput.md',
].map((name) => `docs/design/${name}`);

function markdownFiles(): string[] {
  const found = ['README.md', 'dev/gas-runtime/README.md', 'dev/sandbox/README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return found.filter((file) => fs.existsSync(path.join(root, file)));
}

/** The file's markdown links and images that are not web addresses: [target, anchor]. */
function localLinks(text: string): Array<[string, string]> {
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((link) => !/^[a-z]+:/i.test(link))
    .map((link) => {
      const hash = link.indexOf('#');
      return hash < 0 ? [link, ''] : [link.slice(0, hash), link.slice(hash + 1)];
    });
}

/** The anchors GitHub gives a markdown page's headings (outside code blocks). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = match[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('documentation links', () => {
  it.each(markdownFiles())('%s links only files of the repository that exist', (file) => {
    const text = read(file);
    expect(text).not.toMatch(/\.\.\/shared\//);
    const broken = localLinks(text)
      .map(([target]) => target)
      .filter((target) => target !== '')
      .filter((target) => {
        const resolved = path.resolve(root, path.dirname(file), target);
        return !resolved.startsWith(root + path.sep) || !fs.existsSync(resolved);
      });
    expect(broken).toEqual([]);
  });

  it.each(markdownFiles())("%s: each #anchor names a heading of the page it links", (file) => {
    const missing = localLinks(read(file))
      .filter(([target, anchor]) => anchor !== '' && (target === '' || target.endsWith('.md')))
      .filter(([target, anchor]) => {
        const page = target === '' ? file : path.relative(root, path.resolve(root, path.dirname(file), target));
        return !fs.existsSync(path.join(root, page)) || !anchors(read(page)).has(anchor);
      })
      .map(([target, anchor]) => `${target}#${anchor}`);
    expect(missing).toEqual([]);
  });

  it('README.md is the users\' page: it opens with the two commands and stays within 300 lines', () => {
    const text = read('README.md');
    const opening = text.split('\n').slice(0, 40).join('\n');
    expect(opening).toContain('npm ci && npm start');
    expect(opening).toContain('npm ci && npm test');
    expect(text.split('\n').length).toBeLessThanOrEqual(301);
  });

  it('checks every guide and design page, and the README links each of them', () => {
    const checked = markdownFiles();
    const linked = new Set(
      localLinks(read('README.md')).map(([target]) => path.normalize(target)),
    );
    for (const page of [...GUIDES, ...DESIGN]) {
      expect(checked).toContain(page);
      expect(linked).toContain(page);
    }
    // And no page of docs/guide or docs/design is left out of the lists above.
    const onDisk = checked.filter((file) => /^docs\/(guide|design)\//.test(file));
    expect(onDisk.sort()).toEqual([...GUIDES, ...DESIGN].sort());
  });
});
