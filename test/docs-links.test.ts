/**
 * Every relative link of the documents a reader follows (README.md, CHANGELOG.md, docs/*.md,
 * results/README.md, deploy/*.md) leads somewhere: the file or directory exists, and a
 * `#fragment` names a heading of the Markdown file it points into (as GitHub makes the anchor).
 * Web links are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** The documents checked, relative to the repository root. */
function documents(): string[] {
  const inDir = (dir: string): string[] =>
    existsSync(join(ROOT, dir)) ? readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.md')).map((f) => `${dir}/${f}`) : [];
  return ['README.md', 'CHANGELOG.md', 'results/README.md', ...inDir('docs'), ...inDir('deploy')].filter((f) => existsSync(join(ROOT, f)));
}

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The link targets of a Markdown text: `[text](target)` and `[text](target "title")`. */
export function linkTargets(md: string): string[] {
  const out: string[] = [];
  for (const m of prose(md).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  return out;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (a repeated heading gets -1, -2, ... as on GitHub). */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutFences = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of withoutFences.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** What is wrong with each relative link of `file` (a path under `root`), one line each. */
export function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const hash = target.indexOf('#');
    const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const fragment = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
    const into = path === '' ? join(root, file) : resolve(root, dirname(file), path);
    if (!into.startsWith(root)) {
      problems.push(`${file}: '${target}' leaves the repository`);
      continue;
    }
    if (!existsSync(into)) {
      problems.push(`${file}: '${target}': no such file ${relative(root, into)}`);
      continue;
    }
    if (fragment !== null && fragment !== '') {
      if (statSync(into).isDirectory() || !into.endsWith('.md')) problems.push(`${file}: '${target}': a fragment into a file that is not Markdown`);
      else if (!anchors(readFileSync(into, 'utf8')).has(fragment)) problems.push(`${file}: '${target}': no heading '#${fragment}' in ${relative(root, into)}`);
    }
  }
  return problems;
}

describe('documentation links', () => {
  it('finds the documents', () => {
    const docs = documents();
    expect(docs).toContain('README.md');
    expect(docs).toContain('results/README.md');
    expect(docs).toContain('docs/RULES.md');
    expect(docs.filter((d) => d.startsWith('docs/')).length).toBeGreaterThan(1);
  });

  it('every relative link points to an existing file and heading', () => {
    const problems = documents().flatMap((f) => brokenLinks(ROOT, f));
    expect(problems).toEqual([]);
  });

  it('the README links the references it names', () => {
    const targets = linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    for (const doc of ['docs/cli.md', 'docs/formats.md', 'docs/SOLVER.md', 'docs/RULES.md', 'results/README.md', 'CHANGELOG.md'])
      expect(targets, doc).toContain(doc);
  });

  it('makes GitHub anchors', () => {
    expect(anchorOf('Solver strength: `results/solve/`')).toBe('solver-strength-resultssolve');
    expect(anchorOf('Deal numbers (scheme v1 — never changes once published)')).toBe('deal-numbers-scheme-v1--never-changes-once-published');
    expect(anchorOf('solve --json')).toBe('solve---json');
    expect(anchorOf('The [rules](RULES.md) of play')).toBe('the-rules-of-play');
    expect([...anchors('# A\n## A\n```\n# not a heading\n```\n### B c ##\n')]).toEqual(['a', 'a-1', 'b-c']);
  });

  it('reports a missing file, a missing heading, and nothing for web links or code', () => {
    const dir = join(ROOT, 'test', 'fixtures', 'links');
    const root = dirname(dirname(dir));
    const found = brokenLinks(root, 'fixtures/links/page.md');
    expect(found).toEqual([
      "fixtures/links/page.md: 'missing.md': no such file fixtures/links/missing.md",
      "fixtures/links/page.md: 'other.md#nowhere': no heading '#nowhere' in fixtures/links/other.md",
      "fixtures/links/page.md: '#not-here': no heading '#not-here' in fixtures/links/page.md",
    ]);
  });
});
