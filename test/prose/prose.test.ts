/**
 * Prose that lasts: every module opens with a header of at most eight lines (what it owns,
 * the rule it keeps and why; longer narratives belong in docs/), the tree cites no document
 * outside the repository, no issue and no era, and docs/development.md lists every doc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../chart-package/chart-files.js';

const MAX_HEADER_LINES = 8;

/** Files below `dir` (relative to the root) whose name passes `keep`, skipping build output. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) found.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, dir));
  return found;
}

const packageSources = readdirSync(join(ROOT, 'packages')).map((name) => join('packages', name, 'src'));
const production = ['src', ...packageSources].flatMap((dir) => filesUnder(dir, (name) =>
  name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.generated.ts')));

/** Lines of the comment that opens a module (after a `#!` line), 0 when it opens with code. */
function headerLines(text: string): number {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && (lines[first]!.startsWith('#!') || lines[first]!.trim() === '')) first++;
  const opening = lines[first] ?? '';
  if (opening.startsWith('/*')) {
    let last = first;
    while (last < lines.length && !lines[last]!.includes('*/')) last++;
    return last - first + 1;
  }
  let last = first;
  while (last < lines.length && lines[last]!.startsWith('//')) last++;
  return last - first;
}

describe('module headers', () => {
  it('finds the production modules', () => {
    expect(production.length).toBeGreaterThan(200);
    expect(production).toContain('src/main.ts');
  });

  it('counts a header from its first line to its closing line', () => {
    expect(headerLines('#!/usr/bin/env node\n/**\n * One.\n */\nexport {};\n')).toBe(3);
    expect(headerLines('// one\n// two\nexport {};\n')).toBe(2);
    expect(headerLines('export {};\n')).toBe(0);
  });

  it(`every production module opens with a header of at most ${MAX_HEADER_LINES} lines`, () => {
    const long = production
      .map((file) => ({ file, lines: headerLines(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter((h) => h.lines > MAX_HEADER_LINES)
      .map((h) => `${h.file}: ${h.lines} lines`);
    expect(long).toEqual([]);
  });
});

/** Words that cite what a reader of this repository cannot open: planning notes, issues, eras. */
const CITATIONS: ReadonlyArray<[string, RegExp]> = [
  ['a style guide kept outside the repository', /house[ -]style/i],
  ['a reference document kept outside the repository', /anchor[ -]inventory|reference inventory/i],
  ['an issue', /\bissue #?\d|agent-service issue/i],
  ['an era', /\beras?\b/i],
];

const prose = [
  ...['src', 'packages', 'scripts', 'bench', 'hack', 'test'].flatMap((dir) => filesUnder(dir, (name) =>
    /\.(ts|mts|mjs|js|sh|md)$/.test(name) && !name.endsWith('.generated.ts'))),
  ...filesUnder('docs', (name) => name.endsWith('.md')),
  'README.md',
].filter((file) => file !== relative(ROOT, import.meta.filename));

describe('citations', () => {
  it.each(CITATIONS)('no file cites %s', (_what, pattern) => {
    const hits = prose.flatMap((file) => readFileSync(join(ROOT, file), 'utf8').split('\n')
      // A test may read a shared reference file by its path; the path is not a citation.
      .map((line, i) => [line.replaceAll('reference/anchor-inventory.md', ''), i] as const)
      .filter(([line]) => pattern.test(line))
      .map(([line, i]) => `${file}:${i + 1}: ${line.trim()}`));
    expect(hits).toEqual([]);
  });
});

describe('docs/development.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');

  it.each(readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')))('lists docs/%s', (name) => {
    expect(doc).toContain(name === 'development.md' ? 'development.md' : `(${name})`);
  });
});
