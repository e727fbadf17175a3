// Copies the non-TypeScript files under src/ (embedded chart schema, JSON and YAML
// data) next to the compiled JavaScript in dist/ (or the directory given as the first
// argument, e.g. the benchmarks' build), so runtime lookups relative to import.meta.url
// work the same from src/ (tests) and dist/ (npm start, the image). A file whose copy
// already has the same content is left alone, so a build of an unchanged tree writes nothing.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from './is-main.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Copies the assets into `target` (relative to the repository; default dist/, which leaves out `testing/`). */
export function copyAssets(target) {
  const dist = join(root, target ?? 'dist');
  walk(src, dist, target);
}

function walk(dir, dist, target) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry === 'testdata') continue;
      // dist/ ships without the test-support folders; the benchmarks' build keeps them.
      if (entry === 'testing' && !target) continue;
      walk(path, dist, target);
    } else if (!entry.endsWith('.ts')) {
      const copy = join(dist, relative(src, path));
      if (!existsSync(dirname(copy))) mkdirSync(dirname(copy), { recursive: true });
      const same = existsSync(copy) && statSync(copy).size === statSync(path).size
        && readFileSync(copy).equals(readFileSync(path));
      if (same) continue;
      cpSync(path, copy);
    }
  }
}

// The target is the first argument that is not a flag.
if (isMain(import.meta.url)) copyAssets(process.argv.slice(2).find((arg) => !arg.startsWith('-')));
