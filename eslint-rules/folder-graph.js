// The run-time import graph between sibling folders, for the `folders/no-sibling-cycle` rule
// (eslint-rules/sibling-folders.js). Two folders with one parent are siblings; a file of one
// importing a file of the other (at any depth below each) is an edge between them. Type-only
// imports are left out, as import-x/no-cycle leaves them out: they vanish at run time.
// Plain JavaScript because eslint.config.js loads it without a TypeScript step.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(\.{1,2}\/[^']+)'|^\s*import\s+'(\.{1,2}\/[^']+)'/gm;

/** The relative specifiers of `text` that stay at run time (`import type` and all-`type` braces left out). */
export function runtimeSpecifiers(text) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const [, typeOnly, clause, spec, bare] = match;
    if (bare) { found.push(bare); continue; }
    if (typeOnly) continue;
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    const names = braces?.[1].split(',').map((s) => s.trim()).filter(Boolean);
    if (names?.every((s) => s.startsWith('type '))) continue;
    found.push(spec);
  }
  return found;
}

/** The sibling folders an import from `from` to `to` (absolute file paths) joins, or undefined. */
export function siblingEdge(from, to) {
  const a = dirname(from).split(sep);
  const b = dirname(to).split(sep);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (i >= a.length || i >= b.length) return undefined;
  return [a.slice(0, i + 1).join(sep), b.slice(0, i + 1).join(sep)];
}

function productionFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['testdata', 'node_modules'].includes(entry.name) ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** folder → { folder it imports → one file import that makes the edge }, over the production files under `roots`. */
export function folderGraph(roots) {
  const graph = new Map();
  for (const file of roots.flatMap(productionFiles)) {
    for (const spec of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      const edge = siblingEdge(file, target);
      if (!edge) continue;
      const [a, b] = edge;
      if (!graph.has(a)) graph.set(a, new Map());
      if (!graph.get(a).has(b)) graph.get(a).set(b, `${relative(a, file)} → ${relative(b, target)}`);
    }
  }
  return graph;
}

/** A path of folders from `start` to `goal` along the graph's edges, or undefined. */
export function pathBetween(graph, start, goal) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    if (folder === goal) {
      const path = [];
      for (let at = goal; at !== undefined; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!previous.has(next)) { previous.set(next, folder); queue.push(next); }
    }
  }
  return undefined;
}
