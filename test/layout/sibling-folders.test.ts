/**
 * The sibling-folder cycle rule (eslint-rules/sibling-folders.js) on small trees of its own,
 * and on this repository: no two sibling folders of src/ or the sandbox's src/ import each
 * other at run time, directly or through other siblings.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  folderGraph as graph, pathBetween as between, runtimeSpecifiers, siblingEdge,
} from '../../eslint-rules/folder-graph.js';
const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'folders-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 't-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Every cycle of sibling folders under `roots`, as "a → b → a" lines relative to the repository. */
function siblingCycles(roots: string[]): string[] {
  const g = graph(roots);
  return [...g].flatMap(([a, targets]) => [...targets.keys()].flatMap((b) => {
    const back = between(g, b, a);
    return back ? [[a, ...back].map((folder) => relative(root, folder)).join(' → ')] : [];
  }));
}

describe('the sibling-folder graph', () => {
  it('keeps run-time imports and leaves type-only ones out', () => {
    const text = "import type { A } from './a.js';\nimport { type B } from './b.js';\nimport { c, type D } from './c.js';\n"
      + "export { e } from './e.js';\nexport type { F } from './f.js';\nimport './g.js';\n";
    expect(runtimeSpecifiers(text)).toEqual(['./c.js', './e.js', './g.js']);
  });

  it('joins the two folders below the common parent, and nothing for a file of the parent itself', () => {
    expect(siblingEdge('/s/service/writes/create.ts', '/s/service/commit/deep/ops.ts')).toEqual(['/s/service/writes', '/s/service/commit']);
    expect(siblingEdge('/s/service/ports.ts', '/s/service/commit/ops.ts')).toBeUndefined();
    expect(siblingEdge('/s/service/commit/ops.ts', '/s/service/ports.ts')).toBeUndefined();
  });

  it('finds a cycle through a third folder and names the way back', () => {
    const dir = tree({
      'a/one.ts': "import { two } from '../b/two.js';\n",
      'b/two.ts': "import { three } from '../c/three.js';\n",
      'c/three.ts': "import { one } from '../a/one.js';\n",
      'd/four.ts': "import type { One } from '../a/one.js';\n",
      'a/one.test.ts': "import { four } from '../d/four.js';\n",
    });
    const g = graph([dir]);
    expect(between(g, join(dir, 'b'), join(dir, 'a'))).toEqual([join(dir, 'b'), join(dir, 'c'), join(dir, 'a')]);
    expect(g.has(join(dir, 'd'))).toBe(false);
    expect(g.get(join(dir, 'c'))?.get(join(dir, 'a'))).toBe('three.ts → one.ts');
  });

  it('in this repository, no two sibling folders import each other', () => {
    expect(siblingCycles([join(root, 'src'), join(root, 'packages/kube-sandbox/src')])).toEqual([]);
  });
});
