import fs from 'node:fs';
import path from 'node:path';

/**
 * The README and docs/ link to each other and to code by relative paths; a moved file or a renamed heading would
 * leave a reader at a dead end. Every relative link must name a file that exists and, with a #fragment into a
 * markdown page, a heading of that page (GitHub's anchor rule: lower case, punctuation dropped, spaces to dashes).
 */
const ROOT = path.resolve(__dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(full);
    return e.name.endsWith('.md') ? [full] : [];
  });
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set(
    text
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) =>
        l
          .replace(/^#+ /, '')
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\- _]/gu, '')
          .replace(/ /g, '-'),
      ),
  );
}

const pages = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs')), ...markdownFiles(path.join(ROOT, 'bench'))];

describe('documentation links', () => {
  it.each(pages.map((p) => [path.relative(ROOT, p), p]))('%s: every relative link resolves', (_name, page) => {
    const broken: string[] = [];
    const text = fs.readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = match[1]!;
      if (/^[a-z]+:/i.test(link)) continue;
      const [target, fragment] = link.split('#') as [string, string | undefined];
      const file = target ? path.resolve(path.dirname(page), target) : page;
      if (!fs.existsSync(file)) broken.push(`${link} (no such file)`);
      else if (fragment && file.endsWith('.md') && !anchors(file).has(fragment)) broken.push(`${link} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
