// What `tsc -b` of the product and the sandbox package reads, as one sha256 (scripts/build.mjs
// skips TypeScript when it is unchanged): TypeScript's version, the tsconfig files, and the
// name and content of every file under both `src/` folders (tests too: a conservative hash only
// costs a needless check, never a skipped one).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

/** The hash of the inputs below `root`; `projects` are the tsconfig files `tsc -b` is given. */
export function buildInputsHash(root, projects) {
  const version = createRequire(import.meta.url)('typescript/package.json').version;
  const hash = createHash('sha256').update(version);
  const files = ['tsconfig.json', ...projects, 'packages/kube-sandbox/tsconfig.json'];
  for (const dir of ['src', 'packages/kube-sandbox/src']) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(relative(root, join(entry.parentPath, entry.name)));
    }
  }
  for (const file of [...new Set(files)].sort()) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
}
