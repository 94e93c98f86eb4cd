import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';

const pages = [
  'README.md',
  ...readdirSync(path.join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The anchors a Markdown page's headings get on GitHub: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Relative links of a page outside code: `[text](target)` and `![alt](target)`. */
function linksOf(text: string): string[] {
  const outsideCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('the README and docs/', () => {
  it('has pages to check', () => {
    expect(pages.length).toBeGreaterThan(8);
  });

  it.each(pages)('%s: every relative link points at a file (and a heading) that exists', (page) => {
    const text = readFileSync(path.join(projectRoot, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      const [file, anchor] = link.split('#');
      const target = file === '' ? path.join(projectRoot, page) : path.resolve(path.dirname(path.join(projectRoot, page)), decodeURIComponent(file));
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${path.relative(projectRoot, target)}`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('the README stays a front door: under 300 lines, citing no document its readers do not have', () => {
    const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(300);
    expect(readme).not.toMatch(/contracts(\.md)? ?§|service-spec\.md|\.\.\/shared/);
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});
