// The repository's READMEs and docs stand alone (a clone has no ../shared): every relative link and image points at a
// file inside the repository that exists, and none reaches outside it (issue 29).
import fs from 'fs';
import path from 'path';

const root = path.resolve(__dirname, '../../..');

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

/** The targets of the file's markdown links and images that are not web addresses or anchors. */
function localTargets(text: string): string[] {
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1].split('#')[0])
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

describe('documentation links', () => {
  it.each(markdownFiles())('%s links only files of the repository that exist', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared\//);
    const broken = localTargets(text).filter((target) => {
      const resolved = path.resolve(root, path.dirname(file), target);
      return !resolved.startsWith(root + path.sep) || !fs.existsSync(resolved);
    });
    expect(broken).toEqual([]);
  });
});
