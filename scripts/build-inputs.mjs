// What `tsc -b` (TypeScript 7) of the product and the sandbox package reads, as one sha256 (scripts/build.mjs
// skips TypeScript when it is unchanged): TypeScript's version, the tsconfig files, and the
// name and content of every file under both `src/` folders (tests too: a conservative hash only
// costs a needless check, never a skipped one). `buildInputsStats` is the cheap first look: the
// same files with the same sizes and modification times as at the last build, as make and
// `tsc -b` judge freshness, let the build reuse that build's content hash without reading them.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

function inputFiles(root, projects) {
  const files = ['tsconfig.json', ...projects, 'packages/kube-sandbox/tsconfig.json'];
  for (const dir of ['src', 'packages/kube-sandbox/src']) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(relative(root, join(entry.parentPath, entry.name)));
    }
  }
  return [...new Set(files)].sort();
}

/** The compiler's version: TypeScript 7's `tsc` builds, with its own lib files. */
const typescriptVersion = () => createRequire(import.meta.url)('typescript-7/package.json').version;

/**
 * The hash of the inputs below `root`; `projects` are the tsconfig files `tsc -b` is given, and
 * `files` the list buildInputsStats found, when the caller has it.
 */
export function buildInputsHash(root, projects, files = inputFiles(root, projects)) {
  const hash = createHash('sha256').update(typescriptVersion());
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

/**
 * A hash of the same files' names, sizes and modification times (no content read), and whether
 * one was modified in the last RACY_MS: an edit within the same tick of the clock as this look
 * would leave the time as it is, so such a look must not be trusted later (git's "racily clean").
 */
export function buildInputsStats(root, projects) {
  const hash = createHash('sha256').update(typescriptVersion());
  const now = Date.now();
  const files = inputFiles(root, projects);
  let racy = false;
  for (const file of files) {
    const { size, mtimeMs } = statSync(join(root, file));
    if (mtimeMs > now - RACY_MS) racy = true;
    hash.update(`\0${file}\0${size}\0${mtimeMs}`);
  }
  return { digest: hash.digest('hex'), racy, files };
}

const RACY_MS = 2000;
