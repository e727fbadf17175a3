/**
 * Where the derived Kubernetes access (kube-access.ts) is kept between runs: by a hash of what
 * the derivation reads, so an answer is reused only for the very code it was derived from. The
 * compiler's pass over src takes seconds of CPU; reading the answer back a millisecond.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Derived } from './kube-access.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Beside vitest's own module cache, so a fresh `npm ci` starts empty. */
const KEPT = join(REPO, 'node_modules', '.cache', 'agent-manager-kube-access');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
}

type ResourceTypes = Record<string, { group: string; resource: string }>;

/**
 * A hash of what the derivation reads: the project's src and its tsconfig.json, the workspace
 * packages it can import (their src and package.json), the lock file that pins the compiler and
 * every library's types, the derivation's own code and its resource types.
 */
export function derivationKey(root: string, resourceTypes: ResourceTypes): string {
  const packages = readdirSync(join(REPO, 'packages')).sort()
    .flatMap((name) => [...filesUnder(join(REPO, 'packages', name, 'src')), join(REPO, 'packages', name, 'package.json')]);
  const inputs = [
    ...filesUnder(join(root, 'src')), join(root, 'tsconfig.json'), ...packages, join(REPO, 'package-lock.json'),
    fileURLToPath(new URL('./kube-access.ts', import.meta.url)),
  ];
  const hash = createHash('sha256').update(JSON.stringify([relative(REPO, root), resourceTypes]));
  for (const file of inputs) hash.update(`${relative(REPO, file)}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The answer kept for the derivation over `root`; keeps one per project, the newest. */
export function keptDerivation(
  root: string, resourceTypes: ResourceTypes,
): { read(): Derived | undefined; keep(derived: Derived): void } {
  const dir = join(KEPT, createHash('sha256').update(relative(REPO, root)).digest('hex').slice(0, 12));
  const path = join(dir, `${derivationKey(root, resourceTypes)}.json`);
  return {
    read: () => existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) as Derived : undefined,
    keep: (derived) => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${path}.${process.pid}.tmp`, JSON.stringify(derived));
      renameSync(`${path}.${process.pid}.tmp`, path);
    },
  };
}
