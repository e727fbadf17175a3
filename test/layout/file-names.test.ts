/**
 * Names that say where a thing lives (docs/architecture.md, "Features and layers"): no test
 * wiring in a product tree (no `testing/` folder under a src/), no file named like its folder
 * (`reads/reads.ts` says nothing the folder does not), and no file name used twice among one
 * package's production files, so a name found in a log, a stack or a review points at one file.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const trees = ['src', 'packages/kube-sandbox/src', 'packages/client/src'];

function walk(dir: string): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'testdata') continue;
      dirs.push(path);
      const below = walk(path);
      dirs.push(...below.dirs);
      files.push(...below.files);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
  return { dirs, files };
}

/** A file named like its folder: the folder's name, its singular, or the folder's name twice. */
export function namedLikeFolder(path: string): boolean {
  const name = basename(path, '.ts');
  const folder = basename(dirname(path));
  return name === folder || `${name}s` === folder || name === `${folder}-${folder}`;
}

describe('names in the product trees', () => {
  it('spots a file named like its folder', () => {
    expect(['reads/reads.ts', 'wait/wait.ts', 'revisions/revision.ts', 'reads/agent-reads.ts'].map(namedLikeFolder))
      .toEqual([true, true, true, false]);
  });

  it.each(trees)('%s holds no testing/ folder: test wiring lives under test/support/', (tree) => {
    const testing = walk(join(root, tree)).dirs.filter((dir) => basename(dir) === 'testing');
    expect(testing.map((dir) => relative(root, dir))).toEqual([]);
  });

  it.each(trees)('%s names no file like its folder', (tree) => {
    const files = walk(join(root, tree)).files.filter(namedLikeFolder);
    expect(files.map((file) => relative(root, file))).toEqual([]);
  });

  it.each(trees)('%s uses each file name once (index.ts aside)', (tree) => {
    const byName = new Map<string, string[]>();
    for (const file of walk(join(root, tree)).files) {
      byName.set(basename(file), [...byName.get(basename(file)) ?? [], file]);
    }
    const shared = [...byName].filter(([name, files]) => name !== 'index.ts' && files.length > 1)
      .map(([, files]) => files.map((file) => relative(root, file)).join(' and '));
    expect(shared).toEqual([]);
  });
});
