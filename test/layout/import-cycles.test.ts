/**
 * No file of src/ imports one that imports it back, type-only imports included. ESLint's
 * import-x/no-cycle guards the imports that remain at run time; a cycle of type imports
 * still ties two files so that neither can move or be read without the other, so this
 * suite follows every import TypeScript sees (ts.preProcessFile) over the production files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'testdata' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** file → the files of `files` it imports (relative specifiers; `.js` names the `.ts` beside it). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((i) => i.fileName).filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts')).filter((t) => known.has(t));
    return [file, targets];
  }));
}

/** The strongly connected components of more than one file (Tarjan), each a cycle or several. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(root, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('no file of src/ imports one that imports it back, through type-only imports either', () => {
    const files = productionFiles(join(root, 'src'));
    const graph = importGraph(files);
    // The files are found and their imports resolved, or an empty graph would pass.
    expect(files.length).toBeGreaterThan(150);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(cycles(graph)).toEqual([]);
  });

  it('a cycle through type-only imports is found (the check can fail)', () => {
    const a = join(root, 'src/a.ts');
    const b = join(root, 'src/b.ts');
    expect(cycles(new Map([[a, [b]], [b, [a]]]))).toEqual([['src/a.ts', 'src/b.ts']]);
    const { importedFiles } = ts.preProcessFile("import type { X } from './b.js';\nexport type Y = X;\n", true, true);
    expect(importedFiles.map((i) => i.fileName)).toEqual(['./b.js']);
  });
});
