/**
 * Paths inside a GitOps repository, as Flux and kustomize name them: relative to the
 * repository root, `/`-separated, with `./` and a leading `/` meaning the root. A `..`
 * segment or a backslash is refused: agent-manager never writes outside the directory a
 * Kustomization (or the caller) names.
 */
import { posix } from 'node:path';

/** The directory in canonical form (`` for the root, else `a/b`), or undefined when it escapes. */
export function normaliseDirectory(path: string | undefined): string | undefined {
  const raw = (path ?? '').trim();
  if (raw.includes('\\') || raw.includes('\0')) return undefined;
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return undefined;
  return segments.join('/');
}

export const joinPath = (...parts: string[]): string => parts.filter((p) => p !== '').join('/');
export const dirOf = (path: string): string => (posix.dirname(path) === '.' ? '' : posix.dirname(path));
export const baseOf = (path: string): string => posix.basename(path);

/** True for a file below `directory` (any depth). */
export const isUnder = (path: string, directory: string): boolean =>
  directory === '' || path.startsWith(`${directory}/`);

/** True for a manifest file name kustomize and Flux read. */
export const isManifest = (path: string): boolean => /\.ya?ml$/i.test(path);

/** The names kustomize accepts for a kustomization file. */
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** Two `resources` entries name the same thing (`./x`, `x/`, `x`). */
export const sameEntry = (a: string, b: string): boolean => normaliseDirectory(a) === normaliseDirectory(b);
