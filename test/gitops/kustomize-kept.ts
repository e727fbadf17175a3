/**
 * What `kubectl kustomize` printed for a directory, kept by a hash of the checked-out tree, the
 * directory and the kubectl binary: the output is a pure function of those, so a tree a later run
 * (or test) checks again is read back instead of starting kubectl (~0.15 s of CPU a run, most of
 * it Go's start-up). Only successful outputs are kept; entries unused for a day are removed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const KEPT = fileURLToPath(new URL('../../node_modules/.cache/agent-manager-kustomize/', import.meta.url));
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

/** The key of `kubectl kustomize <tree>/<directory>`: each file of the tree (path, content), the directory, kubectl. */
export function kustomizeKey(tree: string, directory: string, kubectl: string): string {
  const hash = createHash('sha256').update(`${directory}\0`);
  const files = readdirSync(tree, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
  for (const file of files) hash.update(`${relative(tree, file)}\0`).update(readFileSync(file)).update('\0');
  const binary = realpathSync(kubectl);
  const { size, mtimeMs } = statSync(binary);
  return hash.update(`${binary}\0${size}\0${mtimeMs}`).digest('hex');
}

/** The output kept for `key`, marked used now; undefined when there is none. */
export function keptOutput(key: string, dir = KEPT): string | undefined {
  const path = join(dir, `${key}.yaml`);
  if (!existsSync(path)) return undefined;
  const now = new Date();
  utimesSync(path, now, now);
  return readFileSync(path, 'utf8');
}

/** Keeps `output` for `key`, and removes the entries no run has used for a day. */
export function keepOutput(key: string, output: string, dir = KEPT, now = Date.now()): void {
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, `${key}.${process.pid}.tmp`);
  writeFileSync(partial, output);
  renameSync(partial, join(dir, `${key}.yaml`));
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.endsWith('.yaml') && statSync(path).mtimeMs < now - UNUSED_FOR_MS) rmSync(path, { force: true });
  }
}
